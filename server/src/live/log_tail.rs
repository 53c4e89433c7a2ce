//! The log's one reader for every stream of this process: after each commit bell (at most once
//! in 10 ms, looking again every 25 ms for a moment when the bell's events were not yet
//! settled, and once a second in any case) it reads the
//! new events once, makes them [`LiveEvent`]s once, and hands each to the streams it concerns
//! ([`Hub::dispatch`]). With no stream open it reads nothing.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use super::{live_events, Hub};
use crate::db::events::{self, LogFilter, LogPosition};
use crate::db::{commit_bell, DbError, Pool};

/// Events read per round.
const TAIL_BATCH: i64 = 256;

/// How often the tail looks without a bell: events of a transaction that was still running
/// when the bell rang become readable only once it ends, and a bell from another process can
/// be lost with its connection.
const TAIL_POLL: Duration = Duration::from_secs(1);

/// After a bell that brought nothing readable (the event's transaction is above the snapshot
/// horizon: an older transaction anywhere in the cluster is still open), how often and how
/// long the tail looks again before falling back to [`TAIL_POLL`].
const CHASE_EVERY: Duration = Duration::from_millis(25);
const CHASE_FOR: Duration = Duration::from_millis(750);

/// The least time between two reads: under a steady stream of commits each read then takes
/// the events of several (one round of statements for them all) instead of one read a
/// commit; a bell after a quiet spell is read at once.
const GATHER: Duration = Duration::from_millis(10);

/// Reads the log for the streams of `hub` until `shutdown` turns true.
pub async fn run_log_tail(hub: Arc<Hub>, pool: Pool, mut shutdown: watch::Receiver<bool>) {
    let mut bell = commit_bell::subscribe();
    let mut at: Option<LogPosition> = None;
    // Until when an unanswered bell is chased (see `CHASE_EVERY`).
    let mut chase_until: Option<tokio::time::Instant> = None;
    let mut last_read: Option<tokio::time::Instant> = None;
    loop {
        if *shutdown.borrow() {
            break;
        }
        if let Some(last) = last_read {
            tokio::time::sleep_until(last + GATHER).await;
        }
        if hub.open_streams() == 0 {
            // Nobody listens: the next stream's own read covers what passes meanwhile.
            at = None;
        } else {
            let from = at.or_else(|| hub.earliest_start());
            if let Some(from) = from {
                last_read = Some(tokio::time::Instant::now());
                let pool = pool.clone();
                let hub = hub.clone();
                let read = tokio::task::spawn_blocking(move || tail_once(&pool, &hub, from)).await;
                match read {
                    Ok(Ok(reached)) => {
                        if Some(reached) != at && at.is_some() {
                            // The bell's events were read: nothing left to chase.
                            chase_until = None;
                        }
                        at = Some(reached);
                    }
                    Ok(Err(error)) => tracing::warn!(%error, "streams: reading the event log"),
                    Err(error) => tracing::error!(%error, "streams: the log reader failed"),
                }
            }
        }
        let now = tokio::time::Instant::now();
        let wait = match chase_until {
            Some(until) if until > now => CHASE_EVERY,
            _ => TAIL_POLL,
        };
        tokio::select! {
            _ = bell.changed() => chase_until = Some(tokio::time::Instant::now() + CHASE_FOR),
            () = tokio::time::sleep(wait) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// Hands every readable event after `from` to the hub; answers the position reached.
fn tail_once(pool: &Pool, hub: &Hub, from: LogPosition) -> Result<LogPosition, DbError> {
    let mut conn = pool.get()?;
    let mut at = from;
    loop {
        let rows = events::read_after(&mut conn, at, LogFilter::All, TAIL_BATCH)?;
        let Some(last) = rows.last() else {
            return Ok(at);
        };
        let reached = last.position();
        for event in live_events(&mut conn, &rows, &|game, seated| hub.concerns(game, seated))? {
            hub.dispatch(&Arc::new(event));
        }
        at = reached;
        if rows.len() < usize::try_from(TAIL_BATCH).unwrap_or(usize::MAX) {
            return Ok(at);
        }
    }
}
