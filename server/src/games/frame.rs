//! The frame every game write runs in, whichever channel asked: one transaction that
//! serialises writers (the body locks the game), act, commit, then wake the mail worker for
//! the outbox rows the body queued.
//!
//! A caller that must commit a row of its own with the action (mail in records each message it
//! acts on, `crate::inbound`) opens the transaction itself and calls the service inside it: the
//! frame then runs as a savepoint of that transaction (see `transaction::write_with`), so both
//! commit together, and the caller wakes the mail worker after its commit.

use super::error::GameError;
use super::Loaded;
use crate::db::DbConnection;
use crate::mail_context::MailContext;
use crate::transaction as tx;

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
    let value = tx::write_with(conn, body)?;
    ctx.wake.notify_one();
    Ok(value)
}

/// Locks game `game_id`, runs `body` on it, commits, wakes the mail worker.
///
/// # Errors
/// [`GameError::NotFound`]; the body's error (rolled back); storage failures.
pub fn with_locked_game<T>(
    conn: &mut DbConnection,
    ctx: &MailContext,
    game_id: i64,
    body: impl FnOnce(&mut DbConnection, &mut Loaded) -> Result<T, GameError>,
) -> Result<T, GameError> {
    write(conn, ctx, |conn| {
        let mut loaded = Loaded::load(conn, game_id, true)?;
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
