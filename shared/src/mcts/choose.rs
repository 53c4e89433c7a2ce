//! The bot's entry points for a typed engine: a move for a position at a level, pure and
//! deterministic for a seed (`crate::bot_move` offers them for any game).

use crate::repetition::PositionHistory;
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
    analyse_typed_knowing(game, None, level, seed)
}

/// How far below its fair share (a draw's value: one point shared by the seats) the bot's own
/// value must be before it takes a draw by repetition: near even, it plays on.
const BEHIND_MARGIN: f64 = 0.05;

/// As [`analyse_typed`], for a game whose earlier positions are `history` (the draw by
/// repetition, see [`PositionHistory`]): a bot that is ahead by its search's values does not
/// play a move that completes a threefold repetition unless every move does; one that is behind
/// takes such a move when there is one (a draw is worth more to it than playing on). Only the
/// root's moves are checked: cheap, and the search itself is unchanged.
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn analyse_typed_knowing<G: BotPolicy>(
    game: &G,
    history: Option<&PositionHistory>,
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
    let history = history.filter(|_| G::POSITIONS_RECUR);
    let (mv, values) = match history {
        None => Search::new(game, seed).best_move(iterations),
        Some(history) => {
            Search::new(game, seed)
                .ranked_moves(iterations)
                .and_then(|(ranked, values)| {
                    let mover = game.to_move().map_or(0, |seat| seat.index());
                    let mv = mind_repetition(game, history, ranked, values.get(mover).copied())?;
                    Some((mv, values))
                })
        }
    }
    .ok_or_else(over)?;
    Ok(BotChoice {
        mv,
        values: values.iter().take(seats).copied().collect(),
    })
}

/// The move to play among `ranked` (best first) knowing the draw by repetition: ahead (`own`
/// value above a draw's), the best move that does not complete a repetition, if any; behind,
/// the best one that does, if any; else the best.
fn mind_repetition<G: BotPolicy>(
    game: &G,
    history: &PositionHistory,
    ranked: Vec<G::Move>,
    own: Option<f64>,
) -> Option<G::Move> {
    let draw = 1.0 / f64::from(game.seat_count().max(1));
    let own = own.unwrap_or(draw);
    let repeats = |mv: &G::Move| history.completes_repetition(&game.play_move(mv).position_text());
    let wanted = if own > draw {
        ranked.iter().position(|mv| !repeats(mv))
    } else if own < draw - BEHIND_MARGIN {
        ranked.iter().position(repeats)
    } else {
        None
    };
    let index = wanted.unwrap_or(0);
    ranked.into_iter().nth(index)
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
