//! Queries on `mail_outbox`. A worker claims due rows with a short lease (`claimed_by`,
//! `lease_until`) in one short transaction (one statement on PostgreSQL), sends with no transaction
//! open, then marks the outcome; the lease is renewed while it sends, so a crashed worker's rows
//! are due again within one lease. PostgreSQL claims with `FOR UPDATE SKIP LOCKED`, so concurrent
//! claimers in any number of processes never take the same row; SQLite claims in an immediate
//! (write-locked) transaction.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Timestamp};

use super::schema::mail_outbox;
use super::{DbConnection, DbError};

mod lane;
mod pg_prepared;
mod rows;
mod status;

pub use lane::MailLane;
pub use pg_prepared::claim_statement_sql;
pub use rows::{NewOutboxMail, OutboxMail};
pub use status::OutboxStatus;

/// Inserts a row; returns its id.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewOutboxMail<'_>) -> Result<i64, DbError> {
    crate::metrics::mail_queued();
    super::commit_bell::ring_at_commit();
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

/// Inserts `new` and deletes it again in the caller's transaction, so nothing is ever sent:
/// the same statements and the same commit as [`insert`], for a request that must take as
/// long as one that queues a mail without queueing one (a sign-in code asked for an address
/// with no account: `crate::accounts::sign_in`). Not counted as queued; the commit still
/// wakes the worker, as [`insert`]'s would.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert_and_discard(conn: &mut DbConnection, new: &NewOutboxMail<'_>) -> Result<(), DbError> {
    super::commit_bell::ring_at_commit();
    let id: i64 = if let DbConnection::Pg(pg) = conn {
        diesel::insert_into(mail_outbox::table)
            .values(new)
            .returning(mail_outbox::id)
            .get_result(pg)?
    } else {
        diesel::insert_into(mail_outbox::table)
            .values(new)
            .execute(conn)?;
        mail_outbox::table
            .filter(mail_outbox::message_id.eq(new.message_id))
            .select(mail_outbox::id)
            .first(conn)?
    };
    // A known address's request also writes a code row and retires the previous code; one
    // more write of this row stands for them.
    diesel::update(mail_outbox::table.find(id))
        .set(mail_outbox::lease_until.eq(None::<NaiveDateTime>))
        .execute(conn)?;
    diesel::delete(mail_outbox::table.find(id)).execute(conn)?;
    Ok(())
}

/// Rows of one INSERT at most: a statement's arrays are built in memory, so a huge batch is
/// inserted a thousand rows at a time (in the caller's transaction all the same).
const ROWS_PER_INSERT: usize = 1000;

