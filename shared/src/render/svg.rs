//! A board drawn as SVG: the cells of a `BoardView` at a fixed pitch with their labels.

use std::fmt::Write;

use super::svg_number::SvgNumber;
use crate::{
    board_view::BoardView, board_view::CellContent, board_view::LabelView, board_view::PieceColour,
};

const CELL_W: f32 = 14.0;
const CELL_H: f32 = 28.0;
const MARGIN: f32 = 14.0;

/// The size [`render_svg`] gives a board's drawing, in SVG user units: (width, height).
pub fn svg_size(view: &BoardView) -> (f32, f32) {
    (
        f32::from(view.width) * CELL_W + 2.0 * MARGIN,
        f32::from(view.height) * CELL_H + 2.0 * MARGIN,
    )
}

/// The least distance between two cells' centres in [`render_svg`]'s drawing, in SVG user
/// units (`None` for a board of fewer than two cells): how far apart a finger's targets are.
pub fn svg_cell_pitch(view: &BoardView) -> Option<f32> {
    let centres: Vec<(f32, f32)> = view.cells.iter().map(|c| centre(c.x, c.y)).collect();
    let mut least: Option<f32> = None;
    for (i, (ax, ay)) in centres.iter().enumerate() {
        for (bx, by) in centres.iter().skip(i + 1) {
            let distance = (ax - bx).hypot(ay - by);
            if distance > 0.0 && least.is_none_or(|l| distance < l) {
                least = Some(distance);
            }
        }
    }
    least
}

/// How far a cell's drawing reaches from its centre, in SVG user units: the ring of a marked
/// cell (radius + 4, stroke 7) and a finger's target half a pitch wide both fit.
const CELL_REACH: f32 = 19.0;
/// The width allowed for one character of a label at the drawing's 12 px font: a little more
/// than DejaVu Sans' widest digits (7.6), as a page may fall back to a wider font.
const LABEL_CHAR_W: f32 = 8.0;
/// Room left around the drawn content by [`svg_content_box`].
const CONTENT_PAD: f32 = 3.0;

/// The part of [`render_svg`]'s drawing its cells and labels cover, with a little room, in SVG
/// user units: `(x, y, width, height)`. The drawing is as large as the text board's grid, a cell
/// for each character; a page crops its `viewBox` to this box so that a board fits a narrow
/// screen.
pub fn svg_content_box(view: &BoardView) -> (f32, f32, f32, f32) {
    let (width, height) = svg_size(view);
    let cells = view.cells.iter().map(|cell| {
        let (x, y) = centre(cell.x, cell.y);
        (
            x - CELL_REACH,
            y - CELL_REACH,
            x + CELL_REACH,
            y + CELL_REACH,
        )
    });
    let labels = view.labels.iter().map(|label| {
        let (x, y, anchor) = label_place(label);
        let wide = label.text.chars().count() as f32 * LABEL_CHAR_W;
        let left = if anchor == START { x } else { x - wide / 2.0 };
        (left, y - CELL_H / 4.0, left + wide, y + CELL_H / 4.0)
    });
    let reach = cells
        .chain(labels)
        .reduce(|a, b| (a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3)));
    let Some((left, top, right, bottom)) = reach else {
        return (0.0, 0.0, width, height);
    };
    let left = (left - CONTENT_PAD).max(0.0).floor();
    let top = (top - CONTENT_PAD).max(0.0).floor();
    let right = (right + CONTENT_PAD).min(width).ceil();
    let bottom = (bottom + CONTENT_PAD).min(height).ceil();
    (left, top, right - left, bottom - top)
}

