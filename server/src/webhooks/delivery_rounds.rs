//! The round of a worker that reads the event log and sends over HTTP (the webhooks, web
//! push): let the channel's consumer queue the rows of new events, take the due ones under a
//! lease, send them side by side, record each answer. Woken by the commit bell
//! ([`run_rounds`]); what differs between channels is the [`OutboundChannel`].

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::NaiveDateTime;
use tokio::sync::watch;

use super::outbound::{OutboundAnswer, TOTAL_TIMEOUT};
use crate::db::events::LogConsumer;
use crate::db::transaction as tx;
use crate::db::{self, DbConnection, DbError, Pool};
use crate::worker_threads::bell_rounds::{blocking, run_rounds};

/// When the next pending row is due (a read: most rounds find nothing and take no lock).
pub type NextDueAt = fn(&mut DbConnection) -> Result<Option<NaiveDateTime>, DbError>;

/// Takes up to `limit` rows due at `now`, held until `lease_until`; runs inside a write
/// transaction: `(conn, now, lease_until, limit)`.
pub type ClaimDue<D> =
    fn(&mut DbConnection, NaiveDateTime, NaiveDateTime, i64) -> Result<Vec<D>, DbError>;

/// Rows taken in one round, each with its target.
type Claimed<C> = Vec<(
    <C as OutboundChannel>::Delivery,
    <C as OutboundChannel>::Target,
)>;

/// Rows sent at once in a round.
const SENDS_AT_ONCE: usize = 8;

/// One outbound channel: its queue, how a row is sent and how its answer is kept.
pub trait OutboundChannel: Clone + Send + Sync + 'static {
    /// A queued row.
    type Delivery: Send + 'static;
    /// Where a row goes (an endpoint, a device).
    type Target: Send + 'static;

    /// The channel's name in logs, and its consumer's name in `event_cursors`.
    const NAME: &'static str;

    /// Queues the rows of the events after `log`'s position; answers how many.
    ///
    /// # Errors
    /// Storage failures (the position stays where it was).
    fn consume(&self, log: &mut LogConsumer, conn: &mut DbConnection) -> Result<usize, DbError>;

    /// The queue's [`NextDueAt`] (made by `db::delivery_queue`).
    const NEXT_DUE_AT: NextDueAt;

    /// The queue's [`ClaimDue`] (made by `db::delivery_queue`).
    const CLAIM_DUE: ClaimDue<Self::Delivery>;

    /// Where `delivery` goes (none: gone since it was queued).
    ///
    /// # Errors
    /// Storage failures.
    fn target_of(
        conn: &mut DbConnection,
        delivery: &Self::Delivery,
    ) -> Result<Option<Self::Target>, DbError>;

    /// Housekeeping in the transaction that claims rows (say, pruning finished ones).
    ///
    /// # Errors
    /// Storage failures.
    fn tidy(_conn: &mut DbConnection, _now: NaiveDateTime) -> Result<(), DbError> {
        Ok(())
    }

    /// One try of `delivery` to `target`.
    fn send(
        &self,
        delivery: &Self::Delivery,
        target: &Self::Target,
    ) -> impl Future<Output = OutboundAnswer> + Send;

    /// Keeps what one try came to.
    ///
    /// # Errors
    /// Storage failures.
    fn record(
        &self,
        conn: &mut DbConnection,
        delivery: &Self::Delivery,
        target: &Self::Target,
        answer: &OutboundAnswer,
    ) -> Result<(), DbError>;
}

/// Runs `channel`'s rounds on `pool` until `shutdown` turns true (at least every `poll`).
pub async fn run_deliveries<C: OutboundChannel>(
    channel: C,
    pool: Pool,
    poll: Duration,
    shutdown: watch::Receiver<bool>,
) {
    let log = Arc::new(Mutex::new(LogConsumer::new(C::NAME)));
    run_rounds(C::NAME, poll, shutdown, || round(&channel, &pool, &log)).await;
}

/// One round; answers whether more may be due now.
async fn round<C: OutboundChannel>(
    channel: &C,
    pool: &Pool,
    log: &Arc<Mutex<LogConsumer>>,
) -> Result<bool, DbError> {
    let (this, storage, log) = (channel.clone(), pool.clone(), log.clone());
    let claimed = blocking(C::NAME, move || {
        let mut conn = storage.get()?;
        if let Ok(mut log) = log.lock() {
            this.consume(&mut log, &mut conn)?;
        }
        claim::<C>(&mut conn)
    })
    .await?;
    if claimed.is_empty() {
        return Ok(false);
    }
    let full = claimed.len() == SENDS_AT_ONCE;
    let sends = claimed.into_iter().map(|(delivery, target)| async move {
        let answer = channel.send(&delivery, &target).await;
        (delivery, target, answer)
    });
    let results = futures_util::future::join_all(sends).await;
    let (this, storage) = (channel.clone(), pool.clone());
    blocking(C::NAME, move || {
        let mut conn = storage.get()?;
        for (delivery, target, answer) in &results {
            this.record(&mut conn, delivery, target, answer)?;
        }
        Ok(())
    })
    .await?;
    Ok(full)
}

/// Takes the due rows with their targets, leased for longer than a try can take.
fn claim<C: OutboundChannel>(conn: &mut DbConnection) -> Result<Claimed<C>, DbError> {
    let now = db::now();
    // A read first: most rounds find nothing due, and need no write lock (SQLite's is global).
    if (C::NEXT_DUE_AT)(conn)?.is_none_or(|due| due > now) {
        return Ok(Vec::new());
    }
    let lease = chrono::Duration::from_std(TOTAL_TIMEOUT * 4).unwrap_or_default();
    tx::write_with(conn, |conn| {
        C::tidy(conn, now)?;
        let limit = i64::try_from(SENDS_AT_ONCE).unwrap_or(i64::MAX);
        let mut claimed = Vec::with_capacity(SENDS_AT_ONCE);
        for delivery in (C::CLAIM_DUE)(conn, now, now + lease, limit)? {
            if let Some(target) = C::target_of(conn, &delivery)? {
                claimed.push((delivery, target));
            }
        }
        Ok(claimed)
    })
}
