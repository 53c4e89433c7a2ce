//! A cell of the SanQi board, named by letter and number (`d4`).

use std::fmt;

use super::geometry::{letter_char, Geometry};

/// A cell of the board, named letter + number (`d4`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Dense index into the board arrays (see `Geometry`); first so that cells sort in
    /// position-text order.
    pub(crate) index: u16,
    /// 1-based letter (a = 1) and number.
    letter: u8,
    number: u8,
}

impl Cell {
    /// The cell with this dense index, if the board has it.
    pub(crate) fn from_index(geometry: &Geometry, index: u16) -> Option<Cell> {
        geometry
            .coords
            .get(usize::from(index))
            .map(|&(letter, number)| Cell {
                index,
                letter,
                number,
            })
    }

    /// The lower-case letter (`d` in `d4`).
    pub fn letter(self) -> char {
        letter_char(self.letter)
    }

    /// The number (`4` in `d4`).
    pub fn number(self) -> u8 {
        self.number
    }
}

/// `d4`: lower-case letter and number.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.letter(), self.number)
    }
}
