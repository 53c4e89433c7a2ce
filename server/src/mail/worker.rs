//! The outbox worker: claims due rows, sends them, records the outcome.
//!
//! PostgreSQL: the row stays locked (`FOR UPDATE SKIP LOCKED`) in one transaction from claim to
//! outcome, so any number of workers in any number of processes deliver each row once (a crash
//! between the SMTP answer and the commit resends, with the same Message-ID). SQLite: a short
//! compare-and-set lease marks the row claimed while it is sent.

use std::sync::Arc;
use std::time::Duration;

use diesel::Connection as _;
use lettre::message::Mailbox;
use tokio::sync::{watch, Notify};

use super::background::Background;
use super::{OutboxSettings, StoredParts, Transport};
use crate::db::models::OutboxMail;
use crate::db::{self, outbox, DbConnection, DbError, Pool};

/// What one call of [`deliver_one`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Nothing was due.
    Idle,
    /// Row `id` was delivered.
    Sent(i64),
    /// Row `id` failed and will be retried.
    Retrying(i64),
    /// Row `id` failed for the last time and is dead-lettered.
    Dead(i64),
    /// Another worker claimed row `id` first (SQLite); look again.
    Contended(i64),
}

/// How long an SQLite lease lasts: longer than any SMTP timeout.
const SQLITE_LEASE: Duration = Duration::from_secs(300);

/// Claims and delivers at most one due row.
///
/// # Errors
/// [`DbError`] if the database fails (the row stays pending and is retried).
pub fn deliver_one(
    conn: &mut DbConnection,
    transport: &Transport,
    from: &Mailbox,
    settings: &OutboxSettings,
) -> Result<Delivery, DbError> {
    match conn.backend() {
        db::Backend::Postgres => conn.transaction(|conn| {
            let now = db::now();
            let row = match conn {
                DbConnection::Pg(pg) => outbox::lock_next_due_pg(pg, now)?,
                DbConnection::Sqlite(_) => None,
            };
            match row {
                None => Ok(Delivery::Idle),
                Some(row) => {
                    let row = with_picture(conn, row)?;
                    record(conn, &row, transport.send(from, &row), settings)
                }
            }
        }),
        db::Backend::Sqlite => {
            let now = db::now();
            let lease_until = now + chrono::Duration::from_std(SQLITE_LEASE).unwrap_or_default();
            let Some(row) = outbox::next_due_unleased(conn, now)? else {
                return Ok(Delivery::Idle);
            };
            if !outbox::take_lease(conn, row.id, now, lease_until)? {
                return Ok(Delivery::Contended(row.id));
            }
            let row = with_picture(conn, row)?;
            let result = transport.send(from, &row);
            record(conn, &row, result, settings)
        }
    }
}

/// Most rows one PostgreSQL transaction claims and delivers: under load one claim query and
/// one commit serve many mails, while a crash resends at most this many (with the same
/// Message-IDs).
pub const BATCH: usize = 32;

/// Claims and delivers up to [`BATCH`] due rows; returns what happened to each (empty when
/// nothing was due).
///
/// # Errors
/// [`DbError`] if the database fails (the rows stay pending and are retried).
pub fn deliver_batch(
    conn: &mut DbConnection,
    transport: &Transport,
    from: &Mailbox,
    settings: &OutboxSettings,
) -> Result<Vec<Delivery>, DbError> {
    match conn.backend() {
        db::Backend::Postgres => conn.transaction(|conn| {
            let rows = match conn {
                DbConnection::Pg(pg) => {
                    outbox::lock_due_batch_pg(pg, db::now(), i64::try_from(BATCH).unwrap_or(1))?
                }
                DbConnection::Sqlite(_) => Vec::new(),
            };
            rows.into_iter()
                .map(|row| {
                    let row = with_picture(conn, row)?;
                    record(conn, &row, transport.send(from, &row), settings)
                })
                .collect()
        }),
        db::Backend::Sqlite => {
            let mut done = Vec::new();
            while done.len() < BATCH {
                match deliver_one(conn, transport, from, settings)? {
                    Delivery::Idle => break,
                    other => done.push(other),
                }
            }
            Ok(done)
        }
    }
}

