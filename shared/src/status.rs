//! Where a game stands: still being played, won by some seats, or drawn.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// Where a game stands: still being played, won, or drawn.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Status {
    /// The game goes on and `to_move` plays next.
    Ongoing { to_move: Seat },
    /// The game is over; these seats won (our games have exactly one winner).
    Won { winners: Vec<Seat> },
    /// The game is over without a winner.
    Draw,
}

impl Status {
    /// A win for a single seat.
    pub fn won_by(seat: Seat) -> Status {
        Status::Won {
            winners: vec![seat],
        }
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        !matches!(self, Status::Ongoing { .. })
    }

    /// The seat to move, if the game goes on.
    pub fn to_move(&self) -> Option<Seat> {
        match self {
            Status::Ongoing { to_move } => Some(*to_move),
            _ => None,
        }
    }
}

/// The one-line form of the `engine status` command: `ongoing 1`, `won 2`, `draw`.
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Status::Ongoing { to_move } => write!(f, "ongoing {to_move}"),
            Status::Won { winners } => {
                f.write_str("won")?;
                for seat in winners {
                    write!(f, " {seat}")?;
                }
                Ok(())
            }
            Status::Draw => f.write_str("draw"),
        }
    }
}
