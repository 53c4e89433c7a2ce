//! The frame every game write runs in, whichever channel asked: one transaction that
//! serialises writers (the body locks the game), act, commit. What the body recorded in the
//! event log or queued in the outbox wakes their consumers once it commits (the commit bell of
//! `crate::db::transaction::write_with`): the frame carries no mail context.
//!
//! A caller that must commit a row of its own with the action (mail in records each message it
//! acts on, `crate::inbound`) opens the transaction itself and calls the service inside it: the
//! frame then runs as a savepoint of that transaction (see `transaction::write_with`), so both
//! commit together.
//!
//! The server's own work runs in the same frame: a round of a clock sweep locks the games it
//! acts on ([`with_locked_games`]) or runs its body ([`write`]).

use super::error::GameError;
use super::GameWithSeats;
use crate::db::games::Game;
use crate::db::transaction as tx;
use crate::db::{DbConnection, DbError};

/// Runs `body` in one write transaction, with the body's own error type.
///
/// # Errors
/// The body's error (rolled back); storage failures; for a game action, [`GameError::Conflict`]
/// when a unique key caught a concurrent write.
pub fn write<T, E>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    tx::write_with(conn, body)
}

/// Runs one round over several games in one write transaction: `lock` selects and locks the
/// games (none when there is nothing to do, or when another process holds the round), `act`
/// acts on each game, loaded. Answers how many games it acted on.
///
/// # Errors
/// `lock`'s or `act`'s error, or a storage failure: the whole round rolls back.
pub fn with_locked_games<E>(
    conn: &mut DbConnection,
    lock: impl FnOnce(&mut DbConnection) -> Result<Vec<Game>, E>,
    mut act: impl FnMut(&mut DbConnection, &mut GameWithSeats) -> Result<(), E>,
) -> Result<usize, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    write(conn, |conn| -> Result<usize, E> {
        let games = lock(conn)?;
        for game in &games {
            // Locked by `lock`: read with its seats, not locked again.
            if let Some(mut loaded) = GameWithSeats::find(conn, game.id, false)? {
                act(conn, &mut loaded)?;
            }
        }
        Ok(games.len())
    })
}

/// Locks game `game_id`, runs `body` on it, commits.
///
/// # Errors
/// [`GameError::NotFound`]; the body's error (rolled back); storage failures.
pub fn with_locked_game<T>(
    conn: &mut DbConnection,
    game_id: i64,
    body: impl FnOnce(&mut DbConnection, &mut GameWithSeats) -> Result<T, GameError>,
) -> Result<T, GameError> {
    write(conn, |conn| {
        let mut loaded = GameWithSeats::load(conn, game_id, true)?;
        body(conn, &mut loaded)
    })
}

/// Runs `body` in a read-only transaction (one consistent snapshot).
///
/// # Errors
/// The body's error; storage failures.
pub fn read<T>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, GameError>,
) -> Result<T, GameError> {
    tx::read_with(conn, body)
}
