//! The general move generator (rules: "A move"), written for clarity on a board array: steps,
//! hop chains (as reachability: a chain never lands twice on a hole, so any hole reachable by
//! hops is reachable by a chain), target lock, resting, swaps and the forced pass.
//! `fast.rs` computes the same moves with bitboards; tests check that both agree.

use super::board::{ChineseCheckers, EMPTY, INERT};
use super::hole::{Hole, DIRECTIONS, HOLES};
use super::points::target_mask;
use super::variant::AntiSpoiling;

/// A legal move: a peg's source and final hole (any hop path between them is the same move),
/// or the forced pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ChineseCheckersMove {
    Pass,
    Move { from: Hole, to: Hole },
}

pub(crate) type Cells = [u8; HOLES];

pub(crate) fn content(cells: &Cells, hole: Hole) -> u8 {
    cells.get(hole.index()).copied().unwrap_or(EMPTY)
}

/// Where a hop from `from` in `direction` lands, whatever stands there: over the first peg
/// along the line at distance k (k = 1 unless `long`), with holes k+1…2k−1 empty and hole 2k on
/// the board (rules: `jumps=long`).
pub(crate) fn hop_landing(cells: &Cells, from: Hole, direction: usize, long: bool) -> Option<Hole> {
    let mut k = 1;
    loop {
        let hole = from.towards(direction, k)?;
        if content(cells, hole) != EMPTY {
            break;
        }
        if !long {
            return None;
        }
        k += 1;
    }
    for distance in k + 1..2 * k {
        let hole = from.towards(direction, distance)?;
        if content(cells, hole) != EMPTY {
            return None;
        }
    }
    from.towards(direction, 2 * k)
}

/// Whether a step or hop from `from` to `to` keeps the target lock of a peg targeting `target`.
pub(crate) fn keeps_lock(target: u128, from: Hole, to: Hole) -> bool {
    target & from.bit() == 0 || target & to.bit() != 0
}

/// `cells` with the hole `from` emptied.
fn lift(mut cells: Cells, from: Hole) -> Cells {
    if let Some(slot) = cells.get_mut(from.index()) {
        *slot = EMPTY;
    }
    cells
}

impl ChineseCheckers {
    /// The board with the peg on `from` lifted: during a move its start hole is empty.
    pub(crate) fn lifted(&self, from: Hole) -> Cells {
        lift(self.cells(), from)
    }

    /// Every hole a chain of hops from `from` can land on, for a peg of `set` (`lock`: whether
    /// the target lock applies; off only to explain an illegal move).
    pub(crate) fn hop_reach(&self, cells: &Cells, from: Hole, set: usize, lock: bool) -> Vec<bool> {
        let target = target_mask(set);
        let long = self.variant.long_jumps;
        let mut reached = vec![false; HOLES];
        let mut queue = vec![from];
        while let Some(at) = queue.pop() {
            for direction in 0..DIRECTIONS.len() {
                let Some(to) = hop_landing(cells, at, direction, long) else {
                    continue;
                };
                let fresh = to != from && !reached.get(to.index()).copied().unwrap_or(true);
                if fresh && content(cells, to) == EMPTY && (!lock || keeps_lock(target, at, to)) {
                    if let Some(slot) = reached.get_mut(to.index()) {
                        *slot = true;
                    }
                    queue.push(to);
                }
            }
        }
        reached
    }

    /// Whether `hole` holds a peg the seat to move may swap with (another player's peg).
    fn swappable(&self, cells: &Cells, hole: Hole) -> bool {
        let peg = content(cells, hole);
        peg != EMPTY && peg != INERT && self.variant.sets_of(self.seat()) & (1 << peg) == 0
    }

    /// The final holes of the peg of `set` on `from` (steps, hop chains and swaps), ignoring
    /// the resting rule, in hole order.
    pub(crate) fn ends(&self, from: Hole, set: usize, lock: bool) -> Vec<Hole> {
        self.ends_on(&self.cells(), from, set, lock)
    }

