//! A SanQi position: the stones, the seat to move and the ko cell.

use std::fmt;

use super::colour::EMPTY;
use super::geometry::{geometry, Geometry, OUTSIDE, SLOTS};
use super::patterns::Standing;

/// A SanQi position: the stones, the seat to move, and the ko cell (where the previous move
/// landed). Patterns standing on the board are counted along the way (see `patterns.rs`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SanQi {
    /// Cells per side of the board: 4, 6, 8 or 10.
    pub(crate) side: u8,
    /// `EMPTY` or a colour's stone value, by dense cell index; `OUTSIDE` and the slots past the
    /// board stay empty.
    pub(crate) cells: [u8; SLOTS],
    /// 0 = First (seat 1), 1 = Second (seat 2).
    pub(crate) to_move: u8,
    /// The cell the previous move landed on, or `OUTSIDE` when there is none.
    pub(crate) ko: u16,
    /// Number of empty cells on the board.
    pub(crate) empties: u16,
    pub(crate) standing: Standing,
}

impl SanQi {
    /// A position from its parts; counts empty cells and standing patterns from scratch.
    pub(crate) fn from_parts(side: u8, cells: [u8; SLOTS], to_move: u8, ko: u16) -> SanQi {
        let geometry = geometry(side);
        let empties = cells
            .iter()
            .take(geometry.len())
            .filter(|stone| **stone == EMPTY)
            .count();
        SanQi {
            side,
            cells,
            to_move,
            ko,
            empties: u16::try_from(empties).unwrap_or(u16::MAX),
            standing: Standing::scan(geometry, &cells),
        }
    }

    /// The empty board of `side` (one of 4, 6, 8, 10), First to move.
    pub(crate) fn empty(side: u8) -> SanQi {
        SanQi::from_parts(side, [EMPTY; SLOTS], 0, OUTSIDE)
    }

    /// Cells per side of the board.
    pub fn side(&self) -> u8 {
        self.side
    }

    /// The number of cells of the board (37, 91, 169 or 271).
    pub fn cell_count(&self) -> usize {
        self.geometry().len()
    }

    pub(crate) fn geometry(&self) -> &'static Geometry {
        geometry(self.side)
    }

    pub(crate) fn at(&self, index: u16) -> u8 {
        self.cells.get(usize::from(index)).copied().unwrap_or(EMPTY)
    }

    /// The seat (0 or 1) that made the previous move: the other one.
    pub(crate) fn previous_mover(&self) -> u8 {
        1 - self.to_move
    }

    /// Rules "Winning": after a move only the mover's goals count, whoever built the pattern.
    /// The mover of the last move is the seat not to move, so the result follows from the
    /// board and the seat to move alone (position text needs no result field).
    pub(crate) fn winner(&self) -> Option<u8> {
        let mover = self.previous_mover();
        self.standing.meets_goals_of(mover).then_some(mover)
    }
}

/// The position text: short, and enough to rebuild the position.
impl fmt::Debug for SanQi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SanQi({})", self.to_position_text())
    }
}
