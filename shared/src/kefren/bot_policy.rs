//! What the bot knows about Kefren: material, stones on the far row (the rank count of "End of
//! the game") and advance; captures and forward twirls first.

use crate::mcts::{two_player_values, BotPolicy, SeatValues};

use super::board::{Kefren, BLACK, EMPTY};
use super::cell::{Cell, CELLS, HEIGHT};
use super::moves::KefrenMove;

/// Rows ahead of the stone's home edge: 0 on its own first row, 18 on the far row.
fn advance(colour: u8, cell: Cell) -> i32 {
    if colour == BLACK {
        cell.row()
    } else {
        HEIGHT - 1 - cell.row()
    }
}

impl BotPolicy for Kefren {
    const PLAYOUT_PLIES: u32 = 6;
    const PRIOR_TEMPERATURE: f64 = 1.0;

    fn evaluate(&self) -> SeatValues {
        let (mut material, mut rank, mut forward) = (0i32, 0i32, 0i32);
        for index in 0..CELLS {
            let cell = Cell::from_index(index);
            let colour = self.at(cell);
            if colour == EMPTY {
                continue;
            }
            let sign = if colour == BLACK { 1 } else { -1 };
            let ahead = advance(colour, cell);
            material += sign;
            forward += sign * ahead;
            if ahead == HEIGHT - 1 {
                rank += sign;
            }
        }
        two_player_values(
            0.5 * f64::from(material) + 1.5 * f64::from(rank) + 0.02 * f64::from(forward),
        )
    }

    fn move_score(&self, mv: &KefrenMove) -> f64 {
        let colour = self.side;
        match mv {
            KefrenMove::Twirl { from, to } => {
                let gain = advance(colour, *to) - advance(colour, *from);
                let arrival = if advance(colour, *to) == HEIGHT - 1 {
                    3.0
                } else {
                    0.0
                };
                0.3 * f64::from(gain) + arrival
            }
            KefrenMove::Capture { path } => {
                let captures = path.len().saturating_sub(1) as f64;
                let arrival = match path.last() {
                    Some(last) if advance(colour, *last) == HEIGHT - 1 => 3.0,
                    _ => 0.0,
                };
                2.0 * captures + arrival
            }
        }
    }
}
