//! The bell rung after every commit that wrote to the event log or the outbox: what wakes the
//! mail composer, the streams and every other consumer of the log in this process. Other
//! processes on the same PostgreSQL database hear it through `LISTEN`/`NOTIFY`
//! (`crate::worker_threads::commit_listener`).
//!
//! Why a mark and a process-wide bell rather than a handle passed around: the writes happen deep
//! in the game service, accounts, sweeps and mail replies, and the only thing they all share is
//! the transaction ([`crate::db::transaction::write_with`]). A write marks the transaction
//! ([`ring_at_commit`], on the thread that runs it: diesel is synchronous); the transaction rings
//! the bell once it has committed, and forgets the mark when it rolls back. A bell rung for
//! nothing costs a consumer one read, so several servers in one process (the tests) sharing it is
//! harmless.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

use tokio::sync::watch;

thread_local! {
    /// Whether the transaction running on this thread wrote something a consumer waits for.
    static MARKED: Cell<bool> = const { Cell::new(false) };
}

/// Counts every ring, local or heard from another process: consumers wait for it to change.
static BELL: LazyLock<watch::Sender<u64>> = LazyLock::new(|| watch::channel(0).0);

/// Counts the rings of commits made in this process, which other processes have not heard of
/// until the listener passes them on.
static LOCAL_COMMITS: AtomicU64 = AtomicU64::new(0);

/// Marks the transaction running on this thread: once it commits, the bell rings.
pub fn ring_at_commit() {
    MARKED.with(|marked| marked.set(true));
}

/// The transaction on this thread committed: rings the bell if it was marked.
pub(crate) fn committed() {
    if take_mark() {
        LOCAL_COMMITS.fetch_add(1, Ordering::Relaxed);
        ring();
    }
}

/// The transaction on this thread rolled back: what it marked never happened.
pub(crate) fn rolled_back() {
    MARKED.with(|marked| marked.set(false));
}

/// Whether this thread's transaction was marked, forgetting the mark.
fn take_mark() -> bool {
    MARKED.with(|marked| marked.replace(false))
}

/// Rings the bell now (a commit heard from another process, or a test).
pub fn ring() {
    BELL.send_modify(|rings| *rings = rings.wrapping_add(1));
}

/// A handle that waits for the next ring (`changed().await`).
#[must_use]
pub fn subscribe() -> watch::Receiver<u64> {
    BELL.subscribe()
}

/// How many marked commits this process has made: the listener tells other processes when it
/// changes.
#[must_use]
pub fn local_commits() -> u64 {
    LOCAL_COMMITS.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mark_lasts_until_commit_or_rollback() {
        assert!(!take_mark());
        ring_at_commit();
        rolled_back();
        assert!(!take_mark(), "a rolled-back mark survived");
        ring_at_commit();
        assert!(take_mark());
        assert!(!take_mark(), "a mark counted twice");
    }

    #[test]
    fn a_marked_commit_rings() {
        let mut bell = subscribe();
        bell.mark_unchanged();
        let before = local_commits();
        ring_at_commit();
        committed();
        assert!(
            bell.has_changed().unwrap_or(false),
            "a marked commit did not ring"
        );
        assert!(local_commits() > before);
    }
}
