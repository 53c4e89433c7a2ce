//! The mail worker's first step: turning recorded game events into outbox rows. Each event is
//! taken, composed, queued and deleted in one write transaction, so its mail is queued exactly
//! once however many workers run (and a crash mid-way leaves the event to compose again).

use super::event::{self, GameEvent};
use super::game_mail::compose_event;
use crate::accounts::MailContext;
use crate::db::events;
use crate::db::{DbConnection, DbError, Pool};
use crate::games::Loaded;
use crate::transaction as tx;

/// Composes the mail of the oldest waiting event whose game has no older one waiting; returns
/// whether there was one. Recipients' preferences and mutes are read now, at compose time
/// (normally a moment after the event); the game is shown as it was at the event.
///
/// # Errors
/// Storage failures (the event stays, to be composed again).
pub fn compose_next(conn: &mut DbConnection, ctx: &MailContext) -> Result<bool, DbError> {
    tx::write_with(conn, |conn| {
        let Some(row) = events::take_next(conn)? else {
            return Ok(false);
        };
        match GameEvent::of_row(&row) {
            Ok(happened) => {
                // In a savepoint: an event whose game or position this code cannot read is
                // dropped with whatever it queued, instead of failing every round and holding
                // back every other game's mail behind it.
                let composed = tx::write_with(conn, |conn| {
                    if let Some(loaded) = Loaded::find(conn, row.game_id, false)? {
                        compose_event(conn, ctx, &event::as_at(loaded, &row), happened)?;
                    }
                    Ok::<(), DbError>(())
                });
                match composed {
                    Ok(()) => {}
                    Err(DbError::Corrupt(error)) => {
                        tracing::error!(event = row.id, %error, "game event dropped: unreadable");
                    }
                    Err(other) => return Err(other),
                }
            }
            // A row this code cannot read would otherwise hold back its game's mail for good.
            Err(error) => tracing::error!(event = row.id, %error, "game event dropped"),
        }
        events::delete(conn, row.id)?;
        Ok(true)
    })
}

/// Composes up to `limit` waiting events on one pooled connection; returns how many.
///
/// # Errors
/// Storage failures.
pub fn compose_waiting(pool: &Pool, ctx: &MailContext, limit: usize) -> Result<usize, DbError> {
    let mut conn = pool.get()?;
    let mut done = 0;
    while done < limit && compose_next(&mut conn, ctx)? {
        done += 1;
    }
    Ok(done)
}
