//! The frame every game write runs in, whichever channel asked: one transaction that
//! serialises writers (the body locks the game), act, commit, then wake the mail worker for
//! the outbox rows the body queued.
//!
//! A caller that must commit a row of its own with the action (mail in records each message it
//! acts on, `crate::inbound`) opens the transaction itself and calls the service inside it: the
//! frame then runs as a savepoint of that transaction (see `transaction::write_with`), so both
//! commit together, and the caller wakes the mail worker after its commit.
//!
//! The server's own work runs in the same frame: a round of a clock sweep locks the games it
//! acts on ([`with_locked_games`]) or runs its body ([`write_waking_if`]), and the mail worker
//! is woken once, after the round commits.

use super::error::GameError;
use super::GameWithSeats;
use crate::db::games::Game;
use crate::db::transaction as tx;
use crate::db::{DbConnection, DbError};
use crate::mail_context::MailContext;

/// Runs `body` in one write transaction; once it commits, wakes the mail worker.
///
/// # Errors
/// The body's error (rolled back); storage failures; [`GameError::Conflict`] when a unique
/// key caught a concurrent write.
pub fn write<T>(
    conn: &mut DbConnection,
    ctx: &MailContext,
    body: impl FnOnce(&mut DbConnection) -> Result<T, GameError>,
) -> Result<T, GameError> {
    write_waking_if(conn, ctx, body, |_| true)
}

/// Runs `body` in one write transaction with the body's own error type; once it commits,
/// wakes the mail worker if `queued_mail` says the body's value queued any.
///
/// # Errors
/// The body's error (rolled back); storage failures.
pub fn write_waking_if<T, E>(
    conn: &mut DbConnection,
    ctx: &MailContext,
    body: impl FnOnce(&mut DbConnection) -> Result<T, E>,
    queued_mail: impl FnOnce(&T) -> bool,
) -> Result<T, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    let value = tx::write_with(conn, body)?;
    if queued_mail(&value) {
        ctx.wake.notify_one();
    }
    Ok(value)
}

/// Runs one round over several games in one write transaction: `lock` selects and locks the
/// games (none when there is nothing to do, or when another process holds the round), `act`
/// acts on each game, loaded. Once the round commits, wakes the mail worker if it acted on any
/// game. Answers how many games it acted on.
///
/// # Errors
/// `lock`'s or `act`'s error, or a storage failure: the whole round rolls back.
pub fn with_locked_games<E>(
    conn: &mut DbConnection,
    ctx: &MailContext,
    lock: impl FnOnce(&mut DbConnection) -> Result<Vec<Game>, E>,
    mut act: impl FnMut(&mut DbConnection, &mut GameWithSeats) -> Result<(), E>,
) -> Result<usize, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    write_waking_if(
        conn,
        ctx,
        |conn| -> Result<usize, E> {
            let games = lock(conn)?;
            for game in &games {
                // Locked by `lock`: read with its seats, not locked again.
                if let Some(mut loaded) = GameWithSeats::find(conn, game.id, false)? {
                    act(conn, &mut loaded)?;
                }
            }
            Ok(games.len())
        },
        |acted_on| *acted_on > 0,
    )
}

/// Locks game `game_id`, runs `body` on it, commits, wakes the mail worker.
///
/// # Errors
/// [`GameError::NotFound`]; the body's error (rolled back); storage failures.
pub fn with_locked_game<T>(
    conn: &mut DbConnection,
    ctx: &MailContext,
    game_id: i64,
    body: impl FnOnce(&mut DbConnection, &mut GameWithSeats) -> Result<T, GameError>,
) -> Result<T, GameError> {
    write(conn, ctx, |conn| {
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