/// Draws a board as a standalone SVG document (for web pages, emails and `turnpost board --svg`).
pub fn render_svg(view: &BoardView) -> String {
    let (width, height) = svg_size(view);
    let mut svg = String::new();
    // Writing to a String cannot fail; the results are ignored on purpose.
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">"##
    );
    let _ = write!(
        svg,
        r##"<rect width="{width}" height="{height}" fill="#e8c98f"/>"##
    );
    let radius = CELL_W * 0.8;
    // Written once: every peg has it.
    let radius_text = radius.to_string();
    for label in &view.labels {
        let (x, y, anchor) = label_place(label);
        let (x, y) = (SvgNumber(x), SvgNumber(y));
        let _ = write!(
            svg,
            r##"<text x="{x}" y="{y}" text-anchor="{anchor}" dominant-baseline="central" fill="#5a3d1a">{}</text>"##,
            escape(&label.text)
        );
    }
    for cell in &view.cells {
        let (x, y) = centre(cell.x, cell.y);
        let (x, y) = (SvgNumber(x), SvgNumber(y));
        let _ = write!(svg, r##"<g><title>{}</title>"##, escape(&cell.name));
        if cell.highlighted {
            // A ring in the mover's colour on a band of its contrasting ink (white under dark
            // colours, black under light ones): it shows beside a peg of the same colour, on
            // the board, and on any other peg.
            let (ring, band) = cell.mark.map_or(("#d62828", "#ffffff"), svg_colours);
            let _ = write!(
                svg,
                r##"<circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{band}" stroke-width="7"/><circle cx="{x}" cy="{y}" r="{r}" fill="none" stroke="{ring}" stroke-width="3"/>"##,
                r = radius + 4.0
            );
        }
        match cell.content {
            CellContent::Empty => {
                let _ = write!(svg, r##"<circle cx="{x}" cy="{y}" r="3" fill="#5a3d1a"/>"##);
            }
            CellContent::Marked => {
                let d = radius * 0.5;
                let (x, y) = (x.0, y.0);
                let _ = write!(
                    svg,
                    r##"<path d="M{} {}L{} {}M{} {}L{} {}" stroke="#5a3d1a" stroke-width="2"/>"##,
                    x - d,
                    y - d,
                    x + d,
                    y + d,
                    x - d,
                    y + d,
                    x + d,
                    y - d
                );
            }
            CellContent::Piece { colour, glyph } => {
                let (fill, ink) = svg_colours(colour);
                let _ = write!(
                    svg,
                    r##"<circle cx="{x}" cy="{y}" r="{radius_text}" fill="{fill}" stroke="#222" stroke-width="1"/>"##
                );
                if glyph.is_ascii_digit() {
                    let _ = write!(
                        svg,
                        r##"<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central" fill="{ink}">{glyph}</text>"##
                    );
                }
            }
        }
        svg.push_str("</g>");
    }
    svg.push_str("</svg>\n");
    svg
}

/// A label's `text-anchor` for a text that starts at its grid position.
const START: &str = "start";

/// Where a label's text stands, and how it is anchored there: a short label (a row number, a
/// column letter, a point's mark) centred over the grid cells its characters take; a longer one
/// (a turn's total, a legend, a row's holes `E1-13` and `A5`) from the left of its first cell,
/// as the text board writes it: centred as if every character took a cell, its drawn text (half
/// as wide) stood far to the right of where it begins.
fn label_place(label: &LabelView) -> (f32, f32, &'static str) {
    let (x, y) = centre(label.x, label.y);
    let count = label.text.chars().count();
    let lettered = count == 2 && label.text.starts_with(|c: char| c.is_ascii_alphabetic());
    if count > 2 || lettered {
        (x - CELL_W / 2.0, y, START)
    } else {
        (
            x + (count.saturating_sub(1) as f32) * CELL_W / 2.0,
            y,
            "middle",
        )
    }
}

fn centre(x: u16, y: u16) -> (f32, f32) {
    (
        MARGIN + (f32::from(x) + 0.5) * CELL_W,
        MARGIN + (f32::from(y) + 0.5) * CELL_H,
    )
}

fn svg_colours(colour: PieceColour) -> (&'static str, &'static str) {
    match colour {
        PieceColour::Black => ("#1d1d1d", "#ffffff"),
        PieceColour::White => ("#fafafa", "#000000"),
        PieceColour::Red => ("#d62828", "#ffffff"),
        PieceColour::Blue => ("#1f5fbf", "#ffffff"),
        PieceColour::Yellow => ("#f2c500", "#000000"),
        PieceColour::Green => ("#2a9d4b", "#ffffff"),
        PieceColour::Purple => ("#7b3fa0", "#ffffff"),
        PieceColour::Orange => ("#f08c1a", "#000000"),
        PieceColour::Grey => ("#8c8c8c", "#000000"),
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
