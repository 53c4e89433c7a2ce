//! One cell's drawing (its peg, hole or marker, highlight and number) rasterised once at its
//! place on the picture, and turned into palette indices over the board; a card pastes it.

use resvg::{tiny_skia, usvg};

use super::card_palette::CardPalette;
use super::colour_table::{ColourTable, Rgba};
use super::fonts::SYSTEM_FONTS;
use super::PictureError;

/// A cell's drawing, rasterised on a transparent layer the size of its bounding box.
#[derive(Debug, Clone)]
pub(super) struct CellPixels {
    /// Left and top edges on the picture, in pixels.
    left: usize,
    top: usize,
    width: usize,
    /// Premultiplied RGBA, row by row.
    rgba: Vec<[u8; 4]>,
}

impl CellPixels {
    /// Rasterises `cell` (SVG elements) as the whole document `header` would, scaled by
    /// `scale`, within a picture of `size` pixels; only the cell's own bounding box is drawn.
    ///
    /// # Errors
    /// [`PictureError::Svg`] if resvg refuses the elements.
    pub(super) fn draw(
        header: &str,
        cell: &str,
        scale: f32,
        size: (u32, u32),
    ) -> Result<Self, PictureError> {
        let empty = Self {
            left: 0,
            top: 0,
            width: 0,
            rgba: Vec::new(),
        };
        let options = usvg::Options {
            fontdb: std::sync::Arc::clone(&SYSTEM_FONTS),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(&format!("{header}{cell}</svg>"), &options)?;
        if !tree.root().has_children() {
            return Ok(empty);
        }
        let bounds = tree.root().abs_layer_bounding_box();
        // One pixel more on every side, for antialiasing; whole pixels, so that every shape
        // falls on the same subpixel position as in a drawing of the whole document.
        let left = pixel_floor(bounds.left() * scale - 1.0, size.0);
        let top = pixel_floor(bounds.top() * scale - 1.0, size.1);
        let right = pixel_floor((bounds.right() * scale + 1.0).ceil(), size.0);
        let bottom = pixel_floor((bounds.bottom() * scale + 1.0).ceil(), size.1);
        if right <= left || bottom <= top {
            return Ok(empty);
        }
        let (width, height) = (right - left, bottom - top);
        let mut pixmap = pixmap(width, height)?;
        #[allow(
            clippy::cast_precision_loss,
            reason = "pixel offsets within a picture of at most MAX_SIDE pixels"
        )]
        let shift = (-(left as f32), -(top as f32));
        resvg::render(
            &tree,
            tiny_skia::Transform::from_row(scale, 0.0, 0.0, scale, shift.0, shift.1),
            &mut pixmap.as_mut(),
        );
        let rgba = pixmap
            .pixels()
            .iter()
            .map(|p| [p.red(), p.green(), p.blue(), p.alpha()])
            .collect();
        Ok(Self {
            left: usize::try_from(left).unwrap_or(0),
            top: usize::try_from(top).unwrap_or(0),
            width: usize::try_from(width).unwrap_or(0),
            rgba,
        })
    }

    /// How much memory the drawing takes once indexed, in bytes.
    pub(super) fn cost(&self) -> usize {
        self.rgba.len() * 5
    }

    /// The drawing over the board (`board`: the board layer's colour numbers in `table`,
    /// `stride` pixels a row), as colour numbers: a card pastes them.
    pub(super) fn over_board(
        self,
        board: &[u8],
        stride: usize,
        table: &mut ColourTable,
    ) -> CellSprite {
        let colours: Vec<Rgba> = self
            .placed(stride)
            .map(|(at, rgba)| {
                let under = board
                    .get(at)
                    .and_then(|&n| table.colours().get(usize::from(n)))
                    .copied()
                    .unwrap_or_default();
                over(rgba, under)
            })
            .collect();
        let over_board = table.number_layer(&colours);
        CellSprite {
            pixels: self,
            over_board,
        }
    }

    /// Every pixel with its position in the picture (row by row, `stride` pixels a row).
    fn placed(&self, stride: usize) -> impl Iterator<Item = (usize, [u8; 4])> + '_ {
        let width = self.width.max(1);
        self.rgba.iter().enumerate().map(move |(i, rgba)| {
            let (row, column) = (i / width, i % width);
            ((self.top + row) * stride + self.left + column, *rgba)
        })
    }
}

/// A cell's drawing ready to paste: its pixels and, for each, the colour number of the pixel
/// drawn over the bare board.
#[derive(Debug, Clone)]
pub(super) struct CellSprite {
    pixels: CellPixels,
    over_board: Vec<u16>,
}

