//! Turn generation (rules: "A turn"). Stones are taken in increasing cell index, which is the
//! canonical order, and each moving stone is chosen after the previous one: every set of stone
//! moves comes out exactly once, never once per ordering.

use super::bits::Bits;
use super::board::{other, Kechi};
use super::geometry::MAX_DISTANCE;
use super::rules::UNKNOWN_TOTAL;
use super::turn::{KechiTurn, StoneMove};

/// A stone of the side to move and where it may land, by distance.
struct Mover {
    cell: usize,
    /// `reach[d]`: cells exactly d steps away that are unmarked and hold no friendly stone at the
    /// start of the turn (friendly sources become marked as the turn is played, so this is the
    /// same whatever the order).
    reach: [Bits; MAX_DISTANCE + 1],
}

impl Kechi {
    fn movers(&self) -> Vec<Mover> {
        let board = self.geometry();
        let own = self.side_stones(self.side);
        let open = !(self.marked | own);
        let total = usize::from(self.total).min(MAX_DISTANCE);
        own.iter()
            .map(|cell| {
                let mut reach = [Bits::EMPTY; MAX_DISTANCE + 1];
                for (d, slot) in reach.iter_mut().enumerate().take(total + 1).skip(1) {
                    *slot = board.ring(cell, d) & open;
                }
                Mover { cell, reach }
            })
            .collect()
    }

    /// Every legal turn of the side to move (empty when it is stuck), in canonical form.
    pub(crate) fn generate(&self) -> Vec<KechiTurn> {
        let movers = self.movers();
        let mut turns = Vec::new();
        let mut steps = Vec::new();
        each_turn(
            &movers,
            0,
            usize::from(self.total),
            Bits::EMPTY,
            &mut steps,
            &mut |steps| turns.push(self.turn_of(steps)),
        );
        turns
    }

    /// The number of legal turns, counting the last stone's landings in bulk.
    pub(crate) fn count(&self) -> u64 {
        count_turns(&self.movers(), 0, usize::from(self.total), Bits::EMPTY)
    }

    /// Whether the side to move has any legal turn.
    pub(crate) fn has_turn(&self) -> bool {
        any_turn(&self.movers(), 0, usize::from(self.total), Bits::EMPTY)
    }

    /// The turn made of these (source, landing) index pairs, in canonical order.
    pub(crate) fn turn_of(&self, steps: &[(usize, usize)]) -> KechiTurn {
        let board = self.geometry();
        let enemy = self.side_stones(other(self.side));
        let mut moves: Vec<StoneMove> = steps
            .iter()
            .map(|&(from, to)| StoneMove {
                from: board.cell(from),
                to: board.cell(to),
                capture: enemy.contains(to),
            })
            .collect();
        moves.sort();
        KechiTurn { moves }
    }

    /// The position after a legal turn: sources marked, captured stones removed, tokens scored,
    /// the other side to move with the next ply's total.
    pub(crate) fn after(&self, turn: &KechiTurn) -> Kechi {
        let board = self.geometry();
        let mut next = self.clone();
        let (side, enemy) = (self.side, other(self.side));
        for step in &turn.moves {
            let (Some(from), Some(to)) = (board.index_of(step.from), board.index_of(step.to))
            else {
                continue;
            };
            next.marked.insert(from);
            if let Some(own) = next.stones.get_mut(side) {
                own.remove(from);
                own.insert(to);
            }
            if let Some(theirs) = next.stones.get_mut(enemy) {
                theirs.remove(to);
            }
        }
        if self.rules.tokens {
            // Every stone move takes a token or a stone: one point each.
            if let Some(score) = next.scores.get_mut(side) {
                *score = score.saturating_add(turn.moves.len() as u64);
            }
        }
        next.side = enemy;
        next.ply = self.ply.wrapping_add(1);
        next.total = self.rules.total_at(next.ply).unwrap_or(UNKNOWN_TOTAL);
        next
    }
}

fn each_turn(
    movers: &[Mover],
    first: usize,
    remaining: usize,
    used: Bits,
    steps: &mut Vec<(usize, usize)>,
    emit: &mut impl FnMut(&[(usize, usize)]),
) {
    for (j, mover) in movers.iter().enumerate().skip(first) {
        for d in 1..=remaining.min(MAX_DISTANCE) {
            for to in (mover.reach[d] & !used).iter() {
                steps.push((mover.cell, to));
                if d == remaining {
                    emit(steps);
                } else {
                    each_turn(
                        movers,
                        j + 1,
                        remaining - d,
                        used | Bits::single(to),
                        steps,
                        emit,
                    );
                }
                steps.pop();
            }
        }
    }
}

fn count_turns(movers: &[Mover], first: usize, remaining: usize, used: Bits) -> u64 {
    let mut total = 0;
    for (j, mover) in movers.iter().enumerate().skip(first) {
        if let Some(last) = mover.reach.get(remaining) {
            total += u64::from((*last & !used).count());
        }
        if j + 1 == movers.len() {
            break;
        }
        for d in 1..remaining.min(MAX_DISTANCE + 1) {
            for to in (mover.reach[d] & !used).iter() {
                total += count_turns(movers, j + 1, remaining - d, used | Bits::single(to));
            }
        }
    }
    total
}

fn any_turn(movers: &[Mover], first: usize, remaining: usize, used: Bits) -> bool {
    movers.iter().enumerate().skip(first).any(|(j, mover)| {
        mover
            .reach
            .get(remaining)
            .is_some_and(|last| !(*last & !used).is_empty())
            || (1..remaining.min(MAX_DISTANCE + 1)).any(|d| {
                (mover.reach[d] & !used)
                    .iter()
                    .any(|to| any_turn(movers, j + 1, remaining - d, used | Bits::single(to)))
            })
    })
}