    /// [`ChineseCheckers::ends`] on this position's board `cells`, computed once by the caller.
    pub(crate) fn ends_on(&self, board: &Cells, from: Hole, set: usize, lock: bool) -> Vec<Hole> {
        let cells = lift(*board, from);
        let target = target_mask(set);
        let reach = self.hop_reach(&cells, from, set, lock);
        let mut ends = reach.clone();
        for to in from.neighbours() {
            if content(&cells, to) == EMPTY && (!lock || keeps_lock(target, from, to)) {
                if let Some(slot) = ends.get_mut(to.index()) {
                    *slot = true;
                }
            }
        }
        let target_full = self.occupied() & target == target;
        if self.variant.anti_spoiling == AntiSpoiling::Swap && target_full {
            // A swap is the final step or hop, from the start or from any landing of a chain,
            // onto another player's peg in the (full) target.
            let landings = Hole::all().filter(|hole| reach.get(hole.index()) == Some(&true));
            for at in std::iter::once(from).chain(landings) {
                let mut finals: Vec<Hole> = (0..DIRECTIONS.len())
                    .filter_map(|d| hop_landing(&cells, at, d, self.variant.long_jumps))
                    .collect();
                if at == from {
                    finals.extend(from.neighbours());
                }
                for to in finals {
                    if target & to.bit() != 0 && self.swappable(&cells, to) {
                        if let Some(slot) = ends.get_mut(to.index()) {
                            *slot = true;
                        }
                    }
                }
            }
        }
        Hole::all()
            .filter(|hole| ends.get(hole.index()) == Some(&true))
            .collect()
    }

    /// The pegs the seat to move may move: (hole, set).
    pub(crate) fn own_pegs(&self) -> Vec<(Hole, usize)> {
        let sets = self.variant.sets_of(self.seat());
        let mut pegs = Vec::new();
        for (set, &holes) in self.pegs.iter().enumerate().skip(1) {
            if sets & (1 << set) != 0 {
                pegs.extend(
                    Hole::all()
                        .filter(|hole| holes & hole.bit() != 0)
                        .map(|hole| (hole, set)),
                );
            }
        }
        pegs
    }

    /// Every move of the seat to move other than pass, ignoring whether the game is over.
    pub(crate) fn peg_moves(&self) -> Vec<ChineseCheckersMove> {
        let rest = self.rest_mask(self.seat());
        let cells = self.cells();
        let mut moves = Vec::new();
        for (from, set) in self.own_pegs() {
            for to in self.ends_on(&cells, from, set, true) {
                if rest & to.bit() != 0 {
                    moves.push(ChineseCheckersMove::Move { from, to });
                }
            }
        }
        moves
    }

    /// Whether the seat to move has a move other than pass.
    pub(crate) fn has_peg_move(&self) -> bool {
        let rest = self.rest_mask(self.seat());
        let cells = self.cells();
        self.own_pegs().into_iter().any(|(from, set)| {
            self.ends_on(&cells, from, set, true)
                .iter()
                .any(|to| rest & to.bit() != 0)
        })
    }

    /// Every legal move: the peg moves, or the forced pass; nothing once the game is over.
    pub(crate) fn generate(&self) -> Vec<ChineseCheckersMove> {
        if self.winner().is_some() {
            return Vec::new();
        }
        let moves = self.peg_moves();
        if moves.is_empty() {
            vec![ChineseCheckersMove::Pass]
        } else {
            moves
        }
    }

    /// The position after a legal move. A move onto an occupied hole is a swap: the other peg
    /// goes to the moving peg's start hole.
    pub(crate) fn after(&self, mv: &ChineseCheckersMove) -> ChineseCheckers {
        let mut next = self.clone();
        if let ChineseCheckersMove::Move { from, to } = *mv {
            let (from_bit, to_bit) = (from.bit(), to.bit());
            for pegs in next.pegs.iter_mut() {
                let has_from = *pegs & from_bit != 0;
                let has_to = *pegs & to_bit != 0;
                if has_from != has_to {
                    *pegs ^= from_bit | to_bit;
                }
            }
        }
        next.to_move = u8::try_from(self.next_seat(self.seat())).unwrap_or(0);
        next
    }
}