/// Rasterises a claimed row's picture the first time it is delivered and stores the PNG in the
/// row, so every attempt sends the same bytes. Done here, not when the mail is queued: drawing
/// costs milliseconds of CPU that a move's transaction should not hold its locks for. A picture
/// that cannot be drawn is dropped (the text board is in both parts).
fn with_picture(conn: &mut DbConnection, mut row: OutboxMail) -> Result<OutboxMail, DbError> {
    let Some(mut parts) = row
        .parts
        .as_deref()
        .and_then(|json| StoredParts::from_json(json).ok())
    else {
        return Ok(row);
    };
    if !parts.needs_png() {
        return Ok(row);
    }
    match parts.image_svg.as_deref().map(super::picture::svg_png) {
        Some(Ok(png)) => parts.set_png(&png.bytes),
        Some(Err(error)) => {
            tracing::warn!(outbox_id = row.id, %error, "board picture failed; sending without it");
            parts.image_svg = None;
            parts.image_cid = None;
        }
        None => return Ok(row),
    }
    let json = parts
        .to_json()
        .map_err(|e| DbError::Query(diesel::result::Error::SerializationError(Box::new(e))))?;
    outbox::set_parts(conn, row.id, &json)?;
    row.parts = Some(json);
    Ok(row)
}

fn record(
    conn: &mut DbConnection,
    row: &OutboxMail,
    result: Result<(), super::SendError>,
    settings: &OutboxSettings,
) -> Result<Delivery, DbError> {
    let attempts = row.attempts.saturating_add(1);
    match result {
        Ok(()) => {
            outbox::mark_sent(conn, row.id, attempts, db::now())?;
            tracing::info!(outbox_id = row.id, message_id = %row.message_id, attempts, "mail delivered");
            Ok(Delivery::Sent(row.id))
        }
        Err(error) => {
            let failures = u32::try_from(attempts).unwrap_or(u32::MAX);
            let give_up = error.permanent || failures >= settings.max_attempts;
            let message: String = error.message.chars().take(1000).collect();
            if give_up {
                outbox::mark_failed(conn, row.id, attempts, &message, None)?;
                tracing::error!(outbox_id = row.id, attempts, error = %message, "mail dead-lettered");
                Ok(Delivery::Dead(row.id))
            } else {
                let delay =
                    chrono::Duration::from_std(settings.backoff(failures)).unwrap_or_default();
                outbox::mark_failed(conn, row.id, attempts, &message, Some(db::now() + delay))?;
                tracing::warn!(outbox_id = row.id, attempts, retry_in_ms = delay.num_milliseconds(), error = %message, "mail delivery failed; will retry");
                Ok(Delivery::Retrying(row.id))
            }
        }
    }
}

/// The worker that runs beside the HTTP server.
#[derive(Clone)]
pub struct OutboxWorker {
    /// Database.
    pub pool: Pool,
    /// Transport.
    pub transport: Arc<Transport>,
    /// Sender.
    pub from: Mailbox,
    /// Timing.
    pub settings: OutboxSettings,
    /// Wakes the worker early (after a handler queued mail).
    pub wake: Arc<Notify>,
}

impl OutboxWorker {
    /// Delivers due mail until `shutdown` turns true. A send in progress when shutdown is asked
    /// finishes and is recorded first.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let background = match Background::start("mail-worker") {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail worker: cannot start its thread; no mail is sent");
                return;
            }
        };
        loop {
            if *shutdown.borrow() {
                break;
            }
            let this = self.clone();
            let outcome = background
                .run(move || {
                    let mut conn = this.pool.get()?;
                    deliver_batch(&mut conn, &this.transport, &this.from, &this.settings)
                })
                .await;
            let busy = match outcome {
                Some(Ok(done)) => !done.is_empty(),
                Some(Err(error)) => {
                    tracing::error!(%error, "mail worker: database error");
                    false
                }
                None => {
                    tracing::error!("mail worker: its thread ended");
                    false
                }
            };
            if busy {
                continue;
            }
            tokio::select! {
                () = tokio::time::sleep(self.settings.poll_interval) => {}
                () = self.wake.notified() => {}
                _ = shutdown.changed() => {}
            }
        }
        tracing::info!("mail worker stopped");
    }
}
