//! The mail worker's first step: turning recorded game events into outbox rows. Each event is
//! taken, composed, queued and marked composed in one write transaction (a few events share one), so
//! its mail is queued exactly once however many workers run (and a crash mid-way leaves the
//! event to compose again).

use std::sync::atomic::{AtomicBool, Ordering};

use tokio::sync::Notify;

use super::game_mail::compose_event;
use super::{BatchReads, EventBatch, GameOutbox};
use crate::db::events;
use crate::db::transaction as tx;
use crate::db::{DbConnection, DbError, Pool};
use crate::games::event::{self, GameEvent};
use crate::games::GameWithSeats;
use crate::mail_context::MailContext;
use crate::worker_threads::overdue_catch_up::{self, CatchUp};

/// Composes the mail of the oldest waiting event whose game has no older one waiting; returns
/// whether there was one. Recipients' preferences and mutes are read now, at compose time
/// (normally a moment after the event); the game is shown as it was at the event.
///
/// # Errors
/// Storage failures (the event stays, to be composed again).
pub fn compose_next(conn: &mut DbConnection, ctx: &MailContext) -> Result<bool, DbError> {
    tx::write_with(conn, |conn| {
        let row = match events::take_next(conn) {
            Ok(Some(row)) => row,
            Ok(None) => return Ok(false),
            // A kind this code does not know fails the read of every waiting event.
            Err(DbError::Query(diesel::result::Error::DeserializationError(error))) => {
                let dropped = events::delete_unknown_kinds(conn)?;
                if dropped == 0 {
                    return Err(DbError::Corrupt(error.to_string()));
                }
                tracing::error!(dropped, %error, "game events dropped: unknown kind");
                return Ok(true);
            }
            Err(other) => return Err(other),
        };
        match GameEvent::of_row(&row) {
            Ok(happened) => {
                // In a savepoint: an event whose game or position this code cannot read is
                // dropped with whatever it queued, instead of failing every round and holding
                // back every other game's mail behind it.
                let composed = tx::write_with(conn, |conn| {
                    if let Some(loaded) = GameWithSeats::find(conn, row.game_id, false)? {
                        compose_event(
                            conn,
                            ctx,
                            &EventBatch::single(),
                            &event::as_at(loaded, &row),
                            happened,
                        )?;
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
        events::mark_composed(conn, &[row.id])?;
        Ok(true)
    })
}

/// Composes up to `limit` waiting events on one pooled connection; returns how many.
///
/// They are taken, composed, queued and marked composed together in one transaction (a handful of
/// statements per event instead of a transaction each). When one of them cannot be read, that
/// transaction is rolled back and the events are taken again one at a time
/// ([`compose_next`]), which drops the unreadable one and queues the others' mail.
///
/// # Errors
/// Storage failures.
pub fn compose_waiting(pool: &Pool, ctx: &MailContext, limit: usize) -> Result<usize, DbError> {
    let mut conn = pool.get()?;
    match compose_together(&mut conn, ctx, limit) {
        Ok(done) => Ok(done),
        Err(Together::Unreadable) => {
            let mut done = 0;
            while done < limit && compose_next(&mut conn, ctx)? {
                done += 1;
            }
            Ok(done)
        }
        Err(Together::Storage(error)) => Err(error),
    }
}

/// The catch-up composer's work (`crate::worker_threads::overdue_catch_up`): while the oldest
/// waiting event is overdue for `catch_up`, composes the oldest events `limit` at a time, waking
/// `deliver` after each round that queued mail; returns how many. Events held by other composers
/// are skipped (PostgreSQL) or waited for (SQLite's write lock), so each is still composed exactly
/// once. `working` is true while it composes (the low-priority composers then take one event at a
/// time: a batch they hold while starved of CPU holds back its games' later events too). It stops
/// after the round in progress once `keep_going` answers false (shutdown).
///
/// # Errors
/// Storage failures.
pub fn compose_overdue(
    pool: &Pool,
    ctx: &MailContext,
    catch_up: CatchUp,
    limit: usize,
    deliver: &Notify,
    working: &AtomicBool,
    keep_going: &dyn Fn() -> bool,
) -> Result<usize, DbError> {
    let done = catch_up.overdue_rounds(
        || Ok(events::oldest_waiting_at(&mut *pool.get()?)?.map(overdue_catch_up::age_since)),
        || {
            if !keep_going() {
                return Ok(0);
            }
            working.store(true, Ordering::Relaxed);
            let composed = compose_waiting(pool, ctx, limit)?;
            if composed > 0 {
                deliver.notify_one();
            }
            Ok(composed)
        },
    );
    working.store(false, Ordering::Relaxed);
    done
}

/// Why composing a batch of events together stopped.
enum Together {
    /// An event or its game cannot be read: compose one at a time instead.
    Unreadable,
    /// The database failed.
    Storage(DbError),
}

impl From<DbError> for Together {
    fn from(error: DbError) -> Self {
        match error {
            DbError::Corrupt(_)
            | DbError::Query(diesel::result::Error::DeserializationError(_)) => Self::Unreadable,
            other => Self::Storage(other),
        }
    }
}

impl From<diesel::result::Error> for Together {
    fn from(error: diesel::result::Error) -> Self {
        Self::Storage(DbError::Query(error))
    }
}

/// Events composed together at most: the oldest waiting event of up to `limit` games, then
/// their later events up to this many in all.
pub const EVENTS_TOGETHER: i64 = 64;

/// Takes the oldest waiting event of up to `limit` games and, unless `limit` is one, the later
/// events of those games (up to [`EVENTS_TOGETHER`] in all), composes their mail in order and
/// marks them composed in one transaction; returns how many. What their mails read is read once for the
/// batch ([`BatchReads`]), and their mails are queued together ([`GameOutbox`]).
fn compose_together(
    conn: &mut DbConnection,
    ctx: &MailContext,
    limit: usize,
) -> Result<usize, Together> {
    tx::write_with(conn, |conn| {
        let mut rows = events::take_waiting(conn, i64::try_from(limit).unwrap_or(1))?;
        if rows.is_empty() {
            return Ok(0);
        }
        let game_ids: Vec<i64> = rows.iter().map(|row| row.game_id).collect();
        let taken: Vec<i64> = rows.iter().map(|row| row.id).collect();
        let room = EVENTS_TOGETHER.saturating_sub(i64::try_from(rows.len()).unwrap_or(0));
        // A low-priority composer taking one event while the catch-up works (`composer.rs`)
        // takes no later ones: starved mid-way, it would hold all of them out of reach.
        if room > 0 && limit > 1 {
            rows.extend(events::later_of_games(conn, &game_ids, &taken, room)?);
        }
        // A game's events in the order they happened.
        rows.sort_by_key(|row| row.id);
        let games = GameWithSeats::find_many(conn, &game_ids)?;
        let mut batch = Vec::with_capacity(rows.len());
        for row in &rows {
            let happened = GameEvent::of_row(row).map_err(|_| Together::Unreadable)?;
            if let Some(loaded) = games.iter().find(|g| g.game.id == row.game_id) {
                batch.push((event::as_at(loaded.clone(), row), happened));
            }
        }
        let reads = {
            let at: Vec<&GameWithSeats> = batch.iter().map(|(loaded, _)| loaded).collect();
            BatchReads::read(conn, &at)?
        };
        // The batch's mails are queued together once all are composed, in the order composed.
        let composing = EventBatch {
            reads,
            outbox: GameOutbox::held(),
        };
        for (loaded, happened) in &batch {
            compose_event(conn, ctx, &composing, loaded, *happened)?;
        }
        composing.outbox.queue_held(conn, ctx)?;
        let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
        events::mark_composed(conn, &ids)?;
        Ok(rows.len())
    })
}
