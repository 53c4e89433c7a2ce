//! The board of a page: the shared SVG renderer's picture cropped to its content, with a title
//! for screen readers, turned 180° for a player whose pieces start at the top, with the width at
//! which its cells are [`TOUCH_PX`] apart (the page zooms a board that is narrower at rest); the
//! text board; and each legal move's cells (for tapping the board).

use std::collections::HashMap;

use maud::{html, Markup, PreEscaped};
use turnpost_shared::play::DepartureText;
use turnpost_shared::render::{
    render_svg, render_text, svg_cell_pitch, svg_content_box, svg_size, BoardView, CellContent,
    PieceColour, TextStyle,
};
use turnpost_shared::{AnyGame, Seat};

/// The least distance between two cells' centres on the page when the board can be tapped, in
/// CSS pixels: a finger's target (WCAG 2.2's minimum target size is 24 × 24; one pixel more
/// keeps rounding from taking a target below it).
pub const TOUCH_PX: f32 = 25.0;

/// Which way up a page draws the board for its viewer (issue 47).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// As drawn, without a switch: a spectator, or a game in which no seat has pieces of its
    /// own at the start (`SanQi`'s stones are everyone's).
    Fixed,
    /// As drawn, with a switch: a player whose pieces start in the bottom half.
    AsDrawn,
    /// Turned 180°, with a switch: a player whose pieces start in the top half, so that they
    /// are at the bottom.
    Turned,
}

impl Turn {
    /// How `seat` (None: a spectator) sees the board of the game that started at `start`:
    /// turned when the seat's pieces stand in the top half of the start position's drawing.
    /// The start decides, not the position shown, so that the board does not turn over as the
    /// pieces advance.
    #[must_use]
    pub fn for_seat(start: &AnyGame, seat: Option<u8>) -> Turn {
        let Some(seat) = seat.and_then(Seat::new) else {
            return Turn::Fixed;
        };
        let colour = start.seat_colour(seat);
        let view = start.board_view();
        let rows: Vec<u32> = view.cells.iter().map(|cell| u32::from(cell.y)).collect();
        let (Some(top), Some(bottom)) = (rows.iter().min(), rows.iter().max()) else {
            return Turn::Fixed;
        };
        let own: Vec<u32> = view
            .cells
            .iter()
            .filter(
                |cell| matches!(cell.content, CellContent::Piece { colour: c, .. } if c == colour),
            )
            .map(|cell| u32::from(cell.y))
            .collect();
        if own.is_empty() {
            return Turn::Fixed;
        }
        // Compared doubled, in whole numbers: the mean row against the middle row.
        let count = u32::try_from(own.len()).unwrap_or(u32::MAX);
        let sum: u32 = own.iter().sum();
        if u64::from(sum) * 2 < u64::from(top + bottom) * u64::from(count) {
            Turn::Turned
        } else {
            Turn::AsDrawn
        }
    }

    /// The value of the board's `data-turn` attribute (none without a switch).
    const fn attribute(self) -> Option<&'static str> {
        match self {
            Turn::Fixed => None,
            Turn::AsDrawn => Some("as-drawn"),
            Turn::Turned => Some("turned"),
        }
    }
}

/// The position's picture with `moves` (seat, text; oldest first) marked in their movers'
/// colours, and its text drawing.
#[must_use]
pub fn view_with_moves(position: &AnyGame, moves: &[(u8, String)]) -> BoardView {
    position.board_view_with_moves(moves.iter().filter_map(|(seat, text)| {
        let seat = Seat::new(*seat)?;
        (!DepartureText::is_departure(text)).then_some((seat, text.as_str()))
    }))
}

