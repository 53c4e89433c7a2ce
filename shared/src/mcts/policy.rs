//! What the search needs to know about one game: a cheap score for each move (search priors and
//! playout choice) and a static evaluation that cuts playouts short.

use crate::{Game, Status};

use super::portable_math::logistic;
use super::rng::SplitMix64;

/// Values per seat in [0, 1], indexed by 0-based seat (at most six seats).
pub type SeatValues = [f64; MAX_SEATS];

/// The most seats of any game (six-player Chinese Checkers).
pub const MAX_SEATS: usize = 6;

/// A game's knowledge for the bot. Implemented by every engine in `bot/`.
pub trait BotPolicy: Game {
    /// Plies played by the playout policy from a new leaf before [`BotPolicy::evaluate`].
    const PLAYOUT_PLIES: u32;
    /// Softmax temperature turning [`BotPolicy::move_score`] into search priors.
    const PRIOR_TEMPERATURE: f64;

    /// How good the ongoing position is for each seat, each value in [0, 1] (about 0.5: even).
    fn evaluate(&self) -> SeatValues;

    /// How promising `mv` looks for the seat to move (higher is better; any scale, see
    /// [`BotPolicy::PRIOR_TEMPERATURE`]).
    fn move_score(&self, mv: &Self::Move) -> f64;

    /// Multiplies the level's iteration budget (searching some games costs more per iteration).
    fn budget_scale(&self) -> f64 {
        1.0
    }

    /// The position as the bot may think about it: what a player in the seat to move knows.
    /// A game whose chance is decided in advance (Kechi's die rolls follow from the game's
    /// seed) answers a copy whose chance still to come is drawn from `imagined` instead, so
    /// the search plans with rolls it made up and never with the game's own (invariant 7);
    /// the chance already drawn (the roll of the turn in progress) stays. Games without
    /// hidden chance answer themselves.
    fn with_imagined_chance(&self, imagined: u64) -> Self {
        let _ = imagined;
        self.clone()
    }

    /// The playout's move: the best scored of a few random candidates (greedy-ish, but varied).
    fn playout_move(&self, moves: &[Self::Move], rng: &mut SplitMix64) -> usize {
        let mut best = rng.below(moves.len());
        let mut best_score = moves.get(best).map_or(f64::MIN, |mv| self.move_score(mv));
        for _ in 0..2 {
            let candidate = rng.below(moves.len());
            let score = moves
                .get(candidate)
                .map_or(f64::MIN, |mv| self.move_score(mv));
            if score > best_score {
                best = candidate;
                best_score = score;
            }
        }
        best
    }
}

/// The value of a finished game: 1 for winners, 0 for the others; a draw shares one point.
pub fn final_values(status: &Status, seats: usize) -> SeatValues {
    let mut values = [0.0; MAX_SEATS];
    match status {
        Status::Won { winners } => {
            for seat in winners {
                if let Some(value) = values.get_mut(seat.index()) {
                    *value = 1.0;
                }
            }
        }
        Status::Draw | Status::Ongoing { .. } => {
            let share = 1.0 / seats.max(1) as f64;
            for value in values.iter_mut().take(seats) {
                *value = share;
            }
        }
    }
    values
}

/// Two-player values from an advantage for seat 1 (any scale): a logistic squash.
pub fn two_player_values(advantage: f64) -> SeatValues {
    let first = logistic(advantage);
    let mut values = [0.0; MAX_SEATS];
    values[0] = first;
    values[1] = 1.0 - first;
    values
}
