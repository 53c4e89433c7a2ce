//! What a legal turn is (rules: "A turn"): an unordered set of stone moves, kept in canonical
//! order.

use super::cell::Cell;

/// One stone's move within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StoneMove {
    pub from: Cell,
    pub to: Cell,
    /// Whether it lands on an enemy stone.
    pub capture: bool,
}

/// A legal Kechi turn: its stone moves ordered by source cell (column letter, then row number),
/// so each set of stone moves has exactly one value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KechiTurn {
    pub(crate) moves: Vec<StoneMove>,
}

impl KechiTurn {
    /// The stone moves, in canonical order.
    pub fn stone_moves(&self) -> &[StoneMove] {
        &self.moves
    }
}
