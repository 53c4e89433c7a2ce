//! Queries on `mail_outbox`. Claiming is backend-specific: PostgreSQL locks the row with
//! `FOR UPDATE SKIP LOCKED` for the length of the delivery transaction; SQLite (one process per
//! file) takes a short lease with a compare-and-set update.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::models::{NewOutboxMail, OutboxMail};
use super::schema::mail_outbox;
use super::{DbConnection, DbError};

/// Status of a queued mail.
pub const PENDING: &str = "pending";
/// Status of a delivered mail.
pub const SENT: &str = "sent";
/// Status of a mail that failed too often.
pub const DEAD: &str = "dead";

/// Inserts a row; returns its id.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewOutboxMail<'_>) -> Result<i64, DbError> {
    // PostgreSQL answers the id in the same round trip (every move queues a mail, so this is
    // on the hot path); diesel's SQLite backend here has no RETURNING.
    if let DbConnection::Pg(pg) = conn {
        return Ok(diesel::insert_into(mail_outbox::table)
            .values(new)
            .returning(mail_outbox::id)
            .get_result(pg)?);
    }
    diesel::insert_into(mail_outbox::table)
        .values(new)
        .execute(conn)?;
    Ok(mail_outbox::table
        .filter(mail_outbox::message_id.eq(new.message_id))
        .select(mail_outbox::id)
        .first(conn)?)
}

/// PostgreSQL: locks the oldest due row, skipping rows other workers hold. Call inside a
/// transaction; the lock lasts until it ends.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_next_due_pg(
    conn: &mut diesel::PgConnection,
    now: NaiveDateTime,
) -> Result<Option<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .filter(mail_outbox::status.eq(PENDING))
        .filter(mail_outbox::next_attempt_at.le(now))
        .order(mail_outbox::id.asc())
        .for_update()
        .skip_locked()
        .select(OutboxMail::as_select())
        .first(conn)
        .optional()?)
}

/// PostgreSQL: up to `limit` due rows, oldest first, locked until the transaction ends;
/// rows other workers hold are skipped.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_due_batch_pg(
    conn: &mut diesel::PgConnection,
    now: NaiveDateTime,
    limit: i64,
) -> Result<Vec<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .filter(mail_outbox::status.eq(PENDING))
        .filter(mail_outbox::next_attempt_at.le(now))
        .order((mail_outbox::next_attempt_at.asc(), mail_outbox::id.asc()))
        .limit(limit)
        .for_update()
        .skip_locked()
        .select(OutboxMail::as_select())
        .load(conn)?)
}

/// SQLite: the oldest due row that no worker holds a lease on.
///
/// # Errors
/// [`DbError::Query`].
pub fn next_due_unleased(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Option<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .filter(mail_outbox::status.eq(PENDING))
        .filter(mail_outbox::next_attempt_at.le(now))
        .filter(
            mail_outbox::lease_until
                .is_null()
                .or(mail_outbox::lease_until.lt(now)),
        )
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .first(conn)
        .optional()?)
}

/// SQLite: takes the lease on a row if nobody holds it; true if this caller now holds it.
///
/// # Errors
/// [`DbError::Query`].
pub fn take_lease(
    conn: &mut DbConnection,
    id: i64,
    now: NaiveDateTime,
    until: NaiveDateTime,
) -> Result<bool, DbError> {
    let n = diesel::update(
        mail_outbox::table
            .find(id)
            .filter(mail_outbox::status.eq(PENDING))
            .filter(
                mail_outbox::lease_until
                    .is_null()
                    .or(mail_outbox::lease_until.lt(now)),
            ),
    )
    .set(mail_outbox::lease_until.eq(Some(until)))
    .execute(conn)?;
    Ok(n == 1)
}

/// Replaces a row's stored parts (the worker stores the rasterised picture once).
///
/// # Errors
/// [`DbError::Query`].
pub fn set_parts(conn: &mut DbConnection, id: i64, parts: &str) -> Result<(), DbError> {
    diesel::update(mail_outbox::table.find(id))
        .set(mail_outbox::parts.eq(Some(parts)))
        .execute(conn)?;
    Ok(())
}

/// Marks a row delivered.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_sent(
    conn: &mut DbConnection,
    id: i64,
    attempts: i32,
    at: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(mail_outbox::table.find(id))
        .set((
            mail_outbox::status.eq(SENT),
            mail_outbox::attempts.eq(attempts),
            mail_outbox::sent_at.eq(Some(at)),
            mail_outbox::lease_until.eq(None::<NaiveDateTime>),
            mail_outbox::last_error.eq(None::<String>),
        ))
        .execute(conn)?;
    Ok(())
}

/// Records a failed attempt: retry at `next` (pending) or give up (dead).
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_failed(
    conn: &mut DbConnection,
    id: i64,
    attempts: i32,
    error: &str,
    next: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    let status = if next.is_some() { PENDING } else { DEAD };
    let next_attempt = next.unwrap_or_else(super::now);
    diesel::update(mail_outbox::table.find(id))
        .set((
            mail_outbox::status.eq(status),
            mail_outbox::attempts.eq(attempts),
            mail_outbox::next_attempt_at.eq(next_attempt),
            mail_outbox::lease_until.eq(None::<NaiveDateTime>),
            mail_outbox::last_error.eq(Some(error)),
        ))
        .execute(conn)?;
    Ok(())
}

/// Every row, oldest first (tests and operators).
///
/// # Errors
/// [`DbError::Query`].
pub fn all(conn: &mut DbConnection) -> Result<Vec<OutboxMail>, DbError> {
    Ok(mail_outbox::table
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .load(conn)?)
}