/// Inserts `rows` in their order (their ids ascend with it): on PostgreSQL as one statement
/// (of one array a column, kept prepared) for up to a thousand rows, one round trip instead
/// of one a row; on SQLite, where a statement is a call and not a round trip, one at a time.
///
/// # Errors
/// [`DbError::Query`]; on failure nothing of a PostgreSQL statement is inserted (the caller's
/// transaction rolls back the rest).
pub fn insert_all(conn: &mut DbConnection, rows: &[NewOutboxMail<'_>]) -> Result<(), DbError> {
    for _ in rows {
        crate::metrics::mail_queued();
    }
    if !rows.is_empty() {
        super::commit_bell::ring_at_commit();
    }
    if let DbConnection::Pg(pg) = conn {
        for chunk in rows.chunks(ROWS_PER_INSERT) {
            pg_prepared::InsertRows::new(chunk).execute(pg)?;
        }
        return Ok(());
    }
    for row in rows {
        diesel::insert_into(mail_outbox::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// The selection of due rows a claim takes, in claim order, as the SQL text both backends run
/// (`$1`: now, `$2`: the batch size; SQLite reads `$1` and `$2` as named parameters 1 and 2).
/// PostgreSQL appends `FOR UPDATE OF o SKIP LOCKED` inside the claim's one statement
/// ([`claim_statement_sql`]).
///
/// Its plan stays cheap however large the backlog, and the same whether PostgreSQL plans it
/// for the bound values or as a generic plan (which it may switch to after five executions of
/// a prepared statement, planning without knowing `$1` or `$2`):
/// - the status is a literal, not a bound parameter, so the partial indexes on pending rows
///   (`mail_outbox_pending_due`, `mail_outbox_pending_recipient_lane`) match in every plan: with a
///   bound status a generic plan cannot prove `status = 'pending'` and falls back to scanning
///   and sorting the whole outbox, sent rows included (the 0.5–15 s claims seen under load);
/// - the order `(lane, next_attempt_at, id)` is exactly `mail_outbox_pending_due`, so the plan
///   reads that index in order and stops at the batch size, whatever `$1` turns out to be; no
///   plan needs a sort of every pending row;
/// - whether an earlier mail of the same recipient waits is one probe of
///   `mail_outbox_pending_recipient_lane` (recipient, lane, then ids below this one): the
///   planner's estimate of distinct recipients is fixed (migration
///   `2026-11-28-000100_queue_tables`), and the inner due time is written
///   `COALESCE(x, x)`, which no index matches, so `mail_outbox_pending_due` (lane, due time,
///   id) never looks like a cheaper way to answer it (a generic plan chose it even with the
///   estimate fixed, 0.3 ms a probe under a backlog). Statistics taken while the outbox held
///   mail for one recipient (a quiet hour, a fresh install) made the recipient look
///   unselective, and the probe then walked every due row of the lane for each candidate: the
///   claim took 10 ms instead of 0.3 ms under a backlog of 12 000 cards, and the mail side
///   fell to 300 cards a second (seen in the load benchmark, depending on when ANALYZE ran).
///
/// `tests/mail_backlog.rs` holds this to all three: the plan of this exact text (custom, after
/// six runs, and forced generic) reads the index, never scans the outbox sequentially, and
/// probes each recipient by the recipient index even with statistics of a one-recipient
/// outbox.
///
/// The lane comes first, so account mail (lane 0, [`MailLane::Account`]) is claimed before any
/// game mail; within a lane, one due mail per recipient at a time ([`claim_due`]).
pub const DUE_IDS_SQL: &str = "SELECT o.id FROM mail_outbox o \
     WHERE o.status = 'pending' AND o.next_attempt_at <= $1 \
     AND (o.lease_until IS NULL OR o.lease_until < $1) \
     AND NOT EXISTS (SELECT 1 FROM mail_outbox e \
     WHERE e.status = 'pending' AND e.recipient = o.recipient AND e.lane = o.lane \
     AND COALESCE(e.next_attempt_at, e.next_attempt_at) <= $1 AND e.id < o.id) \
     ORDER BY o.lane, o.next_attempt_at, o.id \
     LIMIT $2";

#[derive(QueryableByName)]
struct DueId {
    #[diesel(sql_type = BigInt)]
    id: i64,
}

/// Claims up to `limit` due rows for `claimant` until `until`: pending, due by `now`, not
/// under anybody's unexpired lease, and the oldest due mail of their recipient in their lane;
/// account mail first, then the oldest due first ([`DUE_IDS_SQL`]). Returns the claimed rows
/// in that order. The claim is one statement on PostgreSQL (kept prepared) and one short
/// write-locked transaction on SQLite; nothing stays locked after it returns.
///
/// One due mail per recipient and lane at a time keeps each recipient's mail of one kind in
/// queue order although several sessions send at once (a newer sign-in code never arrives
/// before the one it replaces); a mail waiting out a retry delay does not hold back later
/// ones, and a recipient's queued turn cards do not hold back their sign-in code.
///
/// # Errors
/// [`DbError::Query`].
pub fn claim_due(
    conn: &mut DbConnection,
    claimant: &str,
    now: NaiveDateTime,
    until: NaiveDateTime,
    limit: i64,
) -> Result<Vec<OutboxMail>, DbError> {
    let mut rows = match conn {
        DbConnection::Pg(pg) => {
            pg_prepared::ClaimDue::new(now, limit, claimant, until).load::<OutboxMail>(pg)?
        }
        DbConnection::Sqlite(sqlite) => sqlite.immediate_transaction(|sqlite| {
            let ids: Vec<i64> = diesel::sql_query(DUE_IDS_SQL)
                .bind::<Timestamp, _>(now)
                .bind::<BigInt, _>(limit)
                .load::<DueId>(sqlite)?
                .into_iter()
                .map(|due| due.id)
                .collect();
            if ids.is_empty() {
                return Ok(Vec::new());
            }
            diesel::update(mail_outbox::table.filter(mail_outbox::id.eq_any(&ids)))
                .set((
                    mail_outbox::claimed_by.eq(Some(claimant)),
                    mail_outbox::lease_until.eq(Some(until)),
                ))
                .execute(sqlite)?;
            mail_outbox::table
                .filter(mail_outbox::id.eq_any(&ids))
                .select(OutboxMail::as_select())
                .load(sqlite)
        })?,
    };
    // The update answers in no particular order; hand the rows out in claim order.
    rows.sort_by_key(|row| (row.lane, row.next_attempt_at, row.id));
    Ok(rows)
}

/// Since when the longest-waiting mail a claim could take now has been due (`None`: none is):
/// pending, due by `now`, under nobody's unexpired lease. The catch-up session
/// (`crate::worker_threads::overdue_catch_up`) reads it to know whether delivery is overdue. One
/// short read of the pending index per lane.
///
/// # Errors
/// [`DbError::Query`].
pub fn oldest_due_at(
    conn: &mut DbConnection,
    now: NaiveDateTime,
) -> Result<Option<NaiveDateTime>, DbError> {
    let mut oldest: Option<NaiveDateTime> = None;
    for lane in [MailLane::Account, MailLane::Game] {
        let due: Option<NaiveDateTime> = mail_outbox::table
            .filter(mail_outbox::status.eq(OutboxStatus::Pending.as_str()))
            .filter(mail_outbox::lane.eq(lane.stored()))
            .filter(mail_outbox::next_attempt_at.le(now))
            .filter(
                mail_outbox::lease_until
                    .is_null()
                    .or(mail_outbox::lease_until.lt(now)),
            )
            .order(mail_outbox::next_attempt_at.asc())
            .select(mail_outbox::next_attempt_at)
            .first(conn)
            .optional()?;
        oldest = match (oldest, due) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
    Ok(oldest)
}

/// Ends every lease on pending rows, making them due at once (SQLite at start-up: one process
/// per database file, so any lease found then was left by a process that is gone). Returns
/// how many rows were released.
///
/// # Errors
/// [`DbError::Query`].
pub fn release_all_claims(conn: &mut DbConnection) -> Result<usize, DbError> {
    Ok(diesel::update(
        mail_outbox::table
            .filter(mail_outbox::status.eq(OutboxStatus::Pending))
            .filter(mail_outbox::lease_until.is_not_null()),
    )
    .set((
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::lease_until.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)?)
}

/// Extends the lease of every pending row claimed by one of `worker`'s sessions (claimants
/// named `worker/…`, see `crate::mail::worker`) to `until`: called while they send, so a slow
/// relay does not let another worker take a row in flight. Returns how many.
///
/// # Errors
/// [`DbError::Query`].
pub fn renew_worker_claims(
    conn: &mut DbConnection,
    worker: &str,
    until: NaiveDateTime,
) -> Result<usize, DbError> {
    Ok(diesel::update(
        mail_outbox::table
            .filter(mail_outbox::claimed_by.like(format!("{worker}/%")))
            .filter(mail_outbox::status.eq(OutboxStatus::Pending)),
    )
    .set(mail_outbox::lease_until.eq(Some(until)))
    .execute(conn)?)
}

/// Releases every pending row claimed by one of `worker`'s sessions (at shutdown).
///
/// # Errors
/// [`DbError::Query`].
pub fn release_worker_claims(conn: &mut DbConnection, worker: &str) -> Result<usize, DbError> {
    Ok(diesel::update(
        mail_outbox::table
            .filter(mail_outbox::claimed_by.like(format!("{worker}/%")))
            .filter(mail_outbox::status.eq(OutboxStatus::Pending)),
    )
    .set((
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::lease_until.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)?)
}

/// Ends the leases `claimant` holds on pending rows (a worker stopping with rows it claimed
/// but did not send); returns how many.
///
/// # Errors
/// [`DbError::Query`].
pub fn release_claims(conn: &mut DbConnection, claimant: &str) -> Result<usize, DbError> {
    Ok(diesel::update(
        mail_outbox::table
            .filter(mail_outbox::claimed_by.eq(claimant))
            .filter(mail_outbox::status.eq(OutboxStatus::Pending)),
    )
    .set((
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::lease_until.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)?)
}

/// The columns of a row delivered at `$at` after `$attempts` attempts (a value or an
/// expression on the column), lease and last error cleared.
macro_rules! delivered {
    ($attempts:expr, $at:expr) => {
        (
            mail_outbox::status.eq(OutboxStatus::Sent),
            mail_outbox::attempts.eq($attempts),
            mail_outbox::sent_at.eq(Some($at)),
            mail_outbox::lease_until.eq(None::<NaiveDateTime>),
            mail_outbox::claimed_by.eq(None::<String>),
            mail_outbox::last_error.eq(None::<String>),
        )
    };
}

/// Marks a row delivered. The picture drawn for it is not stored: a delivered row is never
/// sent again, and writing a PNG into every sent row was most of the outbox's write volume.
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
        .set(delivered!(attempts, at))
        .execute(conn)?;
    Ok(())
}

/// Marks the rows `ids` delivered at `at`, each with one more attempt, in one statement (a
/// session marks what one claim delivered together), as [`mark_sent`] marks one.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_all_sent(
    conn: &mut DbConnection,
    ids: &[i64],
    at: NaiveDateTime,
) -> Result<(), DbError> {
    if ids.is_empty() {
        return Ok(());
    }
    if let DbConnection::Pg(pg) = conn {
        pg_prepared::MarkAllSent { at, ids }.execute(pg)?;
        return Ok(());
    }
    diesel::update(mail_outbox::table.filter(mail_outbox::id.eq_any(ids)))
        .set(delivered!(mail_outbox::attempts + 1, at))
        .execute(conn)?;
    Ok(())
}

/// Records a failed attempt: retry at `next` (pending) or give up (dead), storing `parts`
/// when the worker completed them (the drawn picture), so a retry sends the same bytes.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_failed(
    conn: &mut DbConnection,
    id: i64,
    attempts: i32,
    error: &str,
    next: Option<NaiveDateTime>,
    parts: Option<&str>,
) -> Result<(), DbError> {
    let status = if next.is_some() {
        OutboxStatus::Pending
    } else {
        OutboxStatus::Dead
    };
    let next_attempt = next.unwrap_or_else(super::now);
    let target = mail_outbox::table.find(id);
    let outcome = (
        mail_outbox::status.eq(status),
        mail_outbox::attempts.eq(attempts),
        mail_outbox::next_attempt_at.eq(next_attempt),
        mail_outbox::lease_until.eq(None::<NaiveDateTime>),
        mail_outbox::claimed_by.eq(None::<String>),
        mail_outbox::last_error.eq(Some(error)),
    );
    match parts {
        Some(parts) => diesel::update(target)
            .set((outcome, mail_outbox::parts.eq(Some(parts))))
            .execute(conn)?,
        None => diesel::update(target).set(outcome).execute(conn)?,
    };
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

/// The rows with `status` (every row when None), oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn with_status(
    conn: &mut DbConnection,
    status: Option<OutboxStatus>,
) -> Result<Vec<OutboxMail>, DbError> {
    let mut query = mail_outbox::table
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .into_boxed();
    if let Some(status) = status {
        query = query.filter(mail_outbox::status.eq(status));
    }
    Ok(query.load(conn)?)
}

/// What [`retry`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retry {
    /// The row is pending again, due now, with a fresh attempt count.
    Queued,
    /// No row has this id.
    NotFound,
    /// The row was delivered already; it is not sent again.
    AlreadySent,
}

/// Queues a dead (or pending) row again: due now, attempts counted from zero, the last error
/// kept for reference. A delivered row is left alone.
///
/// # Errors
/// [`DbError::Query`].
pub fn retry(conn: &mut DbConnection, id: i64, now: NaiveDateTime) -> Result<Retry, DbError> {
    let updated = diesel::update(
        mail_outbox::table
            .find(id)
            .filter(mail_outbox::status.ne(OutboxStatus::Sent)),
    )
    .set(requeue(now))
    .execute(conn)?;
    if updated == 1 {
        return Ok(Retry::Queued);
    }
    let exists: Option<i64> = mail_outbox::table
        .find(id)
        .select(mail_outbox::id)
        .first(conn)
        .optional()?;
    Ok(if exists.is_some() {
        Retry::AlreadySent
    } else {
        Retry::NotFound
    })
}

/// Queues every dead row again (as [`retry`]); returns how many.
///
/// # Errors
/// [`DbError::Query`].
pub fn retry_all_dead(conn: &mut DbConnection, now: NaiveDateTime) -> Result<usize, DbError> {
    Ok(
        diesel::update(mail_outbox::table.filter(mail_outbox::status.eq(OutboxStatus::Dead)))
            .set(requeue(now))
            .execute(conn)?,
    )
}

#[expect(
    clippy::type_complexity,
    reason = "the changeset's type is diesel's tuple of assignments"
)]
fn requeue(
    now: NaiveDateTime,
) -> (
    diesel::dsl::Eq<mail_outbox::status, OutboxStatus>,
    diesel::dsl::Eq<mail_outbox::attempts, i32>,
    diesel::dsl::Eq<mail_outbox::next_attempt_at, NaiveDateTime>,
    diesel::dsl::Eq<mail_outbox::lease_until, Option<NaiveDateTime>>,
    diesel::dsl::Eq<mail_outbox::claimed_by, Option<String>>,
) {
    (
        mail_outbox::status.eq(OutboxStatus::Pending),
        mail_outbox::attempts.eq(0),
        mail_outbox::next_attempt_at.eq(now),
        mail_outbox::lease_until.eq(None),
        mail_outbox::claimed_by.eq(None),
    )
}

/// The mail still to be delivered: how many rows are pending, and when the oldest of them was
/// queued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog {
    /// Pending rows (due now or waiting for a retry).
    pub pending: i64,
    /// Queue time of the oldest pending row.
    pub oldest: Option<NaiveDateTime>,
}

/// The current [`Backlog`].
///
/// # Errors
/// [`DbError::Query`].
pub fn backlog(conn: &mut DbConnection) -> Result<Backlog, DbError> {
    let (pending, oldest) = mail_outbox::table
        .filter(mail_outbox::status.eq(OutboxStatus::Pending))
        .select((
            diesel::dsl::count_star(),
            diesel::dsl::min(mail_outbox::created_at),
        ))
        .first::<(i64, Option<NaiveDateTime>)>(conn)?;
    Ok(Backlog { pending, oldest })
}
