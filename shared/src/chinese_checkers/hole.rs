//! The 121 holes of the star (rules: "Board"): pbmserv names, a row letter `A`–`Q` (top to
//! bottom) and a number along a diagonal. Holes are indexed row by row in number order, which is
//! also the order of the position text.

use std::fmt;

/// Rows `A`–`Q`.
pub(crate) const ROWS: usize = 17;
/// Holes on the board.
pub(crate) const HOLES: usize = 121;

/// First and last number of each row (rules: "Board", the table of rows).
pub(crate) const ROW_RANGE: [(i32, i32); ROWS] = [
    (5, 5),
    (5, 6),
    (5, 7),
    (5, 8),
    (1, 13),
    (2, 13),
    (3, 13),
    (4, 13),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 17),
    (10, 13),
    (11, 13),
    (12, 13),
    (13, 13),
];

/// The six directions as (row, number) steps: (r, n±1), (r±1, n), (r+1, n+1), (r−1, n−1).
/// Opposite directions are neighbours in this list (0/1, 2/3, 4/5).
pub(crate) const DIRECTIONS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

/// The index of each row's first hole.
const ROW_OFFSET: [usize; ROWS] = row_offsets();

const fn row_offsets() -> [usize; ROWS] {
    let mut offsets = [0; ROWS];
    let mut row = 1;
    while row < ROWS {
        let (first, last) = ROW_RANGE[row - 1];
        offsets[row] = offsets[row - 1] + (last - first + 1) as usize;
        row += 1;
    }
    offsets
}

/// (row, number) of every hole, by index.
pub(crate) const COORDS: [(i32, i32); HOLES] = coords();

const fn coords() -> [(i32, i32); HOLES] {
    let mut table = [(0, 0); HOLES];
    let mut row = 0;
    let mut index = 0;
    while row < ROWS {
        let (first, last) = ROW_RANGE[row];
        let mut number = first;
        while number <= last {
            table[index] = (row as i32, number);
            index += 1;
            number += 1;
        }
        row += 1;
    }
    table
}

/// The index of the hole at 0-based `row` and `number`, if it is on the board.
pub(crate) const fn index_at(row: i32, number: i32) -> Option<usize> {
    if row < 0 || row >= ROWS as i32 {
        return None;
    }
    let (first, last) = ROW_RANGE[row as usize];
    if number < first || number > last {
        return None;
    }
    Some(ROW_OFFSET[row as usize] + (number - first) as usize)
}

/// A hole of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hole(u8);

impl Hole {
    /// The hole at 0-based `row` (A = 0) and `number`, if it is on the board.
    pub(crate) fn at(row: i32, number: i32) -> Option<Hole> {
        index_at(row, number).and_then(Hole::from_index)
    }

    /// The hole with this index (0–120: row by row in number order, the position text's
    /// order), if on the board.
    #[must_use]
    pub fn from_index(index: usize) -> Option<Hole> {
        if index < HOLES {
            u8::try_from(index).ok().map(Hole)
        } else {
            None
        }
    }

    /// Every hole, in index order.
    pub(crate) fn all() -> impl Iterator<Item = Hole> {
        (0..HOLES).filter_map(Hole::from_index)
    }

    /// Its index (0–120, the position text's order).
    #[must_use]
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// This hole's bit in a bitboard.
    pub(crate) fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// 0-based row (A = 0) and number.
    pub(crate) fn coords(self) -> (i32, i32) {
        COORDS.get(self.index()).copied().unwrap_or((0, 0))
    }

    /// The hole `distance` holes away in direction `direction` (an index into [`DIRECTIONS`]).
    pub(crate) fn towards(self, direction: usize, distance: i32) -> Option<Hole> {
        let (dr, dn) = DIRECTIONS.get(direction).copied()?;
        let (row, number) = self.coords();
        Hole::at(row + distance * dr, number + distance * dn)
    }

    /// The adjacent holes.
    pub(crate) fn neighbours(self) -> impl Iterator<Item = Hole> {
        (0..DIRECTIONS.len()).filter_map(move |direction| self.towards(direction, 1))
    }
}

/// `A5`: upper-case row letter and number.
impl fmt::Display for Hole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (row, number) = self.coords();
        let letter = char::from(b'A' + u8::try_from(row).unwrap_or(0));
        write!(f, "{letter}{number}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_star_has_121_holes_named_as_pbmserv() {
        assert_eq!(Hole::all().count(), HOLES);
        assert_eq!(index_at(16, 13), Some(HOLES - 1));
        let names: Vec<String> = Hole::all().map(|hole| hole.to_string()).collect();
        assert_eq!(names.first().map(String::as_str), Some("A5"));
        assert!(names.contains(&"E1".to_string()) && names.contains(&"M17".to_string()));
        assert_eq!(Hole::at(4, 0), None);
        assert_eq!(Hole::at(13, 9), None);
    }

    #[test]
    fn neighbours_follow_the_diagonals() {
        let names = |row, number| {
            let mut names: Vec<String> = Hole::at(row, number)
                .into_iter()
                .flat_map(Hole::neighbours)
                .map(|hole| hole.to_string())
                .collect();
            names.sort();
            names
        };
        // A5 touches B5 and B6; I9 in the centre has all six.
        assert_eq!(names(0, 5), ["B5", "B6"]);
        assert_eq!(names(8, 9), ["H8", "H9", "I10", "I8", "J10", "J9"]);
        // Q13 touches P12 and P13.
        assert_eq!(names(16, 13), ["P12", "P13"]);
    }
}
