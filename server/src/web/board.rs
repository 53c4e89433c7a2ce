//! The board of a page: the shared SVG renderer's picture with a title for screen readers,
//! drawn large enough to tap (at least [`TOUCH_PX`] between cells), the text board, and each
//! legal move's cells (for tapping the board).

use std::collections::HashMap;

use maud::{html, Markup, PreEscaped};
use turnpost_shared::play::DepartureText;
use turnpost_shared::render::{
    render_svg, render_text, svg_cell_pitch, svg_size, BoardView, CellContent, PieceColour,
    TextStyle,
};
use turnpost_shared::{AnyGame, Seat};

/// The least distance between two cells' centres on the page, in CSS pixels: a finger's
/// target (WCAG 2.2's minimum target size is 24 × 24).
pub const TOUCH_PX: f32 = 26.0;

/// The position's picture with `moves` (seat, text; oldest first) marked in their movers'
/// colours, and its text drawing.
#[must_use]
pub fn view_with_moves(position: &AnyGame, moves: &[(u8, String)]) -> BoardView {
    position.board_view_with_moves(moves.iter().filter_map(|(seat, text)| {
        let seat = Seat::new(*seat)?;
        (!DepartureText::is_departure(text)).then_some((seat, text.as_str()))
    }))
}

/// The width in CSS pixels at which the board's cells are [`TOUCH_PX`] apart (the page never
/// draws it narrower; a narrower screen scrolls the board inside its frame).
#[must_use]
pub fn touch_width(view: &BoardView) -> u32 {
    let (width, _) = svg_size(view);
    let scale = svg_cell_pitch(view).map_or(1.0, |pitch| TOUCH_PX / pitch);
    // A board is at most a few thousand units wide: the product fits a u32 well.
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a positive width of a few thousand pixels"
    )]
    let px = (width * scale).ceil() as u32;
    px
}

/// The SVG inline, titled `title` (the renderer's document with a `<title>` and an image role),
/// its `width` and `height` in CSS pixels the size at which its cells can be tapped.
#[must_use]
pub fn svg(view: &BoardView, title: &str) -> Markup {
    let (width, height) = svg_size(view);
    let touch = touch_width(view);
    let touch_height = (f64::from(touch) * f64::from(height) / f64::from(width)).ceil();
    let svg = render_svg(view).replacen(
        &format!("width=\"{width}\" height=\"{height}\""),
        &format!("width=\"{touch}\" height=\"{touch_height}\""),
        1,
    );
    let heading = html! { title id="board-title" { (title) } }.into_string();
    let titled = match svg.find('>') {
        Some(end) => {
            let (open, rest) = svg.split_at(end);
            format!(
                "{open} role=\"img\" aria-labelledby=\"board-title\" id=\"board\">{heading}{}",
                rest.get(1..).unwrap_or_default()
            )
        }
        None => svg,
    };
    // The renderer escapes the cell names and labels it writes; the title is escaped by maud.
    PreEscaped(titled)
}

/// The text drawing in a `<details>`, the alternative to the picture.
#[must_use]
pub fn text(view: &BoardView) -> Markup {
    html! {
        details.text-board {
            summary { "The board as text" }
            pre tabindex="0" { (render_text(view, TextStyle::Marked)) }
        }
    }
}

/// The legal moves for tapping, as JSON: each move's text (`m`), the cells of each of its
/// parts (`c`; Kechi's stone moves are parts, entered in any order), and for moves that share
/// their cells with another (`SanQi`'s colours) the choice's name (`k`) and swatch class (`s`).
#[must_use]
pub fn legal_moves_json(position: &AnyGame, view: &BoardView, legal: &[String]) -> String {
    let parts: Vec<Vec<Vec<String>>> = legal
        .iter()
        .map(|mv| mv.split(',').map(|part| cells_of(view, part)).collect())
        .collect();
    let mut sharing: HashMap<Vec<String>, usize> = HashMap::new();
    for cells in &parts {
        let mut key: Vec<String> = cells.iter().flatten().cloned().collect();
        key.sort();
        *sharing.entry(key).or_default() += 1;
    }
    let moves: Vec<serde_json::Value> = legal
        .iter()
        .zip(&parts)
        .map(|(mv, cells)| {
            let mut key: Vec<String> = cells.iter().flatten().cloned().collect();
            key.sort();
            let mut entry = serde_json::json!({ "m": mv, "c": cells });
            if sharing.get(&key).copied().unwrap_or(0) > 1 {
                let colour = landing_colour(position, mv, key.last());
                entry["k"] = colour
                    .map_or_else(|| mv.clone(), |c| colour_name(c).to_owned())
                    .into();
                if let Some(colour) = colour {
                    entry["s"] = colour_class(colour).into();
                }
            }
            entry
        })
        .collect();
    // Inside <script>, only "</" could end the element early.
    serde_json::Value::Array(moves)
        .to_string()
        .replace("</", "<\\/")
}

/// The colour of the piece standing on `cell` after `mv`: what sets apart moves through the
/// same cells (`SanQi`'s `R@d4`, `B@d4`).
fn landing_colour(position: &AnyGame, mv: &str, cell: Option<&String>) -> Option<PieceColour> {
    let cell = cell?;
    let (after, _) = position.play(mv).ok()?;
    let view = after.board_view();
    match view.cells.iter().find(|c| &c.name == cell)?.content {
        CellContent::Piece { colour, .. } => Some(colour),
        CellContent::Empty | CellContent::Marked => None,
    }
}

/// A colour's name on a button.
#[must_use]
pub const fn colour_name(colour: PieceColour) -> &'static str {
    match colour {
        PieceColour::Black => "Black",
        PieceColour::White => "White",
        PieceColour::Red => "Red",
        PieceColour::Blue => "Blue",
        PieceColour::Yellow => "Yellow",
        PieceColour::Green => "Green",
        PieceColour::Purple => "Purple",
        PieceColour::Orange => "Orange",
        PieceColour::Grey => "Grey",
    }
}

/// The CSS class of a colour's swatch.
#[must_use]
pub const fn colour_class(colour: PieceColour) -> &'static str {
    match colour {
        PieceColour::Black => "c-black",
        PieceColour::White => "c-white",
        PieceColour::Red => "c-red",
        PieceColour::Blue => "c-blue",
        PieceColour::Yellow => "c-yellow",
        PieceColour::Green => "c-green",
        PieceColour::Purple => "c-purple",
        PieceColour::Orange => "c-orange",
        PieceColour::Grey => "c-grey",
    }
}

/// The cells a move passes through, in the order its text names them.
#[must_use]
pub fn cells_of(view: &BoardView, move_text: &str) -> Vec<String> {
    move_text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .filter_map(|word| {
            view.cells
                .iter()
                .find(|cell| cell.name.eq_ignore_ascii_case(word))
                .map(|cell| cell.name.clone())
        })
        .collect()
}
