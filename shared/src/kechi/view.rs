//! The board as a game-independent picture, with the turn's total (and scores with tokens)
//! on a line under the column letters, and what `x` means once cells are marked.

use crate::{
    board_view::BoardView, board_view::CellContent, board_view::CellView, board_view::LabelView,
    board_view::PieceColour,
};

use super::bits::Bits;
use super::board::{Kechi, BLACK, WHITE};
use super::rules::UNKNOWN_TOTAL;

/// Row labels take columns 0–1; cells sit every other column from 3.
const FIRST_X: usize = 3;

/// What the `x` cells are, under the board once there are some.
const MARKED_LEGEND: &str = "x: marked, no stone may land there again";

fn grid(value: usize) -> u16 {
    u16::try_from(value).unwrap_or(u16::MAX)
}

impl Kechi {
    pub(crate) fn view(&self) -> BoardView {
        let board = self.geometry();
        let size = board.size;
        let mut cells = Vec::new();
        let mut labels = Vec::new();
        for row in 0..size {
            let y = grid(size - 1 - row);
            labels.push(LabelView {
                text: format!("{:>2}", row + 1),
                x: 0,
                y,
            });
        }
        for index in 0..board.len() {
            let cell = board.cell(index);
            let content = if self.side_stones(WHITE).contains(index) {
                CellContent::Piece {
                    colour: PieceColour::White,
                    glyph: 'w',
                }
            } else if self.side_stones(BLACK).contains(index) {
                CellContent::Piece {
                    colour: PieceColour::Black,
                    glyph: 'b',
                }
            } else if self.marked.contains(index) {
                CellContent::Marked
            } else {
                CellContent::Empty
            };
            cells.push(CellView {
                name: cell.to_string(),
                x: grid(FIRST_X + 2 * usize::from(cell.column())),
                y: grid(size - 1 - usize::from(cell.row())),
                content,
                highlighted: false,
                mark: None,
            });
        }
        for column in 0..size {
            let letter = u8::try_from(column).unwrap_or(0);
            labels.push(LabelView {
                text: char::from(b'a'.saturating_add(letter)).to_string(),
                x: grid(FIRST_X + 2 * column),
                y: grid(size),
            });
        }
        // With the die, the total is the roll of the player to move.
        let mut summary = if self.rules.die && self.total == UNKNOWN_TOTAL {
            "die roll not known yet".to_string()
        } else if self.rules.die {
            format!("die roll {}", self.total)
        } else {
            format!("total {}", self.total)
        };
        if self.rules.tokens {
            summary.push_str(&format!(
                ", score white {} black {}",
                self.scores[WHITE], self.scores[BLACK]
            ));
        }
        let mut width = (FIRST_X + 2 * size).max(summary.len());
        labels.push(LabelView {
            text: summary,
            x: 0,
            y: grid(size + 1),
        });
        let mut height = size + 2;
        if self.marked != Bits::default() {
            // Players meet `x` only once a stone has left a cell: say then what it means.
            width = width.max(MARKED_LEGEND.len());
            labels.push(LabelView {
                text: MARKED_LEGEND.to_string(),
                x: 0,
                y: grid(height),
            });
            height += 1;
        }
        BoardView {
            width: grid(width),
            height: grid(height),
            cells,
            labels,
        }
    }
}
