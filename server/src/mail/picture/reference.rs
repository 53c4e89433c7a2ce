//! The whole drawing rasterised at once with resvg, as a full-colour PNG: the path for any SVG
//! the layered drawing does not recognise, and the reference the layered one is compared with.

use std::sync::Arc;

use resvg::{tiny_skia, usvg};

use super::{pixel_size, PictureError, Png};

/// Rasterises an SVG document with the fonts in `fonts` (an empty database draws no text),
/// every element every time, and encodes it as RGBA.
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn svg_png_with_fonts(
    svg: &str,
    fonts: Arc<usvg::fontdb::Database>,
) -> Result<Png, PictureError> {
    let (pixmap, _) = rasterise(svg, fonts)?;
    let (width, height) = (pixmap.width(), pixmap.height());
    let bytes = encode_rgba(pixmap, width, height)?;
    Ok(Png {
        bytes,
        width,
        height,
    })
}

/// Rasterises a drawing without text (an icon) as a `side` × `side` RGBA PNG, scaled to fill
/// the square whatever its own size.
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn square_png(svg: &str, side: u32) -> Result<Png, PictureError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())?;
    let size = tree.size();
    #[allow(
        clippy::cast_precision_loss,
        reason = "an icon's side is at most a few thousand"
    )]
    let scale = side as f32 / size.width().max(size.height()).max(1.0);
    let mut pixmap = tiny_skia::Pixmap::new(side, side).ok_or(PictureError::Size(side, side))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let bytes = encode_rgba(pixmap, side, side)?;
    Ok(Png {
        bytes,
        width: side,
        height: side,
    })
}

/// Parses an SVG document and rasterises all of it at the picture's size ([`pixel_size`]),
/// with the fonts in `fonts`; the pixels and the scale they were drawn at.
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed or has no pixels.
pub(super) fn rasterise(
    svg: &str,
    fonts: Arc<usvg::fontdb::Database>,
) -> Result<(tiny_skia::Pixmap, f32), PictureError> {
    let options = usvg::Options {
        fontdb: fonts,
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options)?;
    let size = tree.size();
    let (width, height, scale) = pixel_size(size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Size(width, height))?;
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok((pixmap, scale))
}

/// PNG with fast compression: the default (thorough) deflate costs more CPU than the drawing
/// for a few more kilobytes saved.
fn encode_rgba(
    pixmap: tiny_skia::Pixmap,
    width: u32,
    height: u32,
) -> Result<Vec<u8>, PictureError> {
    let rgba = pixmap.take_demultiplied();
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(PictureError::png)?;
    writer.write_image_data(&rgba).map_err(PictureError::png)?;
    writer.finish().map_err(PictureError::png)?;
    Ok(bytes)
}
