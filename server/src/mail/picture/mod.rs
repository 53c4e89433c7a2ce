//! Board pictures for mail: the shared SVG renderer's drawing rasterised to PNG. The outbox
//! worker rasterises (see [`super::worker`]), not the move's transaction.
//!
//! A turn card's picture is drawn in layers ([`layers`]): the board (background, coordinates
//! and their text) is rasterised once per variant and size ([`board_cache`]), each cell's
//! drawing (peg, hole, highlight) once per place and look ([`cell_sprite`]), both kept as
//! numbers of the board's colours ([`colour_table`]); a card copies the board and pastes its
//! cells, and is encoded as a palette PNG of the colours it uses ([`card_palette`],
//! [`indexed_png`]). A drawing of another shape is rasterised whole with
//! resvg ([`reference`]), as every picture was before: the layered picture matches it within
//! antialiasing and palette rounding.
//!
//! Text (coordinates, piece numbers) needs fonts: the system's are loaded once per process. A
//! machine without fonts still gets a picture, only without its labels.

mod board_cache;
mod board_layers;
mod board_source;
mod card_palette;
mod cell_sprite;
mod colour_table;
mod fonts;
mod indexed_png;
mod layers;
mod reference;

use std::sync::Arc;

use resvg::usvg;
use turnpost_shared::render::{render_svg, BoardView};

pub use board_source::BoardSource;
pub use reference::{square_png, svg_png_with_fonts};

/// The longest side of a picture in pixels: readable on a phone, small in a mailbox.
const MAX_SIDE: f32 = 560.0;
/// Small boards are drawn larger, up to this factor.
const MAX_SCALE: f32 = 1.5;

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
    /// The board layer has more colours than a palette PNG holds (it is drawn whole).
    #[error("board layer of {0} colours")]
    Colours(usize),
    /// PNG encoding failed.
    #[error("PNG encoding: {0}")]
    Png(String),
    /// A queued board's source does not read (a row written by another version).
    #[error("board source: {0}")]
    Board(String),
}

