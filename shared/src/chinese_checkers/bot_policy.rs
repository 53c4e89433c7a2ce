//! What the bot knows about Chinese Checkers: how far each set's pegs are from the tip of its
//! target (stragglers weigh extra), and moves ranked by the distance they gain, so playouts
//! favour long forward hops. Several seats: each seat's value is its progress against the best
//! other seat's (the search backs these up max-n).

use crate::mcts::{logistic, BotPolicy, SeatValues, MAX_SEATS};

use super::board::ChineseCheckers;
use super::hole::Hole;
use super::moves::ChineseCheckersMove;
use super::points::{opposite, target_mask, POINTS};
use super::variant::sets_in;

/// The far tip of each point (index 1–6), as 0-based (row, number): the last hole to fill.
const TIPS: [(i32, i32); POINTS + 1] =
    [(8, 9), (16, 13), (12, 5), (4, 1), (0, 5), (4, 13), (12, 17)];

/// Sums of the distances to the tip of a filled target, by number of pegs.
const FILLED_COST: [i32; 11] = [0, 0, 1, 2, 4, 6, 8, 11, 14, 17, 20];

/// Steps between two holes on this board (neighbours along (0,±1), (±1,0), ±(1,1)).
fn steps((row, number): (i32, i32), (to_row, to_number): (i32, i32)) -> i32 {
    let (dr, dn) = (to_row - row, to_number - number);
    if (dr >= 0) == (dn >= 0) {
        dr.abs().max(dn.abs())
    } else {
        dr.abs() + dn.abs()
    }
}

/// Steps from `hole` to the tip of the target of the set that started in `set`.
fn to_tip(set: usize, hole: Hole) -> i32 {
    let tip = TIPS.get(opposite(set)).copied().unwrap_or((8, 9));
    steps(hole.coords(), tip)
}

impl ChineseCheckers {
    /// How far the set starting in `set` has come: 0 at the start, 1 home.
    fn set_progress(&self, set: usize) -> f64 {
        let mut bits = self.pegs.get(set).copied().unwrap_or(0);
        let (mut cost, mut worst, mut count) = (0, 0, 0usize);
        while bits != 0 {
            if let Some(hole) = Hole::from_index(bits.trailing_zeros() as usize) {
                let distance = to_tip(set, hole);
                cost += distance;
                worst = worst.max(distance);
                count += 1;
            }
            bits &= bits - 1;
        }
        if count == 0 {
            return 1.0;
        }
        let filled = FILLED_COST.get(count.min(10)).copied().unwrap_or(20);
        let start = 14 * i32::try_from(count).unwrap_or(10);
        // A straggler left behind costs extra: the last peg home decides the race.
        let cost = f64::from(cost) + 0.5 * f64::from((worst - 4).max(0));
        ((f64::from(start) - cost) / f64::from((start - filled).max(1))).clamp(0.0, 1.0)
    }

    /// The mean progress of the sets of `seat` (0-based).
    fn seat_progress(&self, seat: usize) -> f64 {
        let (mut total, mut sets) = (0.0, 0.0);
        for set in sets_in(self.variant.sets_of(seat)) {
            total += self.set_progress(set);
            sets += 1.0;
        }
        if sets > 0.0 {
            total / sets
        } else {
            0.0
        }
    }
}

impl BotPolicy for ChineseCheckers {
    const PLAYOUT_PLIES: u32 = 4;
    const PRIOR_TEMPERATURE: f64 = 1.0;

    fn evaluate(&self) -> SeatValues {
        let seats = self.variant.seat_count().min(MAX_SEATS);
        let mut progress = [0.0; MAX_SEATS];
        for (seat, slot) in progress.iter_mut().enumerate().take(seats) {
            *slot = self.seat_progress(seat);
        }
        let mut values = [0.0; MAX_SEATS];
        for seat in 0..seats {
            let best_other = (0..seats)
                .filter(|other| *other != seat)
                .filter_map(|other| progress.get(other).copied())
                .fold(0.0, f64::max);
            let own = progress.get(seat).copied().unwrap_or(0.0);
            if let Some(value) = values.get_mut(seat) {
                *value = logistic(8.0 * (own - best_other));
            }
        }
        values
    }

    fn move_score(&self, mv: &ChineseCheckersMove) -> f64 {
        let ChineseCheckersMove::Move { from, to } = mv else {
            return 0.0;
        };
        let set = usize::from(self.at(*from));
        let gain = to_tip(set, *from) - to_tip(set, *to);
        let target = target_mask(set);
        let arrives = target & to.bit() != 0 && target & from.bit() == 0;
        f64::from(gain) + if arrives { 1.0 } else { 0.0 }
    }
}
