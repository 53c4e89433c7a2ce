//! A consumer of the event log with a position of its own in `event_cursors` (webhooks, web
//! push): each batch of events is acted on in the transaction that moves the position, under
//! the position's row lock, so one process at a time consumes, a crash midway rolls both back,
//! and the log's prune waits for the position.

use diesel::prelude::*;

use super::log_reads::store_cursor;
use super::{advance_cursor, read_after, start_now, GameEventRow, LogFilter, LogPosition};
use crate::db::transaction as tx;
use crate::db::{self, DbConnection, DbError};

/// Events read per transaction.
const BATCH: i64 = 256;

/// One consumer's position, kept in this process too, to skip the write transaction when
/// nothing is new.
#[derive(Debug)]
pub struct LogConsumer {
    name: &'static str,
    seen: Option<LogPosition>,
}

impl LogConsumer {
    /// The consumer called `name` in `event_cursors`.
    #[must_use]
    pub const fn new(name: &'static str) -> Self {
        Self { name, seen: None }
    }

    /// Gives the consumer its position at the log's end now, unless it has one (never moves
    /// one): the server does this before it takes requests, so that an event of its first
    /// moments is not skipped by a first read that would start after it.
    ///
    /// # Errors
    /// Storage failures.
    pub fn take_place(&self, conn: &mut DbConnection) -> Result<(), DbError> {
        tx::write_with(conn, |conn| {
            if lock_cursor(conn, self.name)?.is_none() {
                let start = start_now(conn)?.after;
                store_cursor(conn, self.name, start, db::now(), false)?;
            }
            Ok(())
        })
    }

    /// Runs `act` on the events after the stored position, a batch at a time until none is
    /// left, each in the transaction that moves the position past it; answers the sum of what
    /// `act` answered. On the first start the position is set to the log's end: what happened
    /// before is no concern of a consumer that did not exist.
    ///
    /// # Errors
    /// Storage failures, `act`'s included (the position stays where it was).
    pub fn consume(
        &mut self,
        conn: &mut DbConnection,
        mut act: impl FnMut(&mut DbConnection, &[GameEventRow]) -> Result<usize, DbError>,
    ) -> Result<usize, DbError> {
        let name = self.name;
        let mut total = 0;
        loop {
            if let Some(seen) = self.seen {
                if read_after(conn, seen, LogFilter::All, 1)?.is_empty() {
                    return Ok(total);
                }
            }
            let (reached, done, full) = tx::write_with(conn, |conn| {
                let at = match lock_cursor(conn, name)? {
                    Some(at) => at,
                    None => {
                        let start = start_now(conn)?.after;
                        advance_cursor(conn, name, start, db::now())?;
                        start
                    }
                };
                let rows = read_after(conn, at, LogFilter::All, BATCH)?;
                let Some(last) = rows.last() else {
                    return Ok::<_, DbError>((at, 0, false));
                };
                let reached = last.position();
                let done = act(conn, &rows)?;
                advance_cursor(conn, name, reached, db::now())?;
                let full = rows.len() == usize::try_from(BATCH).unwrap_or(usize::MAX);
                Ok((reached, done, full))
            })?;
            self.seen = Some(reached);
            total += done;
            if !full {
                return Ok(total);
            }
        }
    }
}

/// The position of consumer `name` in the event log, locked until the caller's transaction
/// ends (PostgreSQL; SQLite's write transaction is exclusive), so one process at a time
/// consumes; `None` when it has none yet. Call inside a write transaction.
///
/// # Errors
/// [`DbError::Query`].
fn lock_cursor(conn: &mut DbConnection, name: &str) -> Result<Option<LogPosition>, DbError> {
    use crate::db::schema::event_cursors;
    macro_rules! position {
        () => {
            event_cursors::table
                .find(name)
                .select((event_cursors::tx, event_cursors::event_id))
        };
    }
    let found: Option<(i64, i64)> = match conn {
        DbConnection::Pg(pg) => position!().for_update().first(pg).optional()?,
        DbConnection::Sqlite(sqlite) => position!().first(sqlite).optional()?,
    };
    Ok(found.map(|(tx, id)| LogPosition { tx, id }))
}
