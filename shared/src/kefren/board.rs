//! A Kefren position: what stands on each cell of the 9×19 board and which side moves.

use super::cell::{Cell, CELLS, HEIGHT, WIDTH};

/// What stands on a cell.
pub(crate) const EMPTY: u8 = 0;
pub(crate) const BLACK: u8 = 1;
pub(crate) const WHITE: u8 = 2;

/// A Kefren position: the stones and the side to move. Black (seat 1) moves first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kefren {
    pub(crate) cells: [u8; CELLS],
    /// `BLACK` or `WHITE`.
    pub(crate) side: u8,
}

impl Kefren {
    /// The standard start: Black on rows 1–2, White on rows 18–19, Black to move.
    pub fn start() -> Kefren {
        let mut cells = [EMPTY; CELLS];
        for column in 0..WIDTH {
            for row in [0, 1] {
                set(&mut cells, column, row, BLACK);
            }
            for row in [HEIGHT - 2, HEIGHT - 1] {
                set(&mut cells, column, row, WHITE);
            }
        }
        Kefren { cells, side: BLACK }
    }

    pub(crate) fn at(&self, cell: Cell) -> u8 {
        self.cells.get(cell.index()).copied().unwrap_or(EMPTY)
    }

    /// Stones of `colour` on `row` (0-based).
    pub(crate) fn count_on_row(&self, colour: u8, row: i32) -> usize {
        (0..WIDTH)
            .filter_map(|column| Cell::at(column, row))
            .filter(|cell| self.at(*cell) == colour)
            .count()
    }
}

fn set(cells: &mut [u8; CELLS], column: i32, row: i32, colour: u8) {
    if let Some(slot) = Cell::at(column, row).and_then(|cell| cells.get_mut(cell.index())) {
        *slot = colour;
    }
}

/// The other side.
pub(crate) fn opponent(colour: u8) -> u8 {
    if colour == BLACK {
        WHITE
    } else {
        BLACK
    }
}

/// Whether a capture from `from` to `to` goes forward or sideways for `colour` (never backwards).
pub(crate) fn not_backwards(colour: u8, from: Cell, to: Cell) -> bool {
    if colour == BLACK {
        to.row() >= from.row()
    } else {
        to.row() <= from.row()
    }
}
