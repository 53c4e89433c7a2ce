//! A palette PNG: one byte a pixel instead of four, so less to filter and to compress.

use super::PictureError;

/// Encodes `indices` (one palette index a pixel, row by row) with `palette` (RGB triples).
///
/// # Errors
/// [`PictureError::Png`] if the sizes do not match or the palette holds more than 256 colours.
pub(super) fn encode_indexed(
    indices: &[u8],
    width: u32,
    height: u32,
    palette: &[[u8; 3]],
) -> Result<Vec<u8>, PictureError> {
    let flat: Vec<u8> = palette.iter().flatten().copied().collect();
    let mut bytes = Vec::with_capacity(indices.len() / 8);
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(flat);
    encoder.set_compression(png::Compression::Fast);
    // Filters predict smooth gradients; palette indices are not numbers on a scale, so
    // prediction only costs time here (the PNG specification recommends no filter).
    encoder.set_filter(png::Filter::NoFilter);
    let mut writer = encoder.write_header().map_err(PictureError::png)?;
    writer.write_image_data(indices).map_err(PictureError::png)?;
    writer.finish().map_err(PictureError::png)?;
    Ok(bytes)
}
