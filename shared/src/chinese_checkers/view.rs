//! The star on a character grid: rows are lines, holes two columns apart, each row shifted half
//! a hole from the next, so neighbours touch as on the board. Each row has its letter on the
//! left and its holes (`E1-13`) on the right: number labels along the diagonals would stand
//! on the same lines as pegs, whose glyphs are digits too, and so does a bare number (`5`)
//! beside a row.

use crate::{
    board_view::BoardView, board_view::CellContent, board_view::CellView, board_view::LabelView,
    board_view::PieceColour,
};

use super::board::{ChineseCheckers, EMPTY, INERT};
use super::hole::{Hole, ROWS, ROW_RANGE};
use super::points::opposite;
use super::variant::sets_in;

/// Columns left of the leftmost hole (row letter and a blank).
const LEFT: i32 = 4;
/// Columns between a row's last hole and its numbers.
const GAP: i32 = 3;
/// Where the mark of each point (1 to 6) stands: beside the tip of the top and bottom points
/// (after the row's numbers), above or below the outer tip of the side points.
const TARGET_MARKS: [(i32, i32); 6] = [(22, 16), (2, 13), (2, 3), (21, 0), (27, 3), (27, 13)];

fn grid(value: i32) -> u16 {
    u16::try_from(value).unwrap_or(0)
}

fn x_of(row: i32, number: i32) -> i32 {
    2 * number - row + LEFT
}

pub(crate) fn colour(set: u8) -> PieceColour {
    match set {
        1 => PieceColour::Red,
        2 => PieceColour::Yellow,
        3 => PieceColour::Green,
        4 => PieceColour::Blue,
        5 => PieceColour::Purple,
        6 => PieceColour::Orange,
        _ => PieceColour::Grey,
    }
}

impl ChineseCheckers {
    pub(crate) fn view(&self) -> BoardView {
        let mut cells = Vec::new();
        let mut labels = Vec::new();
        for hole in Hole::all() {
            let (row, number) = hole.coords();
            let content = match self.at(hole) {
                EMPTY => CellContent::Empty,
                INERT => CellContent::Piece {
                    colour: PieceColour::Grey,
                    glyph: 'x',
                },
                set => CellContent::Piece {
                    colour: colour(set),
                    glyph: char::from(b'0' + set),
                },
            };
            cells.push(CellView {
                name: hole.to_string(),
                x: grid(x_of(row, number)),
                y: grid(row),
                content,
                highlighted: false,
                mark: None,
            });
        }
        let mut width = 0;
        for (row, &(first, last)) in ROW_RANGE.iter().enumerate() {
            let row = i32::try_from(row).unwrap_or(0);
            labels.push(LabelView {
                text: char::from(b'A' + u8::try_from(row).unwrap_or(0)).to_string(),
                x: 0,
                y: grid(row),
            });
            // With the row's letter, so the label cannot be read as pegs (`A . 5` looked like
            // a peg of set 5 beside the top hole).
            let letter = char::from(b'A' + u8::try_from(row).unwrap_or(0));
            let numbers = if first == last {
                format!("{letter}{first}")
            } else {
                format!("{letter}{first}-{last}")
            };
            let x = x_of(row, last) + GAP;
            width = width.max(x + i32::try_from(numbers.len()).unwrap_or(0));
            labels.push(LabelView {
                text: numbers,
                x: grid(x),
                y: grid(row),
            });
        }
        // Each target point in play gets `▲k` by its tip, in a blank corner of the grid, so the
        // goal line ("fill the point marked ▲4") points at the picture; a seat that left has no
        // goal any more.
        for set in sets_in(self.variant.layout.in_play) {
            if self.left.contains(self.variant.seat_of(set)) {
                continue;
            }
            let target = opposite(set);
            if let Some(&(x, y)) = TARGET_MARKS.get(target.wrapping_sub(1)) {
                width = width.max(x + 2);
                labels.push(LabelView {
                    text: format!("\u{25B2}{target}"),
                    x: grid(x),
                    y: grid(y),
                });
            }
        }
        BoardView {
            width: grid(width),
            height: grid(ROWS as i32),
            cells,
            labels,
        }
    }
}
