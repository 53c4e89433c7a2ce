//! A cell of the Kechi board by column letter and row number, in the canonical order of stone
//! moves.

use std::fmt;

/// A cell of a Kechi board by 0-based column (letter `a` = 0) and row (row `1` = 0).
/// Ordering is the canonical order of stone moves: by column letter, then by row number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    column: u8,
    row: u8,
}

impl Cell {
    pub(crate) const fn new(column: u8, row: u8) -> Cell {
        Cell { column, row }
    }

    /// 0-based column: `a` is 0.
    pub fn column(self) -> u8 {
        self.column
    }

    /// 0-based row: row `1` is 0.
    pub fn row(self) -> u8 {
        self.row
    }
}

/// `a13`: lower-case column letter and row number.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'a'.saturating_add(self.column));
        write!(f, "{letter}{}", u32::from(self.row) + 1)
    }
}
