//! A palette PNG: one byte a pixel instead of four, so less to filter and to compress.

use super::PictureError;

/// Encodes `indices` (one palette index a pixel, row by row) with `palette` (RGBA, not
/// premultiplied; the opacities go into a `tRNS` chunk when any is below 255).
///
/// # Errors
/// [`PictureError::Png`] if the sizes do not match or the palette holds more than 256 colours.
pub(super) fn encode_indexed(
    indices: &[u8],
    width: u32,
    height: u32,
    palette: &[[u8; 4]],
) -> Result<Vec<u8>, PictureError> {
    let rgb: Vec<u8> = palette.iter().flat_map(|c| [c[0], c[1], c[2]]).collect();
    // Entries after the last translucent one need no opacity (255 is implied).
    let translucent = palette
        .iter()
        .rposition(|c| c[3] < u8::MAX)
        .map_or(0, |at| at + 1);
    let opacities: Vec<u8> = palette.iter().take(translucent).map(|c| c[3]).collect();
    let mut bytes = Vec::with_capacity(indices.len() / 8);
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(rgb);
    if !opacities.is_empty() {
        encoder.set_trns(opacities);
    }
    encoder.set_compression(png::Compression::Fast);
    // Filters predict smooth gradients; palette indices are not numbers on a scale, so
    // prediction only costs time here (the PNG specification recommends no filter).
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header().map_err(PictureError::png)?;
    writer
        .write_image_data(indices)
        .map_err(PictureError::png)?;
    writer.finish().map_err(PictureError::png)?;
    Ok(bytes)
}
