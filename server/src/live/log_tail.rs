//! The log's one reader for every stream of this process: after each commit bell (and once a
//! second, for events whose transaction was not yet settled when the bell rang) it reads the
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

/// Reads the log for the streams of `hub` until `shutdown` turns true.
pub async fn run_log_tail(hub: Arc<Hub>, pool: Pool, mut shutdown: watch::Receiver<bool>) {
    let mut bell = commit_bell::subscribe();
    let mut at: Option<LogPosition> = None;
    loop {
        if *shutdown.borrow() {
            break;
        }
        if hub.open_streams() == 0 {
            // Nobody listens: the next stream's own read covers what passes meanwhile.
            at = None;
        } else {
            let from = at.or_else(|| hub.earliest_start());
            if let Some(from) = from {
                let pool = pool.clone();
                let hub = hub.clone();
                let read = tokio::task::spawn_blocking(move || tail_once(&pool, &hub, from)).await;
                match read {
                    Ok(Ok(reached)) => at = Some(reached),
                    Ok(Err(error)) => tracing::warn!(%error, "streams: reading the event log"),
                    Err(error) => tracing::error!(%error, "streams: the log reader failed"),
                }
            }
        }
        tokio::select! {
            _ = bell.changed() => {}
            () = tokio::time::sleep(TAIL_POLL) => {}
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
