//! Move generation (rules: "Players and moves"): drops of any colour on empty cells, and
//! replacements allowed by the neighbour count and the ko rule.

use super::board::SanQi;
use super::cell::Cell;
use super::colour::{Colour, EMPTY};
use super::geometry::Geometry;

/// A legal SanQi move: a stone of `colour` onto `cell`, a drop when the cell was empty and a
/// replacement when it held another colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanQiMove {
    pub(crate) colour: Colour,
    pub(crate) cell: Cell,
}

impl SanQiMove {
    /// The colour of the stone that lands.
    pub fn colour(self) -> Colour {
        self.colour
    }

    /// The cell it lands on.
    pub fn cell(self) -> Cell {
        self.cell
    }
}

/// The stone values, in the order moves are generated.
const STONES: [u8; 3] = [
    Colour::Red.stone(),
    Colour::Blue.stone(),
    Colour::Yellow.stone(),
];

/// Rule "Replace": at least two more neighbours of the new colour than of the current one
/// (the third colour and empty cells do not count).
pub(crate) fn replacement_allowed(around: [u8; 4], current: u8, new: u8) -> bool {
    let count = |stone: u8| around.get(usize::from(stone)).copied().unwrap_or(0);
    new != current && current != EMPTY && count(new) >= count(current) + 2
}

impl SanQi {
    /// How many neighbours of the cell `index` hold each stone value (slot 0: empty or off
    /// the board).
    pub(crate) fn around(&self, geometry: &Geometry, index: u16) -> [u8; 4] {
        let mut counts = [0u8; 4];
        if let Some(neighbours) = geometry.neighbours.get(usize::from(index)) {
            for &neighbour in neighbours {
                if let Some(count) = counts.get_mut(usize::from(self.at(neighbour))) {
                    *count += 1;
                }
            }
        }
        counts
    }

    /// Calls `found(cell, stone)` for every legal move of the seat to move, ignoring whether
    /// the game is over: cells in position-text order, colours red, blue, yellow.
    pub(crate) fn for_each_move(&self, geometry: &Geometry, mut found: impl FnMut(u16, u8)) {
        for (index, &current) in (0u16..).zip(self.cells.iter().take(geometry.len())) {
            if current == EMPTY {
                for stone in STONES {
                    found(index, stone);
                }
            } else if index != self.ko {
                let around = self.around(geometry, index);
                for stone in STONES {
                    if replacement_allowed(around, current, stone) {
                        found(index, stone);
                    }
                }
            }
        }
    }

    /// The number of legal replacements, ignoring whether the game is over.
    fn replacements(&self, geometry: &Geometry) -> u64 {
        let mut total = 0;
        for (index, &current) in (0u16..).zip(self.cells.iter().take(geometry.len())) {
            if current == EMPTY || index == self.ko {
                continue;
            }
            let around = self.around(geometry, index);
            for stone in STONES {
                total += u64::from(replacement_allowed(around, current, stone));
            }
        }
        total
    }

    /// The number of legal moves: none once the game is won.
    pub(crate) fn count(&self) -> u64 {
        if self.winner().is_some() {
            return 0;
        }
        3 * u64::from(self.empties) + self.replacements(self.geometry())
    }

    /// Whether the seat to move has a legal move, ignoring whether the game is won (rule:
    /// without one the game is a draw).
    pub(crate) fn has_move(&self) -> bool {
        self.empties > 0 || self.replacements(self.geometry()) > 0
    }

    /// Every legal move; none once the game is over.
    pub(crate) fn generate(&self) -> Vec<SanQiMove> {
        let mut moves = Vec::new();
        if self.winner().is_some() {
            return moves;
        }
        let geometry = self.geometry();
        self.for_each_move(geometry, |index, stone| {
            if let (Some(cell), Some(colour)) =
                (Cell::from_index(geometry, index), Colour::of_stone(stone))
            {
                moves.push(SanQiMove { colour, cell });
            }
        });
        moves
    }

    /// The position after a legal move of `stone` onto the cell `index`.
    pub(crate) fn after(&self, geometry: &Geometry, index: u16, stone: u8) -> SanQi {
        let mut next = self.clone();
        let old = self.at(index);
        if let Some(slot) = next.cells.get_mut(usize::from(index)) {
            *slot = stone;
        }
        if old == EMPTY {
            next.empties = next.empties.saturating_sub(1);
        }
        next.standing
            .update(geometry, &next.cells, index, old, stone);
        next.ko = index;
        next.to_move = self.previous_mover();
        next
    }

    /// Perft without building move lists, counting the last ply in bulk.
    pub(crate) fn fast_perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count(),
            _ => {
                if self.winner().is_some() {
                    return 0;
                }
                let geometry = self.geometry();
                let mut total = 0;
                self.for_each_move(geometry, |index, stone| {
                    total += self.after(geometry, index, stone).fast_perft(depth - 1);
                });
                total
            }
        }
    }
}
