//! Board pictures for mail: the shared SVG renderer's drawing rasterised to PNG with resvg.
//! The outbox worker rasterises (see [`super::worker`]), not the move's transaction: a picture
//! costs milliseconds of CPU, a move should not.
//!
//! Text (coordinates, piece numbers) needs fonts: the system's are loaded once per process. A
//! machine without fonts still gets a picture, only without its labels.

use std::sync::{Arc, LazyLock};

use resvg::{tiny_skia, usvg};
use turnpost_shared::{render_svg, BoardView};

/// The longest side of a picture in pixels: readable on a phone, small in a mailbox.
const MAX_SIDE: f32 = 560.0;
/// Small boards are drawn larger, up to this factor.
const MAX_SCALE: f32 = 1.5;

/// The family the renderer asks for first.
const PREFERRED_FAMILY: &str = "DejaVu Sans";

/// One sans-serif family of the system's fonts, regular faces only, held in memory: read once
/// per process (scanning the font directories and reading font files on every picture would
/// cost more than drawing it).
static SYSTEM_FONTS: LazyLock<Arc<usvg::fontdb::Database>> = LazyLock::new(|| {
    let mut system = usvg::fontdb::Database::new();
    system.load_system_fonts();
    let fonts = regular_faces_in_memory(&system);
    tracing::debug!(faces = fonts.len(), "fonts loaded for board pictures");
    Arc::new(fonts)
});

/// The regular faces of the preferred family (else of the first family with "Sans" in its
/// name, else of any family), read into memory; the generic `sans-serif` maps to it.
fn regular_faces_in_memory(system: &usvg::fontdb::Database) -> usvg::fontdb::Database {
    use usvg::fontdb::{Source, Stretch, Style, Weight};
    let families: Vec<&str> = system
        .faces()
        .flat_map(|face| face.families.iter().map(|(name, _)| name.as_str()))
        .collect();
    let chosen = families
        .iter()
        .find(|name| **name == PREFERRED_FAMILY)
        .or_else(|| families.iter().find(|name| name.contains("Sans")))
        .or_else(|| families.first())
        .map(|name| (*name).to_owned());
    let mut fonts = usvg::fontdb::Database::new();
    let Some(family) = chosen else {
        return fonts;
    };
    let mut read: Vec<&std::path::Path> = Vec::new();
    for face in system.faces() {
        let regular = face.style == Style::Normal
            && face.weight == Weight::NORMAL
            && face.stretch == Stretch::Normal;
        if !regular || !face.families.iter().any(|(name, _)| *name == family) {
            continue;
        }
        if let Source::File(path) = &face.source {
            if read.contains(&path.as_path()) {
                continue;
            }
            read.push(path);
            match std::fs::read(path) {
                Ok(data) => fonts.load_font_data(data),
                Err(error) => tracing::warn!(path = %path.display(), %error, "font not readable"),
            }
        }
    }
    fonts.set_sans_serif_family(family);
    fonts
}

/// A rasterised picture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Png {
    /// The PNG file.
    pub bytes: Vec<u8>,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// Why a picture could not be drawn (a bug in the SVG or an absurd size).
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// resvg refused the SVG.
    #[error("board SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The size is zero or too large for a pixmap.
    #[error("board picture of {0}x{1} pixels")]
    Size(u32, u32),
    /// PNG encoding failed.
    #[error("PNG encoding: {0}")]
    Png(String),
}

/// The pixel size of the picture of an SVG drawing of `width` × `height` user units, and the
/// scale that gives it.
#[must_use]
pub fn pixel_size(width: f32, height: f32) -> (u32, u32, f32) {
    let scale = (MAX_SIDE / width.max(height).max(1.0)).min(MAX_SCALE);
    // Rounded up so the border is not cut; the sizes are small positive numbers.
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "positive and at most MAX_SIDE"
    )]
    let size = (
        (width.max(0.0) * scale).ceil() as u32,
        (height.max(0.0) * scale).ceil() as u32,
    );
    (size.0, size.1, scale)
}

/// Draws `view` as a PNG with the system's fonts.
///
/// # Errors
/// [`PictureError`] if the drawing cannot be rasterised or encoded.
pub fn board_png(view: &BoardView) -> Result<Png, PictureError> {
    svg_png(&render_svg(view))
}

/// Rasterises an SVG document (the shared renderer's) as a PNG with the system's fonts.
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn svg_png(svg: &str) -> Result<Png, PictureError> {
    svg_png_with_fonts(svg, Arc::clone(&SYSTEM_FONTS))
}

/// Rasterises an SVG document with the fonts in `fonts` (an empty database draws no text).
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn svg_png_with_fonts(
    svg: &str,
    fonts: Arc<usvg::fontdb::Database>,
) -> Result<Png, PictureError> {
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
    let bytes = encode_png(pixmap, width, height)?;
    Ok(Png {
        bytes,
        width,
        height,
    })
}

/// PNG with fast compression: the mail worker draws one picture per turn card, and the
/// default (thorough) deflate costs more CPU than the drawing for a few more kilobytes saved.
fn encode_png(pixmap: tiny_skia::Pixmap, width: u32, height: u32) -> Result<Vec<u8>, PictureError> {
    let rgba = pixmap.take_demultiplied();
    let mut bytes = Vec::new();
    let png_error = |e: png::EncodingError| PictureError::Png(e.to_string());
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Fast);
    let mut writer = encoder.write_header().map_err(png_error)?;
    writer.write_image_data(&rgba).map_err(png_error)?;
    writer.finish().map_err(png_error)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::{AnyGame, GameKind, Options};

    fn kefren_view() -> BoardView {
        let game = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
        game.board_view()
    }

    fn pixels(png: &[u8]) -> Vec<u8> {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        buf
    }

    #[test]
    fn a_board_becomes_a_small_valid_png() {
        let png = board_png(&kefren_view()).unwrap();
        assert!(png.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(
            png.width > 100 && png.height > 100,
            "{}x{}",
            png.width,
            png.height
        );
        assert!(png.width <= 560 && png.height <= 560);
        assert!(png.bytes.len() < 100_000, "{} bytes", png.bytes.len());
        let decoder = png::Decoder::new(std::io::Cursor::new(&png.bytes));
        let reader = decoder.read_info().unwrap();
        assert_eq!(reader.info().width, png.width);
        assert_eq!(reader.info().height, png.height);
    }

    #[test]
    fn without_fonts_the_picture_is_still_drawn() {
        let empty = Arc::new(usvg::fontdb::Database::new());
        let png = svg_png_with_fonts(&render_svg(&kefren_view()), empty).unwrap();
        assert!(png.bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    }

    #[test]
    fn system_fonts_draw_the_labels() {
        if SYSTEM_FONTS.is_empty() {
            // Nothing to compare on a machine without fonts (the Docker image installs some).
            return;
        }
        let with = board_png(&kefren_view()).unwrap();
        let without = svg_png_with_fonts(
            &render_svg(&kefren_view()),
            Arc::new(usvg::fontdb::Database::new()),
        )
        .unwrap();
        assert_eq!((with.width, with.height), (without.width, without.height));
        assert_ne!(
            pixels(&with.bytes),
            pixels(&without.bytes),
            "the coordinate labels change pixels only when a font was found"
        );
    }
}
