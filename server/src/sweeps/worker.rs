//! The sweeper that runs beside the HTTP server in every process.

use std::time::Duration;

use chrono::NaiveDateTime;
use tokio::sync::watch;

use crate::db::{self, DbConnection, DbError, Pool};
use crate::mail_context::MailContext;

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
    Ok(SweepReport {
        timed_out: super::end_timed_out(conn, ctx, now)?,
        claimable: super::announce_claims(conn, ctx, now)?,
        reminded: super::send_reminders(conn, ctx, now)?,
        digests: super::send_digests(conn, ctx, now)?,
        lapsed: crate::games::open_seats::lapse(conn, ctx, now)?,
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
}

impl SweepWorker {
    /// The loop: every sweep each `interval`; between them, tournaments alone whenever a
    /// tournament's game has ended ([`MailContext::round_over`]), so the next round is paired
    /// at once. The periodic sweep stays the backstop (a wake rung in another process, or
    /// lost with a restart).
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
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
                sweep_once(&mut conn, &this.mail, db::now())
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
            // A wake cuts the wait short for tournaments only; the full sweep keeps its pace.
            round_over = tokio::select! {
                () = tokio::time::sleep_until(next_sweep) => false,
                () = self.mail.round_over.notified() => true,
                _ = shutdown.changed() => false,
            };
        }
        tracing::info!("sweeper stopped");
    }
}
