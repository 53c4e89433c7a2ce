//! A player's place in the turn order, numbered from 1 (seat 1 moves first).

use std::fmt;

use serde::{Deserialize, Serialize};

/// A player's place in the turn order, numbered from 1 (seat 1 moves first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The first seat, which makes the first move.
    pub const FIRST: Seat = Seat(1);

    /// The seat with this 1-based number, if the number is at least 1.
    pub const fn new(number: u8) -> Option<Seat> {
        if number == 0 {
            None
        } else {
            Some(Seat(number))
        }
    }

    /// The seat for a 0-based index into a list of seats.
    pub const fn from_index(index: usize) -> Seat {
        // Seat counts are at most 6; saturate rather than wrap for absurd indices.
        let n = if index >= u8::MAX as usize {
            u8::MAX
        } else {
            index as u8 + 1
        };
        Seat(n)
    }

    /// The 1-based seat number.
    pub const fn number(self) -> u8 {
        self.0
    }

    /// The 0-based index of this seat.
    pub const fn index(self) -> usize {
        self.0 as usize - 1
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
