//! One stream's events: where it starts (now, or after the event a client last saw), its own
//! read of the log from there (the catch-up), then the events the hub hands it, each once and
//! in log order.
//!
//! Why nothing is lost between the two: the stream joins the hub before it reads the log, and
//! the tail hands the hub only events that are settled (`crate::db::events::read_after`), which
//! the catch-up, reading later, sees too. An event handed over before the stream joined is in
//! its catch-up; one handed over after is in its queue; one in both is sent once (by position).

use std::sync::Arc;

use turnpost_shared::api::StreamEvent;

use super::{live_events, Hub, StreamOwner, StreamRefused, StreamScope, Subscription};
use crate::db::events::{self, LogFilter, LogPosition, LogStart};
use crate::db::{DbConnection, DbError, Pool};

/// Events of the catch-up read at a time.
const CATCH_UP_BATCH: i64 = 256;

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
    /// The next events to send, in log order; `None` when the stream ends (cut off as too
    /// slow, or the log could not be read: the client resumes from its last id).
    pub async fn next(&mut self) -> Option<Vec<StreamEvent>> {
        loop {
            if self.catching_up {
                let pool = self.pool.clone();
                let (last, filter) = (self.last, self.filter());
                let read = tokio::task::spawn_blocking(move || catch_up(&pool, last, filter)).await;
                match read {
                    Ok(Ok((events, reached))) if !events.is_empty() || reached > last => {
                        self.last = reached;
                        let shown = self.shown(events.iter());
                        if !shown.is_empty() {
                            return Some(shown);
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
                let shown = self.shown(fresh.iter().map(|event| &**event));
                if !shown.is_empty() {
                    return Some(shown);
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

    /// The events as this reader sees them, leaving out those that happened before it started.
    fn shown<'a>(&self, events: impl Iterator<Item = &'a super::LiveEvent>) -> Vec<StreamEvent> {
        events
            .filter(|event| !self.start.is_past(event.position.tx))
            .map(|event| event.for_reader(self.reader))
            .collect()
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
