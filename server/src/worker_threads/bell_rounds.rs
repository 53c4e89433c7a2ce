//! The loop of a worker fed by the event log (webhooks, web push): a round as soon as the
//! commit bell rings (a commit of this process, or of another through `commit_listener`), at
//! least every `poll`, and at once again while a round says more may be due; until shutdown.

use std::future::Future;
use std::time::Duration;

use tokio::sync::watch;

use crate::db::{commit_bell, DbError};

/// Runs `round` until `shutdown` turns true; `what` names the worker in the log when a round
/// fails (the next round tries again).
pub async fn run_rounds<F, R>(
    what: &str,
    poll: Duration,
    mut shutdown: watch::Receiver<bool>,
    mut round: F,
) where
    F: FnMut() -> R,
    R: Future<Output = Result<bool, DbError>>,
{
    let mut bell = commit_bell::subscribe();
    loop {
        if *shutdown.borrow() {
            break;
        }
        let busy = match round().await {
            Ok(busy) => busy,
            Err(error) => {
                tracing::warn!(%error, worker = what, "a round failed");
                false
            }
        };
        if busy {
            continue;
        }
        tokio::select! {
            _ = bell.changed() => {}
            () = tokio::time::sleep(poll) => {}
            _ = shutdown.changed() => {}
        }
    }
}

/// Runs storage work of worker `what` on the blocking pool.
///
/// # Errors
/// The work's; [`DbError::Corrupt`] when its task failed (panicked or was cancelled).
pub async fn blocking<T: Send + 'static>(
    what: &'static str,
    work: impl FnOnce() -> Result<T, DbError> + Send + 'static,
) -> Result<T, DbError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| DbError::Corrupt(format!("{what} storage task failed: {error}")))?
}
