//! Resolution: a move text against a position gives a legal move or the rule it breaks.
//! Rules are checked in this order: game over, off the board, same colour, ko, neighbours.

use super::board::SanQi;
use super::cell::Cell;
use super::colour::Colour;
use super::illegal::SanQiIllegal;
use super::move_text::SanQiMoveText;
use super::moves::{replacement_allowed, SanQiMove};

impl SanQi {
    pub(crate) fn resolve(&self, text: &SanQiMoveText) -> Result<SanQiMove, SanQiIllegal> {
        if let Some(result) = self.result_text() {
            return Err(SanQiIllegal::GameOver { result });
        }
        let geometry = self.geometry();
        let letter = i32::from(text.cell.letter) + 1;
        let cell = i32::try_from(text.cell.number)
            .ok()
            .and_then(|number| geometry.index(letter, number))
            .and_then(|index| Cell::from_index(geometry, index))
            .ok_or_else(|| SanQiIllegal::OffBoard {
                cell: text.cell.to_string(),
                side: geometry.side,
                span: geometry.span,
                gap: geometry.side - 1,
            })?;
        let colour = text.colour;
        let mv = SanQiMove { colour, cell };
        let current = self.at(cell.index);
        let Some(current_colour) = Colour::of_stone(current) else {
            return Ok(mv);
        };
        if current_colour == colour {
            return Err(SanQiIllegal::SameColour {
                cell: cell.to_string(),
                colour,
            });
        }
        if cell.index == self.ko {
            return Err(SanQiIllegal::Ko {
                cell: cell.to_string(),
            });
        }
        let around = self.around(geometry, cell.index);
        if !replacement_allowed(around, current, colour.stone()) {
            let count = |stone: u8| around.get(usize::from(stone)).copied().unwrap_or(0);
            return Err(SanQiIllegal::NotEnoughNeighbours {
                cell: cell.to_string(),
                current: current_colour,
                new: colour,
                new_count: count(colour.stone()),
                current_count: count(current),
            });
        }
        Ok(mv)
    }

    /// How the game ended, for error messages; `None` while it goes on.
    pub(crate) fn result_text(&self) -> Option<String> {
        if let Some(winner) = self.winner() {
            return Some(format!("seat {} has won", winner + 1));
        }
        if !self.has_move() {
            return Some(format!(
                "drawn, seat {} has no legal move",
                self.to_move + 1
            ));
        }
        None
    }
}
