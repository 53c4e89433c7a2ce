//! The winning patterns' shapes (rules: "Winning"): circles, lines and triangles of six cells,
//! and which of them win for which seat.

/// The three kinds of pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PatternKind {
    /// The six neighbours of a cell that has six neighbours.
    Circle,
    /// Six consecutive cells along one of the three axes.
    Line,
    /// Six cells forming a side-3 triangle, in either orientation.
    Triangle,
}

impl PatternKind {
    pub(crate) fn slot(self) -> usize {
        match self {
            PatternKind::Circle => 0,
            PatternKind::Line => 1,
            PatternKind::Triangle => 2,
        }
    }
}

/// The patterns that win for `seat` (0 = First: circle or triangle; 1 = Second: line or
/// triangle).
pub(crate) const fn goals(seat: u8) -> [PatternKind; 2] {
    if seat == 0 {
        [PatternKind::Circle, PatternKind::Triangle]
    } else {
        [PatternKind::Line, PatternKind::Triangle]
    }
}

/// One pattern: its kind and its six cells (dense indices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(crate) kind: PatternKind,
    pub(crate) cells: [u16; 6],
}

/// The three axes, in (letter, number) steps.
pub(crate) const AXES: [(i32, i32); 3] = [(1, 0), (0, 1), (1, 1)];

/// The two triangle orientations, as offsets from their first cell.
pub(crate) const TRIANGLES: [[(i32, i32); 6]; 2] = [
    [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)],
    [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)],
];
