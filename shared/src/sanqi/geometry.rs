//! The hexagonal board (rules: "Board"): which (letter, number) pairs are cells, their dense
//! indices, neighbours and patterns. Built once per side and shared by every position.

use std::sync::OnceLock;

use super::shape::{Pattern, PatternKind, AXES, TRIANGLES};

/// The sides the `side` option allows.
pub(crate) const SIDES: [u8; 4] = [4, 6, 8, 10];

/// Cells of the largest board (side 10): 3·10·9 + 1.
pub(crate) const MAX_CELLS: usize = 271;

/// A slot that is never a cell and always stays empty: neighbour lists are padded with it so
/// that loops over six neighbours need no bounds test.
pub(crate) const OUTSIDE: u16 = 271;

/// Board arrays hold every cell of the largest board plus `OUTSIDE`.
pub(crate) const SLOTS: usize = MAX_CELLS + 1;

/// The steps to the six neighbours of (letter, number).
pub(crate) const NEIGHBOUR_STEPS: [(i32, i32); 6] =
    [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];

/// One board size: every table the engine needs, indexed by the dense cell index. Cells are
/// numbered letter by letter, by increasing number within a letter (the order of position text).
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) side: u8,
    /// Letters and numbers both run from 1 to `span` = 2·side − 1.
    pub(crate) span: u8,
    /// (letter, number) of each cell, 1-based (letter a = 1).
    pub(crate) coords: Vec<(u8, u8)>,
    /// The six neighbours of each cell, `OUTSIDE` where the board ends.
    pub(crate) neighbours: Vec<[u16; 6]>,
    /// Every circle, line and triangle of the board.
    pub(crate) patterns: Vec<Pattern>,
    /// For each cell, the patterns that contain it (indices into `patterns`).
    pub(crate) through: Vec<Vec<u32>>,
    /// How many cells each letter has, for letters a, b, … in order.
    pub(crate) letter_lengths: Vec<usize>,
}

static GEOMETRIES: [OnceLock<Geometry>; 4] = [const { OnceLock::new() }; 4];

/// The geometry of a board of `side` (one of `SIDES`; anything else gets side 4's).
pub(crate) fn geometry(side: u8) -> &'static Geometry {
    let slot = SIDES.iter().position(|s| *s == side).unwrap_or(0);
    let side = SIDES.get(slot).copied().unwrap_or(4);
    match GEOMETRIES.get(slot) {
        Some(lock) => lock.get_or_init(|| Geometry::build(side)),
        None => GEOMETRIES[0].get_or_init(|| Geometry::build(4)),
    }
}

impl Geometry {
    fn build(side: u8) -> Geometry {
        let s = i32::from(side);
        let span = 2 * s - 1;
        let mut coords = Vec::new();
        let mut letter_lengths = Vec::new();
        for letter in 1..=span {
            let before = coords.len();
            for number in 1..=span {
                if (letter - number).abs() < s {
                    coords.push((small(letter), small(number)));
                }
            }
            letter_lengths.push(coords.len() - before);
        }
        let mut geometry = Geometry {
            side,
            span: small(span),
            coords,
            neighbours: Vec::new(),
            patterns: Vec::new(),
            through: Vec::new(),
            letter_lengths,
        };
        geometry.neighbours = geometry
            .coords
            .iter()
            .map(|&(l, n)| {
                NEIGHBOUR_STEPS.map(|(dl, dn)| {
                    geometry
                        .index(i32::from(l) + dl, i32::from(n) + dn)
                        .unwrap_or(OUTSIDE)
                })
            })
            .collect();
        geometry.patterns = enumerate_patterns(&geometry);
        let mut through = vec![Vec::new(); geometry.coords.len()];
        for (number, pattern) in geometry.patterns.iter().enumerate() {
            for cell in pattern.cells {
                if let Some(list) = through.get_mut(usize::from(cell)) {
                    list.push(u32::try_from(number).unwrap_or(u32::MAX));
                }
            }
        }
        geometry.through = through;
        geometry
    }

    /// The number of cells: 3·side·(side − 1) + 1.
    pub(crate) fn len(&self) -> usize {
        self.coords.len()
    }

