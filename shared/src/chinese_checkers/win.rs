//! Winning (rules: "Winning"): when a set is home, when a player has won, and who wins first.

use super::board::ChineseCheckers;
use super::points::target_mask;
use super::variant::{sets_in, AntiSpoiling};

impl ChineseCheckers {
    /// Whether the set starting in `set` is home: its target is full and, with Parlett's rule,
    /// holds at least one of the set's own pegs; otherwise, holds only its own pegs (all ten).
    pub(crate) fn set_home(&self, set: usize, occupied: u128) -> bool {
        let target = target_mask(set);
        if occupied & target != target {
            return false;
        }
        let own = self.pegs.get(set).copied().unwrap_or(0) & target;
        match self.variant.anti_spoiling {
            AntiSpoiling::Parlett => own != 0,
            AntiSpoiling::None | AntiSpoiling::Swap => own == target,
        }
    }

    /// Whether every set of `seat` (0-based) is home.
    pub(crate) fn seat_home(&self, seat: usize, occupied: u128) -> bool {
        sets_in(self.variant.sets_of(seat)).all(|set| self.set_home(set, occupied))
    }

    /// The winner, 0-based: after a move the seats are checked in turn order from the one that
    /// moved (the seat before the seat to move); the first found home wins.
    pub(crate) fn winner(&self) -> Option<usize> {
        if !self.left.is_empty() && self.playing() <= 1 {
            // Every other seat has left: the last one remaining wins.
            return (0..self.variant.seat_count()).find(|&seat| !self.left.contains(seat));
        }
        let occupied = self.occupied();
        // Nobody is home while no target in play is full (the common case, checked cheaply).
        let any_full = sets_in(self.variant.layout.in_play).any(|set| {
            let target = target_mask(set);
            occupied & target == target
        });
        if !any_full {
            return None;
        }
        let count = self.variant.seat_count();
        let mover = self.last_mover();
        (0..count)
            .map(|offset| (mover + offset) % count)
            .find(|&seat| !self.left.contains(seat) && self.seat_home(seat, occupied))
    }
}
