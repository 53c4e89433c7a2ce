//! A board drawn as SVG: the cells of a `BoardView` at a fixed pitch with their labels.

use std::fmt::Write;

use super::svg_number::SvgNumber;
use crate::{board_view::BoardView, board_view::CellContent, board_view::PieceColour};

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
        let (x, y) = centre(label.x, label.y);
        let x = SvgNumber(x + (label.text.chars().count().saturating_sub(1) as f32) * CELL_W / 2.0);
        let y = SvgNumber(y);
        let _ = write!(
            svg,
            r##"<text x="{x}" y="{y}" text-anchor="middle" dominant-baseline="central" fill="#5a3d1a">{}</text>"##,
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
