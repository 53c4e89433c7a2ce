//! The position: every peg as a bitboard per set, the inert pegs, and the seat to move.

use super::hole::Hole;
use super::left::LeftSeats;
use super::points::{mask, POINTS};
use super::variant::{sets_in, Variant};

/// What stands on a hole, in the board array of the general move generator.
pub(crate) const EMPTY: u8 = 0;
/// An inert peg (`unused=filled`); pegs of sets are 1–6, named by their start point.
pub(crate) const INERT: u8 = 7;

/// A Chinese Checkers position of one variant. Seat 1 (the seat holding point 1) moves first.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ChineseCheckers {
    /// Index 0: inert pegs; index k (1–6): the pegs of the set that started in point k.
    pub(crate) pegs: [u128; POINTS + 1],
    /// The seat to move, 0-based (also after the game is over: see `RULES.md`).
    pub(crate) to_move: u8,
    pub(crate) variant: Variant,
    /// The seats that have left, in the order they left (rules: "A seat leaving").
    pub(crate) left: LeftSeats,
}

impl ChineseCheckers {
    /// The start of `variant`: each set fills its point; unused points filled if asked.
    pub(crate) fn start(variant: Variant) -> ChineseCheckers {
        let mut pegs = [0; POINTS + 1];
        pegs[0] = variant.filled_holes();
        for set in sets_in(variant.layout.in_play) {
            if let Some(slot) = pegs.get_mut(set) {
                *slot = mask(set);
            }
        }
        ChineseCheckers {
            pegs,
            to_move: 0,
            variant,
            left: LeftSeats::default(),
        }
    }

    /// Every occupied hole.
    pub(crate) fn occupied(&self) -> u128 {
        self.pegs.iter().fold(0, |all, pegs| all | pegs)
    }

    /// What stands on `hole`: [`EMPTY`], a set 1–6 or [`INERT`].
    pub(crate) fn at(&self, hole: Hole) -> u8 {
        let bit = hole.bit();
        match self.pegs.iter().position(|pegs| pegs & bit != 0) {
            None => EMPTY,
            Some(0) => INERT,
            Some(set) => u8::try_from(set).unwrap_or(EMPTY),
        }
    }

    /// The board as an array indexed by hole (for the general move generator).
    pub(crate) fn cells(&self) -> [u8; super::hole::HOLES] {
        let mut cells = [EMPTY; super::hole::HOLES];
        for (peg, pegs) in (0u8..).zip(self.pegs.iter()) {
            let content = if peg == 0 { INERT } else { peg };
            let mut bits = *pegs;
            while bits != 0 {
                if let Some(slot) = cells.get_mut(bits.trailing_zeros() as usize) {
                    *slot = content;
                }
                bits &= bits - 1;
            }
        }
        cells
    }

    /// The 0-based seat to move (the game may be over).
    pub(crate) fn seat(&self) -> usize {
        usize::from(self.to_move)
    }

    /// The seat still playing after `seat` in turn order (seats that left are skipped).
    pub(crate) fn next_seat(&self, seat: usize) -> usize {
        next_playing(&self.variant, &self.left, seat)
    }

    /// The seat that made the last move: the seat still playing before the seat to move.
    pub(crate) fn last_mover(&self) -> usize {
        let count = self.variant.seat_count();
        (1..count)
            .map(|back| (self.seat() + count - back) % count)
            .find(|&seat| !self.left.contains(seat))
            .unwrap_or(self.seat())
    }

    /// The number of seats still playing.
    pub(crate) fn playing(&self) -> usize {
        self.variant.seat_count().saturating_sub(self.left.len())
    }

    /// The sets of the seats still playing, as a bit mask over points.
    pub(crate) fn active_sets(&self) -> u8 {
        self.left
            .seats()
            .fold(self.variant.layout.in_play, |sets, seat| {
                sets & !self.variant.sets_of(seat)
            })
    }

    /// Where a move of `seat` (0-based) may end (rules: "Resting in other points"; the points
    /// of seats that left are free).
    pub(crate) fn rest_mask(&self, seat: usize) -> u128 {
        if self.left.is_empty() {
            self.variant.rest_mask(seat)
        } else {
            self.variant.rest_mask_among(seat, self.active_sets())
        }
    }

    /// The position after `seat` (0-based, still playing, game not over) leaves. While three or
    /// more seats are playing, its pegs (all its sets) come off the board and the turn passes
    /// on if it was to move; when that leaves one seat, the board stays as it was and that
    /// seat has won (see `RULES.md`).
    pub(crate) fn without(&self, seat: usize) -> ChineseCheckers {
        let mut next = self.clone();
        next.left.push(seat);
        if next.playing() >= 2 {
            for set in sets_in(self.variant.sets_of(seat)) {
                if let Some(pegs) = next.pegs.get_mut(set) {
                    *pegs = 0;
                }
            }
        }
        if next.seat() == seat {
            next.to_move = u8::try_from(next.next_seat(seat)).unwrap_or(0);
        }
        next
    }
}

/// The seat still playing after `seat` in turn order (`seat` itself when no other is playing).
pub(crate) fn next_playing(variant: &Variant, left: &LeftSeats, seat: usize) -> usize {
    let count = variant.seat_count();
    (1..=count)
        .map(|ahead| (seat + ahead) % count)
        .find(|&next| !left.contains(next))
        .unwrap_or(seat)
}
