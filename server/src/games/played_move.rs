//! A move being played as its transaction carries it on ([`Played`]), and the game's state
//! after each move of it ([`advance`]): the player's move, then any conditional answers the
//! server plays in the same transaction (`super::conditional`). The rules end the game, or the
//! length rules do (`super::length`: a draw by repetition or by the move limit).

use chrono::NaiveDateTime;
use turnpost_shared::AnyGame;

use super::length::{self, Lengths};
use super::{GameResult, GameStatus, GameWithSeats, ResultReason};
use crate::db::games::{GameState, MoveRow};
use crate::db::{DbConnection, DbError};

/// A move being played, as its transaction carries it on.
pub(super) struct Played {
    /// The position (forced moves after it played).
    pub position: AnyGame,
    /// The rows to store: the move, forced moves, and any answers played after it.
    pub rows: Vec<MoveRow>,
    /// The game's new state (applied to the loaded game as it changes).
    pub state: GameState,
    /// When.
    pub now: NaiveDateTime,
    /// The game's history for the length rules, read on the first move of the request.
    pub lengths: Option<Lengths>,
}

/// Sets `played.state` to the game after `mover`'s move (and the forced moves after it) left
/// `played.position` at `next_ply`: status, the mover's lapsed draw offer, the end of the game
/// (by the rules, or drawn by repetition or the move limit), the clocks; applies it to `loaded`.
///
/// # Errors
/// Storage failures.
pub(super) fn advance(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    mover: i32,
    played: &mut Played,
    next_ply: i32,
) -> Result<(), DbError> {
    let now = played.now;
    let (mut status, mut result, mut to_move) = super::status_columns(&played.position.status());
    let mut reason = ResultReason::Rules;
    if status == GameStatus::Active {
        // A repeated position or the move limit ends the game drawn, in this same transaction.
        let ending = length::ending(
            conn,
            loaded,
            &mut played.lengths,
            &played.rows,
            &played.position,
        )?;
        if let Some(ending) = ending {
            (status, result, to_move) = (GameStatus::Finished, Some(GameResult::draw()), None);
            reason = ending.reason();
        }
    }
    let state = &mut played.state;
    state.ply = next_ply;
    state.position = played.position.position_text();
    state.status = status;
    state.result = result;
    state.to_move = to_move;
    if state.draw_offered_by == Some(mover) {
        state.clear_draw_offer();
    }
    state.last_activity_at = now;
    if status == GameStatus::Finished {
        state.result_reason = Some(reason);
        state.finished_at = Some(now);
        state.clear_draw_offer();
    }
    super::clock::after_move(conn, loaded, mover, state, now)?;
    loaded.game.apply(state.clone());
    Ok(())
}
