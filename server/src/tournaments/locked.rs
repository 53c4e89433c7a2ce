//! A tournament locked for a change, and a player's running game of it resigned: what
//! entering, withdrawing and the rounds share (apart from `entry`, which starts rounds).

use turnpost_shared::play::GameStatus;

use super::settings::Settings;
use super::TournamentError;
use crate::db::tournaments as q;
use crate::db::DbConnection;
use crate::games::{ending, Actor, GameError};

/// Locks a tournament and reads it.
///
/// # Errors
/// [`TournamentError::NotFound`]; storage failures.
pub fn locked(conn: &mut DbConnection, id: i64) -> Result<Settings, TournamentError> {
    let row = q::lock(conn, id)?.ok_or(TournamentError::NotFound { id })?;
    Ok(Settings::of_row(row)?)
}

/// Resigns `account_id`'s seat in `game_id` if the game runs and the seat still plays.
///
/// # Errors
/// Storage failures; a refusal other than "not your game" or "the game is over".
pub fn resign_if_playing(
    conn: &mut DbConnection,
    game_id: i64,
    account_id: i64,
) -> Result<(), TournamentError> {
    let Some(game) = crate::db::games::find(conn, game_id)? else {
        return Ok(());
    };
    if game.status != GameStatus::Active {
        return Ok(());
    }
    match ending::resign(conn, &Actor::Account(account_id), game_id, None) {
        Ok(_)
        | Err(
            GameError::NotYourGame { .. }
            | GameError::NotActive { .. }
            | GameError::LeftGame { .. },
        ) => Ok(()),
        Err(other) => Err(other.into()),
    }
}
