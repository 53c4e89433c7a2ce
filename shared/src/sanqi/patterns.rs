//! Winning patterns (rules: "Winning"): circles, lines and triangles of one colour, and the
//! count of those standing on the board, kept up to date move by move.
//!
//! Why the incremental count equals a full scan: a move changes exactly one cell. A pattern
//! that does not contain that cell reads the same six cells before and after, so it stands
//! after the move exactly when it stood before. Every pattern that contains the cell is checked
//! before and after the change and the count adjusted. So if the counts were right before the
//! move (a full scan when a position is created or read), they are right after it. Patterns the
//! opponent built, or that stood already, stay in the counts: that is why the win check looks at
//! the counts, not only at the patterns through the changed cell.

use super::colour::EMPTY;
use super::geometry::{Geometry, SLOTS};
use super::shape::{goals, Pattern, PatternKind};

/// How many patterns of each kind stand complete (six stones of one colour) on the board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Standing([u16; 3]);

/// Whether every cell of `pattern` other than `skip` holds `stone`.
fn rest_is(cells: &[u8; SLOTS], pattern: &Pattern, skip: u16, stone: u8) -> bool {
    pattern
        .cells
        .iter()
        .all(|&cell| cell == skip || cells.get(usize::from(cell)) == Some(&stone))
}

/// Whether `pattern` stands complete in one colour.
pub(crate) fn stands(cells: &[u8; SLOTS], pattern: &Pattern) -> bool {
    let Some(&first) = pattern
        .cells
        .first()
        .and_then(|&cell| cells.get(usize::from(cell)))
    else {
        return false;
    };
    first != EMPTY && rest_is(cells, pattern, u16::MAX, first)
}

impl Standing {
    /// Counts every standing pattern of the board.
    pub(crate) fn scan(geometry: &Geometry, cells: &[u8; SLOTS]) -> Standing {
        let mut standing = Standing::default();
        for pattern in &geometry.patterns {
            if stands(cells, pattern) {
                standing.add(pattern.kind, 1);
            }
        }
        standing
    }

    /// Adjusts the counts for a move that changed `cell` from `old` to `new` (`cells` already
    /// holds `new`). Only patterns through `cell` can change: see the module comment.
    pub(crate) fn update(
        &mut self,
        geometry: &Geometry,
        cells: &[u8; SLOTS],
        cell: u16,
        old: u8,
        new: u8,
    ) {
        let Some(through) = geometry.through.get(usize::from(cell)) else {
            return;
        };
        for &number in through {
            let Some(pattern) = geometry.patterns.get(number as usize) else {
                continue;
            };
            if old != EMPTY && rest_is(cells, pattern, cell, old) {
                self.remove(pattern.kind);
            }
            if new != EMPTY && rest_is(cells, pattern, cell, new) {
                self.add(pattern.kind, 1);
            }
        }
    }

    fn add(&mut self, kind: PatternKind, count: u16) {
        if let Some(slot) = self.0.get_mut(kind.slot()) {
            *slot = slot.saturating_add(count);
        }
    }

    fn remove(&mut self, kind: PatternKind) {
        if let Some(slot) = self.0.get_mut(kind.slot()) {
            *slot = slot.saturating_sub(1);
        }
    }

    /// The number of standing patterns of `kind`.
    pub(crate) fn count(self, kind: PatternKind) -> u16 {
        self.0.get(kind.slot()).copied().unwrap_or(0)
    }

    /// Whether one of the goals of `seat` (0 = First, 1 = Second) stands.
    pub(crate) fn meets_goals_of(self, seat: u8) -> bool {
        goals(seat).iter().any(|kind| self.count(*kind) > 0)
    }
}
