//! Reading the event log in order, from a position ([`super::LogPosition`]): the streams, the
//! tournaments' consumer and every later channel read it so; the durable ones keep their
//! position in `event_cursors`. And pruning what every consumer has passed.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::sql_types::BigInt;

use super::{GameEventRow, LogPosition};
use crate::db::schema::{event_cursors, game_events, game_seats};
use crate::db::{DbConnection, DbError};

/// The oldest transaction still running (PostgreSQL): events of older transactions are final.
fn settled_below() -> diesel::expression::SqlLiteral<BigInt> {
    diesel::dsl::sql::<BigInt>("pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
}

/// What a reader of the log asks for beyond the position.
#[derive(Debug, Clone, Copy)]
pub enum LogFilter {
    /// Every event.
    All,
    /// The events of one game.
    Game(i64),
    /// The events of the games in which an account holds a seat.
    SeatedAccount(i64),
}

/// Up to `limit` events after `after` that no running transaction can still add to, in log
/// order, of the games `filter` names.
///
/// # Errors
/// [`DbError::Query`].
pub fn read_after(
    conn: &mut DbConnection,
    after: LogPosition,
    filter: LogFilter,
    limit: i64,
) -> Result<Vec<GameEventRow>, DbError> {
    macro_rules! filtered {
        ($query:expr) => {{
            let query = $query;
            match filter {
                LogFilter::All => query.into_boxed(),
                LogFilter::Game(game_id) => {
                    query.filter(game_events::game_id.eq(game_id)).into_boxed()
                }
                LogFilter::SeatedAccount(account_id) => query
                    .filter(
                        game_events::game_id.eq_any(
                            game_seats::table
                                .filter(game_seats::account_id.eq(account_id))
                                .select(game_seats::game_id),
                        ),
                    )
                    .into_boxed(),
            }
        }};
    }
    Ok(match conn {
        DbConnection::Pg(pg) => filtered!(game_events::table
            .filter(
                game_events::tx.gt(after.tx).or(game_events::tx
                    .eq(after.tx)
                    .and(game_events::id.gt(after.id))),
            )
            .filter(game_events::tx.lt(settled_below())))
        .order((game_events::tx.asc(), game_events::id.asc()))
        .limit(limit)
        .select(GameEventRow::as_select())
        .load(pg)?,
        DbConnection::Sqlite(sqlite) => {
            filtered!(game_events::table.filter(game_events::id.gt(after.id)))
                .order(game_events::id.asc())
                .limit(limit)
                .select(GameEventRow::as_select())
                .load(sqlite)?
        }
    })
}

/// The event `id`, if the log still holds it.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_id(conn: &mut DbConnection, id: i64) -> Result<Option<GameEventRow>, DbError> {
    Ok(game_events::table
        .find(id)
        .select(GameEventRow::as_select())
        .first(conn)
        .optional()?)
}

/// Where a reader that wants only what happens from now on starts: a position, and (on
/// PostgreSQL) the transactions whose events it already counts as past.
///
/// Why more than a position: events are read in transaction order once settled, but a
/// transaction newer than one still running may have committed already; its events are past
/// for a reader starting now, yet lie after any position that is before the running one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogStart {
    /// Read after this.
    pub after: LogPosition,
    /// Transactions that had committed when the reader started, among those after `after`.
    past: Option<CommittedBefore>,
}

/// The transactions a PostgreSQL snapshot saw committed: below `xmax`, not `running`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct CommittedBefore {
    xmax: i64,
    running: Vec<i64>,
}

impl LogStart {
    /// Starts after `after`, counting nothing beyond it as past.
    #[must_use]
    pub fn after(after: LogPosition) -> Self {
        Self { after, past: None }
    }

    /// Whether an event of transaction `tx` after the start happened before it.
    #[must_use]
    pub fn is_past(&self, tx: i64) -> bool {
        self.past
            .as_ref()
            .is_some_and(|past| tx < past.xmax && !past.running.contains(&tx))
    }
}

#[derive(diesel::QueryableByName)]
struct Snapshot {
    #[diesel(sql_type = diesel::sql_types::Text)]
    snapshot: String,
}