    /// Whether (letter, number), both 1-based, is a cell of this board.
    pub(crate) fn on_board(&self, letter: i32, number: i32) -> bool {
        let span = i32::from(self.span);
        (1..=span).contains(&letter)
            && (1..=span).contains(&number)
            && (letter - number).abs() < i32::from(self.side)
    }

    /// The dense index of (letter, number), both 1-based, if it is a cell.
    pub(crate) fn index(&self, letter: i32, number: i32) -> Option<u16> {
        if !self.on_board(letter, number) {
            return None;
        }
        // Cells before `letter`, then the cell's place within its letter.
        let before: usize = self
            .letter_lengths
            .iter()
            .take(usize::try_from(letter - 1).ok()?)
            .sum();
        let first_number = (letter - i32::from(self.side) + 1).max(1);
        let within = usize::try_from(number - first_number).ok()?;
        u16::try_from(before + within).ok()
    }

    /// The name of a cell: lower-case letter and number (`d4`).
    pub(crate) fn name(&self, index: u16) -> String {
        match self.coords.get(usize::from(index)) {
            Some(&(letter, number)) => format!("{}{number}", letter_char(letter)),
            None => "-".to_string(),
        }
    }

    /// The last letter of the board's range (`g` for side 4).
    pub(crate) fn last_letter(&self) -> char {
        letter_char(self.span)
    }
}

/// Every pattern of the board: circles by centre, then lines, then triangles.
fn enumerate_patterns(geometry: &Geometry) -> Vec<Pattern> {
    let mut patterns = Vec::new();
    let mut add = |kind: PatternKind, offsets: [(i32, i32); 6], letter: i32, number: i32| {
        let cells = offsets.map(|(dl, dn)| geometry.index(letter + dl, number + dn));
        if cells.iter().all(Option::is_some) {
            let cells = cells.map(|cell| cell.unwrap_or(0));
            patterns.push(Pattern { kind, cells });
        }
    };
    let coords: Vec<(i32, i32)> = geometry
        .coords
        .iter()
        .map(|&(l, n)| (i32::from(l), i32::from(n)))
        .collect();
    for &(l, n) in &coords {
        add(PatternKind::Circle, NEIGHBOUR_STEPS, l, n);
    }
    for &(dl, dn) in &AXES {
        for &(l, n) in &coords {
            let steps = [0, 1, 2, 3, 4, 5].map(|k| (k * dl, k * dn));
            add(PatternKind::Line, steps, l, n);
        }
    }
    for offsets in TRIANGLES {
        for &(l, n) in &coords {
            add(PatternKind::Triangle, offsets, l, n);
        }
    }
    patterns
}

/// The lower-case letter for a 1-based letter index.
pub(crate) fn letter_char(letter: u8) -> char {
    char::from(b'a' + letter.saturating_sub(1))
}

/// Board coordinates are at most 19; the conversion cannot fail for them.
fn small(value: i32) -> u8 {
    u8::try_from(value).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn cell_counts_and_indices_agree() {
        for side in SIDES {
            let geometry = geometry(side);
            let s = usize::from(side);
            assert_eq!(geometry.len(), 3 * s * (s - 1) + 1);
            for (index, &(l, n)) in geometry.coords.iter().enumerate() {
                assert_eq!(
                    geometry.index(i32::from(l), i32::from(n)),
                    Some(u16::try_from(index).unwrap())
                );
            }
            assert!(geometry.len() <= MAX_CELLS);
        }
    }

    #[test]
    fn side_four_matches_the_rules() {
        let geometry = geometry(4);
        assert_eq!(geometry.letter_lengths, [4, 5, 6, 7, 6, 5, 4]);
        let d4 = geometry.index(4, 4).unwrap();
        let mut names: Vec<String> = geometry.neighbours[usize::from(d4)]
            .iter()
            .map(|&cell| geometry.name(cell))
            .collect();
        names.sort();
        assert_eq!(names, ["c3", "c4", "d3", "d5", "e4", "e5"]);
        let a1 = geometry.index(1, 1).unwrap();
        let outside = geometry.neighbours[usize::from(a1)]
            .iter()
            .filter(|&&cell| cell == OUTSIDE)
            .count();
        assert_eq!(outside, 3);
        assert_eq!(geometry.index(1, 5), None);
        assert_eq!(geometry.index(5, 1), None);
        assert_eq!(geometry.name(geometry.index(7, 7).unwrap()), "g7");
    }
}
