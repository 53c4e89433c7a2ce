//! The Kefren board's geometry: its size, and a cell as an index into it.

use std::fmt;

/// Board width (columns A–I) and height (rows 1–19).
pub(crate) const WIDTH: i32 = 9;
pub(crate) const HEIGHT: i32 = 19;
pub(crate) const CELLS: usize = (WIDTH * HEIGHT) as usize;

/// A cell of the 9×19 board: index `row * 9 + column`, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell at 0-based (column, row), if on the board.
    pub(crate) fn at(column: i32, row: i32) -> Option<Cell> {
        if (0..WIDTH).contains(&column) && (0..HEIGHT).contains(&row) {
            u8::try_from(row * WIDTH + column).ok().map(Cell)
        } else {
            None
        }
    }

    /// The cell with this index; indices come from the board's own iteration.
    pub(crate) fn from_index(index: usize) -> Cell {
        Cell(u8::try_from(index).unwrap_or(u8::MAX))
    }

    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    pub(crate) fn column(self) -> i32 {
        i32::from(self.0) % WIDTH
    }

    pub(crate) fn row(self) -> i32 {
        i32::from(self.0) / WIDTH
    }
}

/// `F3`: upper-case column letter and row number.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = char::from(b'A' + u8::try_from(self.column()).unwrap_or(0));
        write!(f, "{letter}{}", self.row() + 1)
    }
}
