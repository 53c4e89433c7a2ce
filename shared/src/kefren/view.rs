//! How a Kefren position is laid out for the renderers: cells on the grid, row and column labels.

use crate::{
    board_view::BoardView, board_view::CellContent, board_view::CellView, board_view::LabelView,
    board_view::PieceColour,
};

use super::board::{Kefren, BLACK, WHITE};
use super::cell::{Cell, HEIGHT, WIDTH};

/// Row labels take columns 0–1; cells sit every other column from 3; column letters underneath.
const FIRST_X: i32 = 3;

fn grid(value: i32) -> u16 {
    u16::try_from(value).unwrap_or(0)
}

impl Kefren {
    pub(crate) fn view(&self) -> BoardView {
        let mut cells = Vec::new();
        let mut labels = Vec::new();
        for row in 0..HEIGHT {
            let y = grid(HEIGHT - 1 - row);
            labels.push(LabelView {
                text: format!("{:>2}", row + 1),
                x: 0,
                y,
            });
            for column in 0..WIDTH {
                let Some(cell) = Cell::at(column, row) else {
                    continue;
                };
                let content = match self.at(cell) {
                    BLACK => CellContent::Piece {
                        colour: PieceColour::Black,
                        glyph: 'b',
                    },
                    WHITE => CellContent::Piece {
                        colour: PieceColour::White,
                        glyph: 'w',
                    },
                    _ => CellContent::Empty,
                };
                cells.push(CellView {
                    name: cell.to_string(),
                    x: grid(FIRST_X + 2 * column),
                    y,
                    content,
                    highlighted: false,
                    mark: None,
                });
            }
        }
        for column in 0..WIDTH {
            labels.push(LabelView {
                text: char::from(b'A' + u8::try_from(column).unwrap_or(0)).to_string(),
                x: grid(FIRST_X + 2 * column),
                y: grid(HEIGHT),
            });
        }
        BoardView {
            width: grid(FIRST_X + 2 * WIDTH),
            height: grid(HEIGHT + 1),
            cells,
            labels,
        }
    }
}
