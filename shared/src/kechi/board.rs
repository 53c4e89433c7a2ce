//! A Kechi position (rules: "Board and setup").

use super::bits::Bits;
use super::geometry::{geometry, Geometry};
use super::rules::{Rules, UNKNOWN_TOTAL};

/// Sides, as indices into per-side arrays. White is seat 1 and moves first.
pub(crate) const WHITE: usize = 0;
pub(crate) const BLACK: usize = 1;

/// A Kechi position: stones, marked cells, the side to move, the turn's total, the ply, and the
/// scores (with `scoring=tokens`), for one variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Kechi {
    pub(crate) rules: Rules,
    /// Stones by side (`WHITE`, `BLACK`).
    pub(crate) stones: [Bits; 2],
    /// Cells left by a stone at some point: closed for good.
    pub(crate) marked: Bits,
    /// `WHITE` or `BLACK`.
    pub(crate) side: usize,
    /// The total of the current turn (1–6).
    pub(crate) total: u8,
    /// Turns played so far.
    pub(crate) ply: u64,
    /// Tokens taken by each side (always 0 with `scoring=markers`).
    pub(crate) scores: [u64; 2],
}

impl Kechi {
    /// The start of the variant: each side's stones on the crossings of its home row, White to
    /// move with the first turn's total.
    pub(crate) fn start(rules: Rules) -> Kechi {
        let board = geometry(rules.lines);
        Kechi {
            rules,
            stones: [board.home_row(true), board.home_row(false)],
            marked: Bits::EMPTY,
            side: WHITE,
            total: rules.total_at(0).unwrap_or(UNKNOWN_TOTAL),
            ply: 0,
            scores: [0, 0],
        }
    }

    pub(crate) fn geometry(&self) -> &'static Geometry {
        geometry(self.rules.lines)
    }

    /// The current turn's total: 6, or this ply's die roll with `total=die`; 0 in a position
    /// played on from one read with the seed withheld (that roll is not known).
    pub fn total(&self) -> u8 {
        self.total
    }

    /// The number of turns played so far.
    pub fn ply(&self) -> u64 {
        self.ply
    }

    /// The number of rows (and columns) of cells: the option `lines`.
    pub fn lines(&self) -> u8 {
        self.rules.lines
    }

    /// The stones of `side` (`WHITE` or `BLACK`).
    pub(crate) fn side_stones(&self, side: usize) -> Bits {
        self.stones.get(side).copied().unwrap_or(Bits::EMPTY)
    }
}

/// The other side.
pub(crate) fn other(side: usize) -> usize {
    1 - (side & 1)
}