impl PictureError {
    fn png(error: png::EncodingError) -> Self {
        Self::Png(error.to_string())
    }
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

/// Rasterises an SVG document as a PNG with the system's fonts: the shared renderer's board
/// drawings in layers from the cache (a palette PNG), anything else whole (RGBA).
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn svg_png(svg: &str) -> Result<Png, PictureError> {
    let Some(layers) = layers::split(svg) else {
        return svg_png_whole(svg);
    };
    board_cache::picture(&layers).or_else(|error| {
        // Not expected (the whole drawing would fail the same way); drawn whole all the same.
        tracing::warn!(%error, "layered board picture failed; drawn whole");
        svg_png_whole(svg)
    })
}

/// Rasterises an SVG document whole with the system's fonts, every element every time, as
/// RGBA: how every picture was drawn before the layers (the reference they are compared with).
///
/// # Errors
/// [`PictureError`] if the drawing cannot be parsed, rasterised or encoded.
pub fn svg_png_whole(svg: &str) -> Result<Png, PictureError> {
    svg_png_with_fonts(svg, Arc::clone(&fonts::SYSTEM_FONTS))
}

/// Whether the system has a font for the pictures' text (without, they have no labels).
#[must_use]
pub fn has_fonts() -> bool {
    !fonts::SYSTEM_FONTS.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::{AnyGame, GameKind, Options, Seat, Status};

    fn kefren_view() -> BoardView {
        let game = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
        game.board_view()
    }

    /// A PNG's pixels as RGBA, whatever its colour type (palette or RGBA).
    fn rgba_pixels(png: &[u8]) -> Vec<[u8; 4]> {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        buf.truncate(info.buffer_size());
        let channels = info.color_type.samples();
        buf.chunks(channels)
            .map(|p| [p[0], p[1], p[2], p.get(3).copied().unwrap_or(255)])
            .collect()
    }

    fn colour_type(png: &[u8]) -> png::ColorType {
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.read_info().unwrap().info().color_type
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
        if !has_fonts() {
            // Nothing to compare on a machine without fonts (the Docker image installs some).
            return;
        }
        let svg = render_svg(&kefren_view());
        let without = svg_png_with_fonts(&svg, Arc::new(usvg::fontdb::Database::new())).unwrap();
        for with in [svg_png(&svg).unwrap(), svg_png_whole(&svg).unwrap()] {
            assert_eq!((with.width, with.height), (without.width, without.height));
            assert_ne!(
                rgba_pixels(&with.bytes),
                rgba_pixels(&without.bytes),
                "the coordinate labels change pixels only when a font was found"
            );
        }
    }

    /// Every variant and board size, a few moves in (so there are pegs of several colours,
    /// Kechi's markers and highlighted moves), the last moves marked as a turn card marks them.
    fn positions() -> Vec<(String, BoardView)> {
        let mut boards: Vec<(GameKind, Vec<(&str, &str)>)> = vec![
            (GameKind::Kefren, vec![]),
            (GameKind::Kechi, vec![]),
            (GameKind::Kechi, vec![("lines", "7")]),
            (GameKind::SanQi, vec![]),
            (GameKind::SanQi, vec![("side", "10")]),
        ];
        for players in ["2", "3", "4", "6"] {
            boards.push((GameKind::ChineseCheckers, vec![("players", players)]));
        }
        boards
            .into_iter()
            .map(|(kind, pairs)| {
                let mut options = Options::new();
                for (key, value) in &pairs {
                    options.set(key, *value);
                }
                let mut game = AnyGame::new(kind, &options).unwrap();
                let mut played: Vec<(Seat, String)> = Vec::new();
                for _ in 0..usize::from(game.seat_count()) + 3 {
                    let Status::Ongoing { to_move } = game.status() else {
                        break;
                    };
                    let moves = game.legal_moves();
                    let Some(text) = moves.get(moves.len() / 2) else {
                        break;
                    };
                    let (next, canonical) = game.play(text).unwrap();
                    played.push((to_move, canonical));
                    game = next;
                }
                let last = played.len().saturating_sub(2);
                let view = game.board_view_with_moves(
                    played[last..]
                        .iter()
                        .map(|(seat, text)| (*seat, text.as_str())),
                );
                (format!("{} {pairs:?}", kind.name()), view)
            })
            .collect()
    }

    /// Asserts that the layered picture of `svg` looks like the whole one, pixel by pixel: the
    /// mean difference on each channel (red, green, blue, opacity) at most 2 of 255, and at
    /// most 1% of the pixels off by more than 32 on a channel; and that it is a smaller,
    /// palette PNG of the same size.
    fn assert_looks_like_whole(name: &str, svg: &str) {
        let layered = svg_png(svg).unwrap();
        let whole = svg_png_whole(svg).unwrap();
        assert_eq!(
            colour_type(&layered.bytes),
            png::ColorType::Indexed,
            "{name}"
        );
        assert_eq!(
            (layered.width, layered.height),
            (whole.width, whole.height),
            "{name}"
        );
        let (a, b) = (rgba_pixels(&layered.bytes), rgba_pixels(&whole.bytes));
        assert_eq!(a.len(), b.len(), "{name}");
        let mut sums = [0u64; 4];
        let mut far = 0usize;
        for (p, q) in a.iter().zip(&b) {
            let diffs = [0, 1, 2, 3].map(|c| p[c].abs_diff(q[c]));
            for (sum, diff) in sums.iter_mut().zip(diffs) {
                *sum += u64::from(diff);
            }
            if diffs.iter().any(|d| *d > 32) {
                far += 1;
            }
        }
        let pixels = a.len() as f64;
        let means = sums.map(|sum| sum as f64 / pixels);
        eprintln!(
            "{name}: mean differences {means:.3?}, {far} pixels far off, {} bytes (whole: {})",
            layered.bytes.len(),
            whole.bytes.len()
        );
        assert!(
            means.iter().all(|m| *m <= 2.0) && far as f64 / pixels <= 0.01,
            "{name}: mean differences {means:?}, {far} pixels of {pixels} far off"
        );
        assert!(
            layered.bytes.len() < whole.bytes.len(),
            "{name}: palette PNG of {} bytes, RGBA of {}",
            layered.bytes.len(),
            whole.bytes.len()
        );
    }

    #[test]
    fn layered_pictures_look_like_whole_ones() {
        for (name, view) in positions() {
            let svg = render_svg(&view);
            // Twice: the second card of a board is pasted from the cache.
            assert_looks_like_whole(&format!("{name}, first"), &svg);
            assert_looks_like_whole(&format!("{name}, cached"), &svg);
        }
    }

    #[test]
    fn cards_drawn_at_once_on_several_threads_are_whole() {
        // Different positions of one board on four threads: cells drawn, numbered and pasted
        // while other cards of the board are.
        let game = AnyGame::new(GameKind::SanQi, &Options::default()).unwrap();
        let mut svgs = Vec::new();
        let mut position = game;
        for _ in 0..8 {
            let moves = position.legal_moves();
            let Some(text) = moves.last() else { break };
            let (next, canonical) = position.play(text).unwrap();
            let seat = Seat::new(1).unwrap();
            svgs.push(render_svg(
                &next.board_view_with_moves([(seat, canonical.as_str())]),
            ));
            position = next;
        }
        std::thread::scope(|scope| {
            for chunk in svgs.chunks(2) {
                scope.spawn(move || {
                    for svg in chunk {
                        assert_looks_like_whole("sanqi on a thread", svg);
                    }
                });
            }
        });
    }

    #[test]
    fn other_drawings_are_rasterised_whole() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"><defs/><circle cx="5" cy="5" r="4" fill="#123456"/></svg>"##;
        let png = svg_png(svg).unwrap();
        assert_eq!(colour_type(&png.bytes), png::ColorType::Rgba);
        assert_eq!((png.width, png.height), (30, 15));
    }
}
