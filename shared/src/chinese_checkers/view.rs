//! The star on a character grid: rows are lines, holes two columns apart, each row shifted half
//! a hole from the next, so neighbours touch as on the board. Row letters on the left; each
//! number labels the top end of its diagonal.

use crate::{BoardView, CellContent, CellView, LabelView, PieceColour};

use super::board::{ChineseCheckers, EMPTY, INERT};
use super::hole::{Hole, ROWS, ROW_RANGE};

/// Columns left of the leftmost hole (row letter and a blank, plus room for the label "1").
const LEFT: i32 = 4;
/// Lines above row A (for the label of number 5).
const TOP: i32 = 1;

fn grid(value: i32) -> u16 {
    u16::try_from(value).unwrap_or(0)
}

fn x_of(row: i32, number: i32) -> i32 {
    2 * number - row + LEFT
}

fn colour(set: u8) -> PieceColour {
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
                y: grid(row + TOP),
                content,
                highlighted: false,
            });
        }
        for (row, _) in ROW_RANGE.iter().enumerate() {
            let row = i32::try_from(row).unwrap_or(0);
            labels.push(LabelView {
                text: char::from(b'A' + u8::try_from(row).unwrap_or(0)).to_string(),
                x: 0,
                y: grid(row + TOP),
            });
        }
        // The label of number n stands where its diagonal would continue above its top hole.
        for number in 1..=17 {
            let top = (0..ROWS as i32).find(|&row| Hole::at(row, number).is_some());
            if let Some(top) = top {
                labels.push(LabelView {
                    text: number.to_string(),
                    x: grid(x_of(top - 1, number)),
                    y: grid(top - 1 + TOP),
                });
            }
        }
        BoardView {
            width: grid(x_of(12, 17) + 3),
            height: grid(ROWS as i32 + TOP),
            cells,
            labels,
        }
    }
}
