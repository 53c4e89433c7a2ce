//! The sweeper that runs beside the HTTP server in every process.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use chrono::NaiveDateTime;
use tokio::sync::watch;

use crate::db::{self, DbConnection, DbError, Pool};
use crate::mail_context::MailContext;
use crate::sweeps::RoundEnds;

/// What one round of sweeps did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Games ended on time.
    pub timed_out: usize,
    /// Claim games whose players were told they may claim.
    pub claimable: usize,
    /// Reminders sent.
    pub reminded: usize,
    /// Digests queued.
    pub digests: usize,
    /// Open challenges that lapsed with a seat nobody took (their posters told).
    pub lapsed: usize,
    /// Tournaments moved on: started, cancelled, paired a round or finished.
    pub tournaments: usize,
}

impl SweepReport {
    /// Whether the round acted on anything (worth a line in the log; each sweep's frame has
    /// woken the mail worker for what it queued).
    #[must_use]
    pub fn queued_mail(&self) -> bool {
        self.timed_out
            + self.claimable
            + self.reminded
            + self.digests
            + self.lapsed
            + self.tournaments
            > 0
    }
}

/// Runs every sweep once, as of `now`.
///
/// # Errors
/// The first sweep that fails (each sweep's own work is rolled back; the next round retries).
pub fn sweep_once(
    conn: &mut DbConnection,
    ctx: &MailContext,
    now: NaiveDateTime,
) -> Result<SweepReport, DbError> {
    let round = super::SweepRound { mail: ctx, now };
    Ok(SweepReport {
        timed_out: super::end_timed_out(conn, now)?,
        claimable: super::announce_claims(conn, round)?,
        reminded: super::send_reminders(conn, round)?,
        digests: super::send_digests(conn, round)?,
        lapsed: crate::games::open_seats::lapse(conn, now)?,
        // After the timeouts: a round whose last game ended on time moves on in this round.
        tournaments: crate::tournaments::advance_due(conn, ctx, now)?,
    })
}

/// Sweeps every `interval` until `shutdown` turns true.
#[derive(Clone)]
pub struct SweepWorker {
    /// Database.
    pub pool: Pool,
    /// For the mails the sweeps queue.
    pub mail: MailContext,
    /// Time between rounds.
    pub interval: Duration,
    /// How long the event log keeps an event after its mail is composed.
    pub event_retention: Duration,
}

/// Events pruned per round at most (a round stays a short transaction).
const PRUNE_PER_ROUND: i64 = 5_000;

/// How long the sweeper waits after reading the log for ended tournament games before it
/// reads again: under a load of moves the bell rings for every commit, and one read covers
/// them all.
const ROUND_ENDS_PAUSE: Duration = Duration::from_millis(100);

/// How often the sweeper reads the log without a bell (as the streams' tail does).
const ROUND_ENDS_POLL: Duration = Duration::from_secs(1);

impl SweepWorker {
    /// The loop: every sweep each `interval`; between them, tournaments alone whenever a
    /// tournament's game has ended (the tournaments' consumer of the event log, [`RoundEnds`],
    /// read after each commit bell), so the next round is paired at once. The periodic sweep
    /// stays the backstop.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let mut bell = crate::db::commit_bell::subscribe();
        let round_ends = Arc::new(Mutex::new(RoundEnds::default()));
        let mut round_over = false;
        let mut next_sweep = tokio::time::Instant::now();
        loop {
            if *shutdown.borrow() {
                break;
            }
            if !round_over {
                next_sweep = tokio::time::Instant::now() + self.interval;
            }
            let this = self.clone();
            let outcome = tokio::task::spawn_blocking(move || -> Result<SweepReport, DbError> {
                let mut conn = this.pool.get().map_err(db::DbError::from)?;
                if round_over {
                    let tournaments =
                        crate::tournaments::advance_due(&mut conn, &this.mail, db::now())?;
                    return Ok(SweepReport {
                        tournaments,
                        ..SweepReport::default()
                    });
                }
                let report = sweep_once(&mut conn, &this.mail, db::now())?;
                this.prune_log(&mut conn);
                Ok(report)
            })
            .await;
            match outcome {
                // Each round's frame woke the mail worker after it committed.
                Ok(Ok(report)) => {
                    crate::metrics::sweep(&[
                        ("timed_out", report.timed_out),
                        ("claimable", report.claimable),
                        ("reminded", report.reminded),
                        ("digests", report.digests),
                        ("tournaments", report.tournaments),
                    ]);
                    if report.queued_mail() {
                        tracing::info!(?report, "sweep");
                    }
                }
                Ok(Err(error)) => tracing::error!(?error, "sweep failed; retrying next round"),
                Err(error) => tracing::error!(%error, "sweep task failed"),
            }
            // A tournament game's end cuts the wait short for tournaments only; the full sweep
            // keeps its pace.
            round_over = loop {
                tokio::select! {
                    () = tokio::time::sleep_until(next_sweep) => break false,
                    _ = shutdown.changed() => break false,
                    _ = bell.changed() => {
                        if self.tournament_game_ended(&round_ends).await {
                            break true;
                        }
                        tokio::time::sleep(ROUND_ENDS_PAUSE).await;
                    }
                    // An ending whose transaction was not yet settled when its bell rang (an
                    // older transaction still open, in any database of the cluster) is read
                    // a moment later, not at the next full sweep.
                    () = tokio::time::sleep(ROUND_ENDS_POLL) => {
                        if self.tournament_game_ended(&round_ends).await {
                            break true;
                        }
                    }
                }
            };
        }
        tracing::info!("sweeper stopped");
    }

    /// Whether a tournament's game ended since the tournaments' consumer last read the log, or
    /// a tournament's entries closed and it waits for round 1.
    async fn tournament_game_ended(&self, round_ends: &Arc<Mutex<RoundEnds>>) -> bool {
        let pool = self.pool.clone();
        let round_ends = round_ends.clone();
        let read = tokio::task::spawn_blocking(move || -> Result<bool, DbError> {
            let mut conn = pool.get()?;
            // A tournament whose field filled up (entries closed early) starts at once too.
            if crate::db::tournaments::closed_and_waiting(&mut conn, db::now())? {
                return Ok(true);
            }
            // So does the next batch of a round's games (`tournaments::BATCH_GAMES`).
            if crate::db::tournament_pairings::any_waiting(&mut conn)? {
                return Ok(true);
            }
            round_ends
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .tournament_game_ended(&mut conn)
        })
        .await;
        match read {
            Ok(Ok(ended)) => ended,
            Ok(Err(error)) => {
                tracing::warn!(%error, "tournaments: reading the event log");
                false
            }
            Err(error) => {
                tracing::error!(%error, "tournaments: the log reader failed");
                false
            }
        }
    }

    /// Prunes what the event log no longer needs to keep (a failure is retried next round).
    fn prune_log(&self, conn: &mut DbConnection) {
        let retention = chrono::Duration::from_std(self.event_retention)
            .unwrap_or_else(|_| chrono::Duration::days(2));
        match crate::db::events::prune(conn, db::now() - retention, PRUNE_PER_ROUND) {
            Ok(0) => {}
            Ok(pruned) => tracing::debug!(pruned, "event log pruned"),
            Err(error) => tracing::warn!(%error, "pruning the event log failed"),
        }
    }
}