impl CellSprite {
    /// How much memory the sprite takes, in bytes.
    pub(super) fn cost(&self) -> usize {
        self.pixels.cost()
    }

    /// Draws the cell onto `picture` (indices of `palette`; `board`, the bare board's; `stride`
    /// pixels a row). Where an earlier cell left its mark (a highlight reaching over), the
    /// pixel is blended anew.
    pub(super) fn paste(
        &self,
        picture: &mut [u8],
        board: &[u8],
        stride: usize,
        palette: &mut CardPalette<'_>,
    ) {
        let width = self.pixels.width.max(1);
        let rows = self
            .pixels
            .rgba
            .chunks(width)
            .zip(self.over_board.chunks(width));
        for (row, (rgba_row, over_board_row)) in rows.enumerate() {
            let start = (self.pixels.top + row) * stride + self.pixels.left;
            let end = start + rgba_row.len();
            let (Some(pixels), Some(bare_row)) =
                (picture.get_mut(start..end), board.get(start..end))
            else {
                continue;
            };
            let columns = pixels
                .iter_mut()
                .zip(bare_row)
                .zip(rgba_row.iter().zip(over_board_row));
            for ((pixel, &bare), (rgba, &over_board)) in columns {
                let alpha = rgba[3];
                if alpha == 0 {
                    continue;
                }
                *pixel = if alpha == u8::MAX || *pixel == bare {
                    palette.entry(over_board)
                } else {
                    palette.blended(over(*rgba, palette.colour(*pixel)))
                };
            }
        }
    }
}

/// A premultiplied RGBA pixel over a colour (not premultiplied), as not premultiplied.
fn over(rgba: [u8; 4], under: Rgba) -> Rgba {
    let rest = u32::from(u8::MAX - rgba[3]);
    let under_alpha = u32::from(under[3]);
    // What shows of the colour under, premultiplied: its opacity times what is left uncovered.
    let alpha = u32::from(rgba[3]) + (under_alpha * rest + 127) / 255;
    let channel = |c: usize| {
        let premultiplied =
            u32::from(rgba[c]) + (u32::from(under[c]) * under_alpha * rest + 32_512) / 65_025;
        let straight = (premultiplied * 255 + alpha / 2)
            .checked_div(alpha)
            .unwrap_or(0);
        u8::try_from(straight.min(255)).unwrap_or(u8::MAX)
    };
    [
        channel(0),
        channel(1),
        channel(2),
        u8::try_from(alpha.min(255)).unwrap_or(u8::MAX),
    ]
}

/// A pixel coordinate: `value` rounded down, within 0..=`limit`.
fn pixel_floor(value: f32, limit: u32) -> u32 {
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "clamped to 0..=limit first"
    )]
    let pixel = value.floor().clamp(0.0, limit as f32) as u32;
    pixel
}

fn pixmap(width: u32, height: u32) -> Result<tiny_skia::Pixmap, PictureError> {
    tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Size(width, height))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blending_over_keeps_opaque_pixels_and_mixes_the_rest() {
        assert_eq!(
            over([10, 20, 30, 255], [200, 200, 200, 255]),
            [10, 20, 30, 255]
        );
        assert_eq!(over([0, 0, 0, 0], [200, 100, 50, 255]), [200, 100, 50, 255]);
        // Half-covered black over white is mid grey.
        assert_eq!(
            over([0, 0, 0, 128], [255, 255, 255, 255]),
            [127, 127, 127, 255]
        );
        // Over a half-transparent edge: more opaque, the colour mixed by opacity.
        assert_eq!(over([100, 0, 0, 128], [0, 0, 200, 128]), [133, 0, 66, 192]);
        assert_eq!(over([0, 0, 0, 0], [0, 0, 0, 0]), [0, 0, 0, 0]);
    }

    #[test]
    fn a_cell_is_drawn_only_within_its_box() {
        let header = r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">"#;
        let cell = CellPixels::draw(
            header,
            r##"<circle cx="50" cy="50" r="5" fill="#ff0000"/>"##,
            2.0,
            (200, 200),
        )
        .unwrap();
        assert!(cell.left >= 88 && cell.left <= 90, "{}", cell.left);
        assert!(cell.width >= 20 && cell.width <= 24, "{}", cell.width);
        assert!(cell.rgba.contains(&[255, 0, 0, 255]));
        let nothing = CellPixels::draw(header, "", 2.0, (200, 200)).unwrap();
        assert_eq!(nothing.cost(), 0);
    }
}
