//! The board of a page: the shared SVG renderer's picture with a title for screen readers, the
//! text board, and each legal move's cells (for clicking the board).

use maud::{html, Markup, PreEscaped};
use turnpost_shared::{
    render_svg, render_text, AnyGame, BoardView, DepartureText, Seat, TextStyle,
};

/// The position's picture with `moves` (seat, text; oldest first) marked in their movers'
/// colours, and its text drawing.
#[must_use]
pub fn view_with_moves(position: &AnyGame, moves: &[(u8, String)]) -> BoardView {
    position.board_view_with_moves(moves.iter().filter_map(|(seat, text)| {
        let seat = Seat::new(*seat)?;
        (!DepartureText::is_departure(text)).then_some((seat, text.as_str()))
    }))
}

/// The SVG inline, titled `title` (the renderer's document with a `<title>` and an image role).
#[must_use]
pub fn svg(view: &BoardView, title: &str) -> Markup {
    let svg = render_svg(view);
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
            pre { (render_text(view, TextStyle::Marked)) }
        }
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