/// The width in CSS pixels at which the cropped drawing, `width` user units wide, has its
/// cells [`TOUCH_PX`] apart: where the board fitting its frame is narrower, the page's script
/// offers "Zoom board", which widens it to this width (or its natural size, if larger) and
/// lets it scroll inside its frame.
#[must_use]
pub fn touch_width(view: &BoardView, width: f32) -> u32 {
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

/// The SVG inline, titled `title`: the renderer's document cropped to its content (its
/// `width` and `height` its natural size in CSS pixels, `data-touch-width` the least width
/// for tapping), its drawing in a group `#board-turn` that turns it 180° about the middle when
/// `turn` says so (the page's switch turns it back; CSS keeps the labels upright).
#[must_use]
pub fn svg(view: &BoardView, title: &str, turn: Turn) -> Markup {
    let (width, height) = svg_size(view);
    let (x, y, w, h) = svg_content_box(view);
    let touch = touch_width(view, w);
    let drawn = render_svg(view).replacen(
        &format!("width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\""),
        &format!("width=\"{w}\" height=\"{h}\" viewBox=\"{x} {y} {w} {h}\""),
        1,
    );
    let rotation = format!("rotate(180 {} {})", x + w / 2.0, y + h / 2.0);
    let heading = html! { title id="board-title" { (title) } }.into_string();
    let mut open = format!(
        " role=\"img\" aria-labelledby=\"board-title\" id=\"board\" data-touch-width=\"{touch}\""
    );
    if let Some(value) = turn.attribute() {
        open.push_str(&format!(" data-turn=\"{value}\""));
    }
    let turned = turn == Turn::Turned;
    if turned {
        open.push_str(" class=\"turned\"");
    }
    let group = format!(
        "<g id=\"board-turn\" data-rotation=\"{rotation}\"{}>",
        if turned {
            format!(" transform=\"{rotation}\"")
        } else {
            String::new()
        }
    );
    let titled = match (drawn.find('>'), drawn.rfind("</svg>")) {
        (Some(end), Some(close)) if end < close => format!(
            "{}{open}>{heading}{group}{}</g>{}",
            drawn.get(..end).unwrap_or_default(),
            drawn.get(end + 1..close).unwrap_or_default(),
            drawn.get(close..).unwrap_or_default()
        ),
        _ => drawn,
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

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::{GameKind, Options};

    fn start(kind: GameKind, pairs: &[&str]) -> AnyGame {
        let options = Options::from_pairs(pairs).unwrap();
        AnyGame::new(kind, &options).unwrap()
    }

    #[test]
    fn the_seat_whose_pieces_start_at_the_top_sees_the_board_turned() {
        let kefren = start(GameKind::Kefren, &[]);
        assert_eq!(Turn::for_seat(&kefren, Some(1)), Turn::AsDrawn);
        assert_eq!(Turn::for_seat(&kefren, Some(2)), Turn::Turned);
        assert_eq!(Turn::for_seat(&kefren, None), Turn::Fixed);
        // Kechi's White, the first player, starts on the top row.
        let kechi = start(GameKind::Kechi, &["lines=6"]);
        assert_eq!(Turn::for_seat(&kechi, Some(1)), Turn::Turned);
        assert_eq!(Turn::for_seat(&kechi, Some(2)), Turn::AsDrawn);
        let sanqi = start(GameKind::SanQi, &[]);
        assert_eq!(Turn::for_seat(&sanqi, Some(2)), Turn::Fixed);
        let star = start(GameKind::ChineseCheckers, &["players=3"]);
        assert_eq!(Turn::for_seat(&star, Some(1)), Turn::AsDrawn);
        assert_eq!(Turn::for_seat(&star, Some(2)), Turn::Turned);
        assert_eq!(Turn::for_seat(&star, Some(3)), Turn::Turned);
    }

    #[test]
    fn the_page_crops_the_drawing_and_turns_it_in_a_group() {
        let kechi = start(GameKind::Kechi, &[]);
        let view = kechi.board_view();
        let (full, _) = svg_size(&view);
        let (x, _, w, _) = svg_content_box(&view);
        assert!(x > 0.0 && w < full, "cropped: {x} {w} of {full}");
        let turned = svg(&view, "a board", Turn::Turned).into_string();
        assert!(turned.contains(&format!("viewBox=\"{x} ")), "{turned}");
        assert!(turned.contains("class=\"turned\""));
        assert!(turned.contains("data-turn=\"turned\""));
        assert!(turned.contains("<g id=\"board-turn\""));
        assert!(turned.contains(" transform=\"rotate(180 "));
        assert!(turned.ends_with("</g></svg>\n"), "{turned}");
        let fixed = svg(&view, "a board", Turn::Fixed).into_string();
        assert!(!fixed.contains("data-turn") && !fixed.contains(" transform="));
        // Cells stay TOUCH_PX apart at the least width: 13 columns 28 units apart.
        let touch = touch_width(&view, w);
        assert!(f64::from(touch) >= f64::from(w) * f64::from(TOUCH_PX) / 28.0);
    }
}
