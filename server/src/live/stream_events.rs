//! One stream's events: where it starts (now, or after the event a client last saw), its own
//! read of the log from there (the catch-up), then the events the hub hands it, each once and
//! in log order.
//!
//! Why nothing is lost between the two: the stream joins the hub before it reads the log, and
//! the tail hands the hub only events that are settled (`crate::db::events::read_after`), which
//! the catch-up, reading later, sees too. An event handed over before the stream joined is in
//! its catch-up; one handed over after is in its queue; one in both is sent once (by position).

use std::sync::Arc;

use bytes::Bytes;

use super::{live_events, Hub, StreamOwner, StreamRefused, StreamScope, Subscription, WireFormat};
use crate::db::events::{self, LogFilter, LogPosition, LogStart};
use crate::db::{DbConnection, DbError, Pool};

/// Events of the catch-up read at a time.
const CATCH_UP_BATCH: i64 = 256;

/// The least time between two writes of events the hub handed a stream: an event after a
/// quiet spell is written at once, but a stream that hears many a second (a busy account's)
/// writes what came meanwhile together, one write instead of one each — on the server and in
/// every reader.
const BUSY_STREAM_WRITES: std::time::Duration = std::time::Duration::from_millis(100);

/// Where a stream starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamStart {
    /// With the next event.
    Now,
    /// After event `id` (`Last-Event-ID`), which the client saw last.
    After(i64),
}

/// Why a stream cannot start.
#[derive(Debug)]
pub enum StartRefused {
    /// No such game.
    UnknownGame(i64),
    /// The event id is newer than any event.
    FromTheFuture(i64),
    /// The log no longer holds the event (older than the retention).
    Pruned(i64),
    /// The event is not one of this stream's (another game, or a game of another account).
    NotOfThisStream(i64),
    /// A cap of open streams.
    Refused(StreamRefused),
    /// The database failed.
    Storage(DbError),
}

impl From<DbError> for StartRefused {
    fn from(error: DbError) -> Self {
        Self::Storage(error)
    }
}

/// A stream that has joined the hub.
pub struct OpenStream {
    pool: Pool,
    scope: StreamScope,
    /// The signed-in reader (`for_you` is theirs), if any.
    reader: Option<i64>,
    /// The last event sent (or the start).
    last: LogPosition,
    /// Where it started: events it counts as past are not sent.
    start: LogStart,
    /// Whether its own read of the log is still behind.
    catching_up: bool,
    subscription: Subscription,
    /// When the stream last wrote what the hub handed it (see [`BUSY_STREAM_WRITES`]).
    last_written: Option<tokio::time::Instant>,
}

/// Opens a stream of `scope` for `owner` (`reader` when signed in), starting at `start`.
/// Runs queries: call on a blocking thread.
///
/// # Errors
/// [`StartRefused`].
pub fn open_stream(
    conn: &mut DbConnection,
    pool: Pool,
    hub: &Arc<Hub>,
    scope: StreamScope,
    owner: StreamOwner,
    reader: Option<i64>,
    start: StreamStart,
) -> Result<OpenStream, StartRefused> {
    if let StreamScope::Game(game_id) = scope {
        if crate::db::games::find(conn, game_id)?.is_none() {
            return Err(StartRefused::UnknownGame(game_id));
        }
    }
    let from = match start {
        StreamStart::Now => events::start_now(conn)?,
        StreamStart::After(id) => LogStart::after(resumed_at(conn, scope, id)?),
    };
    let subscription = hub
        .subscribe(scope, owner, from.after)
        .map_err(StartRefused::Refused)?;
    Ok(OpenStream {
        pool,
        scope,
        reader,
        last: from.after,
        start: from,
        catching_up: true,
        subscription,
        last_written: None,
    })
}

