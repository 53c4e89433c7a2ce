//! The pause between two rounds of a worker's loop, cut short by shutdown.

use std::time::Duration;

use tokio::sync::watch;

/// Sleeps `every`, or less when `shutdown` changes; true once shutdown is signalled, so a loop
/// reads `while !pause(every, &mut shutdown).await { … }`.
pub async fn pause(every: Duration, shutdown: &mut watch::Receiver<bool>) -> bool {
    tokio::select! {
        () = tokio::time::sleep(every) => {}
        _ = shutdown.changed() => {}
    }
    *shutdown.borrow()
}
