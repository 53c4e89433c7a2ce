//! The bot's move for a game of any kind ([`AnyGame`]), as canonical text: the entry points
//! the server's worker and the CLI call, over the typed search of [`crate::mcts`].

use crate::any_game::GameVisitor;
use crate::mcts::{
    analyse_typed_knowing, random_typed_move, BotChoice, BotError, BotLevel, BotPolicy,
};
use crate::repetition::PositionHistory;
use crate::{AnyGame, Status};

/// The game-over error for an [`AnyGame`] that is over (by its own status, which also knows
/// a departure that ended a two-seat game).
fn over(game: &AnyGame) -> Result<(), BotError> {
    match game.status() {
        Status::Ongoing { .. } => Ok(()),
        status => Err(BotError::GameOver(status.to_string())),
    }
}

struct Choose<'a> {
    level: BotLevel,
    seed: u64,
    history: Option<&'a PositionHistory>,
}

impl GameVisitor for Choose<'_> {
    type Output = Result<BotChoice<String>, BotError>;
    fn visit<G: BotPolicy>(self, game: &G) -> Self::Output {
        analyse_typed_knowing(game, self.history, self.level, self.seed).map(|choice| BotChoice {
            mv: game.format_move(&choice.mv),
            values: choice.values,
        })
    }
}

struct Random {
    seed: u64,
}

impl GameVisitor for Random {
    type Output = Result<String, BotError>;
    fn visit<G: BotPolicy>(self, game: &G) -> Self::Output {
        random_typed_move(game, self.seed).map(|mv| game.format_move(&mv))
    }
}

/// The canonical text of the move the bot plays at `level` in `game`: see
/// [`choose_typed_move`].
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn choose_move(game: &AnyGame, level: BotLevel, seed: u64) -> Result<String, BotError> {
    analyse(game, level, seed).map(|choice| choice.mv)
}

/// The bot's move as canonical text, with its values: see [`crate::mcts::analyse_typed`].
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn analyse(game: &AnyGame, level: BotLevel, seed: u64) -> Result<BotChoice<String>, BotError> {
    over(game)?;
    game.visit(Choose {
        level,
        seed,
        history: None,
    })
}

/// As [`analyse`], for a game whose earlier positions are `history` (built from its record,
/// see [`PositionHistory`]): the bot knows the draw by repetition (see
/// [`analyse_typed_knowing`]).
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn analyse_knowing(
    game: &AnyGame,
    history: &PositionHistory,
    level: BotLevel,
    seed: u64,
) -> Result<BotChoice<String>, BotError> {
    over(game)?;
    game.visit(Choose {
        level,
        seed,
        history: Some(history),
    })
}

/// The canonical text of a uniformly random legal move.
///
/// # Errors
/// [`BotError::GameOver`] when the game is over.
pub fn random_move(game: &AnyGame, seed: u64) -> Result<String, BotError> {
    over(game)?;
    game.visit(Random { seed })
}