/// The position of event `id`, checked to be one of `scope`'s.
fn resumed_at(
    conn: &mut DbConnection,
    scope: StreamScope,
    id: i64,
) -> Result<LogPosition, StartRefused> {
    let Some(row) = events::by_id(conn, id)? else {
        return Err(if id > events::newest_id(conn)? {
            StartRefused::FromTheFuture(id)
        } else {
            StartRefused::Pruned(id)
        });
    };
    let ours = match scope {
        StreamScope::Game(game_id) => row.game_id == game_id,
        StreamScope::Account(account_id) => crate::db::games::seats(conn, row.game_id)?
            .iter()
            .any(|(seat, _)| seat.account_id == account_id),
    };
    if ours {
        Ok(row.position())
    } else {
        Err(StartRefused::NotOfThisStream(id))
    }
}

impl OpenStream {
    /// The next events to send, in log order, as `format` writes them; `None` when the stream
    /// ends (cut off as too slow, or the log could not be read: the client resumes from its
    /// last id).
    pub async fn next(&mut self, format: WireFormat) -> Option<Bytes> {
        loop {
            if self.catching_up {
                let pool = self.pool.clone();
                let (last, filter) = (self.last, self.filter());
                let read = tokio::task::spawn_blocking(move || catch_up(&pool, last, filter)).await;
                match read {
                    Ok(Ok((events, reached))) if !events.is_empty() || reached > last => {
                        self.last = reached;
                        if let Some(bytes) = self.written(events.iter(), format) {
                            return Some(bytes);
                        }
                    }
                    Ok(Ok(_)) => self.catching_up = false,
                    Ok(Err(error)) => {
                        tracing::warn!(%error, "stream: reading the event log");
                        return None;
                    }
                    Err(error) => {
                        tracing::error!(%error, "stream: the log reader failed");
                        return None;
                    }
                }
                continue;
            }
            if let Some(written) = self.last_written {
                // Waiting here, before taking an event, keeps the wait cancel-safe: the caller
                // may drop this future (a keep-alive, a shutdown) without an event lost.
                tokio::time::sleep_until(written + BUSY_STREAM_WRITES).await;
            }
            let first = self.subscription.events.recv().await?;
            let mut handed = vec![first];
            while let Ok(more) = self.subscription.events.try_recv() {
                handed.push(more);
            }
            let fresh: Vec<Arc<super::LiveEvent>> = handed
                .into_iter()
                .filter(|event| event.position > self.last)
                .collect();
            if let Some(newest) = fresh.last() {
                self.last = newest.position;
                if let Some(bytes) = self.written(fresh.iter().map(|event| &**event), format) {
                    self.last_written = Some(tokio::time::Instant::now());
                    return Some(bytes);
                }
            }
        }
    }

    fn filter(&self) -> LogFilter {
        match self.scope {
            StreamScope::Account(account) => LogFilter::SeatedAccount(account),
            StreamScope::Game(game) => LogFilter::Game(game),
        }
    }

    /// The events as this reader sees them, in `format`, leaving out those that happened before
    /// it started; `None` when none is left.
    fn written<'a>(
        &self,
        events: impl Iterator<Item = &'a super::LiveEvent>,
        format: WireFormat,
    ) -> Option<Bytes> {
        let mut shown = events
            .filter(|event| !self.start.is_past(event.position.tx))
            .map(|event| event.wire(self.reader, format));
        let first = shown.next()?;
        // One event (the usual case) is written as made, shared with the other streams.
        let Some(second) = shown.next() else {
            return Some(first);
        };
        let mut joined = Vec::with_capacity(first.len() + second.len());
        for bytes in [first, second].into_iter().chain(shown) {
            joined.extend_from_slice(&bytes);
        }
        Some(Bytes::from(joined))
    }
}

/// One batch of the catch-up: the events after `last` of `filter`, and the position reached.
fn catch_up(
    pool: &Pool,
    last: LogPosition,
    filter: LogFilter,
) -> Result<(Vec<super::LiveEvent>, LogPosition), DbError> {
    let mut conn = pool.get()?;
    let rows = events::read_after(&mut conn, last, filter, CATCH_UP_BATCH)?;
    let reached = rows.last().map_or(last, |row| row.position());
    let events = live_events(&mut conn, &rows, &|_, _| true)?;
    Ok((events, reached))
}