/// Where a reader that wants only what happens from now on starts.
///
/// # Errors
/// [`DbError::Query`]; [`DbError::Corrupt`] for a snapshot PostgreSQL wrote in a form this
/// code does not read.
pub fn start_now(conn: &mut DbConnection) -> Result<LogStart, DbError> {
    match conn {
        DbConnection::Pg(pg) => {
            let taken: Snapshot =
                diesel::sql_query("SELECT pg_current_snapshot()::text AS snapshot")
                    .get_result(pg)?;
            // `xmin:xmax:running,running,…`
            let mut parts = taken.snapshot.split(':');
            let number = |text: Option<&str>| -> Result<i64, DbError> {
                text.and_then(|text| text.parse().ok()).ok_or_else(|| {
                    DbError::Corrupt(format!("unreadable snapshot {:?}", taken.snapshot))
                })
            };
            let xmin = number(parts.next())?;
            let xmax = number(parts.next())?;
            let running = parts
                .next()
                .unwrap_or("")
                .split(',')
                .filter(|text| !text.is_empty())
                .map(|text| number(Some(text)))
                .collect::<Result<Vec<i64>, DbError>>()?;
            Ok(LogStart {
                after: LogPosition {
                    tx: xmin - 1,
                    id: i64::MAX,
                },
                past: Some(CommittedBefore { xmax, running }),
            })
        }
        DbConnection::Sqlite(sqlite) => {
            let newest = game_events::table
                .select(diesel::dsl::max(game_events::id))
                .first::<Option<i64>>(sqlite)?
                .unwrap_or(0);
            Ok(LogStart::after(LogPosition { tx: 0, id: newest }))
        }
    }
}

/// The largest event id ever written that the log still holds (0 when it is empty): an id
/// above it is one no event has had yet.
///
/// # Errors
/// [`DbError::Query`].
pub fn newest_id(conn: &mut DbConnection) -> Result<i64, DbError> {
    Ok(game_events::table
        .select(diesel::dsl::max(game_events::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0))
}

/// The stored position of `consumer`, if it has one.
///
/// # Errors
/// [`DbError::Query`].
pub fn cursor(conn: &mut DbConnection, consumer: &str) -> Result<Option<LogPosition>, DbError> {
    Ok(event_cursors::table
        .find(consumer)
        .select((event_cursors::tx, event_cursors::event_id))
        .first::<(i64, i64)>(conn)
        .optional()?
        .map(|(tx, id)| LogPosition { tx, id }))
}

/// Stores `at` as `consumer`'s position (in the caller's transaction, with what it did).
///
/// # Errors
/// [`DbError::Query`].
pub fn advance_cursor(
    conn: &mut DbConnection,
    consumer: &str,
    at: LogPosition,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    store_cursor(conn, consumer, at, now, true)
}

/// Inserts `consumer`'s position, or on a position stored already moves it (`moving`) or
/// leaves it (a consumer's first place: two processes starting together, the first wins, and a
/// position moved since is never put back).
///
/// # Errors
/// [`DbError::Query`].
pub(super) fn store_cursor(
    conn: &mut DbConnection,
    consumer: &str,
    at: LogPosition,
    now: NaiveDateTime,
    moving: bool,
) -> Result<(), DbError> {
    let row = (
        event_cursors::consumer.eq(consumer),
        event_cursors::tx.eq(at.tx),
        event_cursors::event_id.eq(at.id),
        event_cursors::updated_at.eq(now),
    );
    let changes = (
        event_cursors::tx.eq(at.tx),
        event_cursors::event_id.eq(at.id),
        event_cursors::updated_at.eq(now),
    );
    let insert = diesel::insert_into(event_cursors::table).values(row);
    // The upsert is typed per backend: the same statement on each.
    if moving {
        crate::db::on_own_connection!(conn, own => insert
            .on_conflict(event_cursors::consumer)
            .do_update()
            .set(changes)
            .execute(own))?;
    } else {
        crate::db::on_own_connection!(conn, own => insert.on_conflict_do_nothing().execute(own))?;
    }
    Ok(())
}

/// Deletes up to `limit` events whose mail is composed, that happened before `before`, and that
/// every durable consumer has passed; returns how many.
///
/// # Errors
/// [`DbError::Query`].
pub fn prune(conn: &mut DbConnection, before: NaiveDateTime, limit: i64) -> Result<usize, DbError> {
    let slowest: Option<(i64, i64)> = event_cursors::table
        .order((event_cursors::tx.asc(), event_cursors::event_id.asc()))
        .select((event_cursors::tx, event_cursors::event_id))
        .first(conn)
        .optional()?;
    let mut doomed = game_events::table
        .filter(game_events::mail_composed.eq(true))
        .filter(game_events::created_at.lt(before))
        .select(game_events::id)
        .order(game_events::id.asc())
        .limit(limit)
        .into_boxed();
    if let Some((tx, id)) = slowest {
        doomed = match conn {
            DbConnection::Pg(_) => doomed.filter(
                game_events::tx
                    .lt(tx)
                    .or(game_events::tx.eq(tx).and(game_events::id.le(id))),
            ),
            DbConnection::Sqlite(_) => doomed.filter(game_events::id.le(id)),
        };
    }
    let ids: Vec<i64> = doomed.load(conn)?;
    if ids.is_empty() {
        return Ok(0);
    }
    Ok(diesel::delete(game_events::table.filter(game_events::id.eq_any(&ids))).execute(conn)?)
}
