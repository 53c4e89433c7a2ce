//! The six points (triangles) of the star, numbered clockwise from the bottom (rules: "Board").
//! A set is named by the point it starts in; its target is the opposite point.

use super::hole::{COORDS, HOLES};

/// Points are numbered 1–6; index 0 of the tables below is the central hexagon.
pub(crate) const POINTS: usize = 6;

/// The point a hole belongs to, or 0 for the central hexagon.
const fn point_of_coords(row: i32, number: i32) -> u8 {
    match row {
        13..=16 => 1,
        9..=12 if number <= row - 4 => 2,
        9..=12 if number >= 14 => 6,
        4..=7 if number <= 4 => 3,
        4..=7 if number >= row + 6 => 5,
        0..=3 => 4,
        _ => 0,
    }
}

/// The point of every hole (0 for the centre), by index.
pub(crate) const POINT_OF: [u8; HOLES] = point_table();

const fn point_table() -> [u8; HOLES] {
    let mut table = [0; HOLES];
    let mut index = 0;
    while index < HOLES {
        let (row, number) = COORDS[index];
        table[index] = point_of_coords(row, number);
        index += 1;
    }
    table
}

/// The holes of each point as a bitboard (index 0: the centre).
pub(crate) const POINT_MASK: [u128; POINTS + 1] = point_masks();

const fn point_masks() -> [u128; POINTS + 1] {
    let mut masks = [0; POINTS + 1];
    let mut index = 0;
    while index < HOLES {
        masks[POINT_OF[index] as usize] |= 1u128 << index;
        index += 1;
    }
    masks
}

/// Every hole of the board.
pub(crate) const BOARD: u128 = (1u128 << HOLES) - 1;

/// The point opposite `point` (k + 3, modulo 6): a set's target.
pub(crate) const fn opposite(point: usize) -> usize {
    (point + 2) % POINTS + 1
}

/// The holes of the target of the set that starts in `set`.
pub(crate) const fn target_mask(set: usize) -> u128 {
    POINT_MASK[opposite(set)]
}

/// The holes of a point (1–6); the centre for anything else.
pub(crate) fn mask(point: usize) -> u128 {
    POINT_MASK.get(point).copied().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chinese_checkers::hole::Hole;

    fn names(point: usize) -> Vec<String> {
        Hole::all()
            .filter(|hole| mask(point) & hole.bit() != 0)
            .map(|hole| hole.to_string())
            .collect()
    }

    #[test]
    fn points_hold_the_holes_of_the_rules_table() {
        assert_eq!(
            names(1),
            ["N10", "N11", "N12", "N13", "O11", "O12", "O13", "P12", "P13", "Q13"]
        );
        assert_eq!(
            names(2),
            ["J5", "K5", "K6", "L5", "L6", "L7", "M5", "M6", "M7", "M8"]
        );
        assert_eq!(
            names(3),
            ["E1", "E2", "E3", "E4", "F2", "F3", "F4", "G3", "G4", "H4"]
        );
        assert_eq!(
            names(4),
            ["A5", "B5", "B6", "C5", "C6", "C7", "D5", "D6", "D7", "D8"]
        );
        assert_eq!(
            names(5),
            ["E10", "E11", "E12", "E13", "F11", "F12", "F13", "G12", "G13", "H13"]
        );
        assert_eq!(
            names(6),
            ["J14", "K14", "K15", "L14", "L15", "L16", "M14", "M15", "M16", "M17"]
        );
        assert_eq!(mask(0).count_ones(), 61);
    }

    #[test]
    fn opposites_are_three_apart() {
        let pairs: Vec<usize> = (1..=6).map(opposite).collect();
        assert_eq!(pairs, [4, 5, 6, 1, 2, 3]);
    }
}
