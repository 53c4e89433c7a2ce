//! The bot's entry points for a typed engine: a move for a position at a level, pure and
//! deterministic for a seed (`crate::bot_move` offers them for any game).

use crate::Game;

use super::level::BotLevel;
use super::policy::{BotPolicy, MAX_SEATS};
use super::rng::SplitMix64;
use super::search::Search;

/// Why the bot has no move to give.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BotError {
    #[error("the game is over ({0}): there is no move to choose")]
    GameOver(String),
}

/// The bot's move and how it sees the game.
#[derive(Clone, Debug, PartialEq)]
pub struct BotChoice<M> {
    pub mv: M,
    /// Each seat's chances as the search sees them, in [0, 1], by 0-based seat (a server can
    /// accept a draw offer when the bot's own value is low).
    pub values: Vec<f64>,
}

/// Mixed into the bot's seed for the chance it imagines (so it is not the search's stream).
const IMAGINED_CHANCE: u64 = 0x6B65_6368_695F_6469;

/// The move the bot plays at `level` in `game` (a typed engine), with the search's values.
///
/// Deterministic: the same position, level and seed give the same move on any machine (the
/// budget is counted in iterations, and the arithmetic avoids platform maths functions). A
/// single legal move (a forced pass included) is returned at once. The bot knows what a
/// player in the seat knows: chance still to come (Kechi's later die rolls) is imagined from
/// `seed`, never read from the game's own seed (see [`BotPolicy::with_imagined_chance`]).
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn analyse_typed<G: BotPolicy>(
    game: &G,
    level: BotLevel,
    seed: u64,
) -> Result<BotChoice<G::Move>, BotError> {
    let imagined = game.with_imagined_chance(SplitMix64::new(seed ^ IMAGINED_CHANCE).next_u64());
    let game = &imagined;
    let seats = usize::from(game.seat_count()).min(MAX_SEATS);
    let over = || BotError::GameOver(game.status().to_string());
    let mut moves = game.legal_moves();
    if moves.len() <= 1 {
        let mv = moves.pop().ok_or_else(over)?;
        let values = game.evaluate().iter().take(seats).copied().collect();
        return Ok(BotChoice { mv, values });
    }
    let iterations = (f64::from(level.base_iterations()) * game.budget_scale()).max(8.0) as u32;
    let (mv, values) = Search::new(game, seed)
        .best_move(iterations)
        .ok_or_else(over)?;
    Ok(BotChoice {
        mv,
        values: values.iter().take(seats).copied().collect(),
    })
}

/// The move the bot plays at `level` in `game` (a typed engine): see [`analyse_typed`].
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn choose_typed_move<G: BotPolicy>(
    game: &G,
    level: BotLevel,
    seed: u64,
) -> Result<G::Move, BotError> {
    analyse_typed(game, level, seed).map(|choice| choice.mv)
}

/// A uniformly random legal move (the `random` player of `engine match`).
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn random_typed_move<G: Game>(game: &G, seed: u64) -> Result<G::Move, BotError> {
    let mut moves = game.legal_moves();
    let index = SplitMix64::new(seed).below(moves.len());
    if index < moves.len() {
        Ok(moves.swap_remove(index))
    } else {
        Err(BotError::GameOver(game.status().to_string()))
    }
}
