//! The outbox worker delivers what is queued, and only that: several sessions, each claiming a
//! few due rows with a short lease, sending them over its own reused SMTP connection, and
//! recording each outcome. What to send and to whom is decided and composed before, in
//! `crate::notify` (its composer wakes this worker).
//!
//! No database transaction or pooled connection is held across a network send: a claim is one
//! short transaction ([`outbox::claim_due`]), the sends follow, then one update marks what the
//! claim delivered (a failure is recorded at once). Each session claims under its own name
//! (`worker/sN`), so a round that fails after claiming releases its own rows and no other's.
//! While rows are claimed their lease is renewed, so a crash leaves them due again within one
//! lease (and SQLite, one process per file, releases every lease at start). A crash after the
//! relay accepted a mail but before it was marked resends it with the same Message-ID.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDateTime;
use lettre::message::Mailbox;
use tokio::sync::{watch, Notify};

use super::transport::Session;
use super::{OutboxSettings, StoredParts, Transport};
use crate::db::outbox::OutboxMail;
use crate::db::{self, outbox, DbError, Pool};
use crate::worker_threads::idle_priority::Background;
use crate::worker_threads::overdue_catch_up::CatchUp;
use crate::worker_threads::pause::pause;

/// What happened to one claimed row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    /// Row `id` was delivered.
    Sent(i64),
    /// Row `id` failed and will be retried.
    Retrying(i64),
    /// Row `id` failed for the last time (or was refused for good) and is dead-lettered.
    Dead(i64),
}

/// Rows one session claims at a time: enough that under load one claim serves several mails,
/// few enough that the mails behind the first wait little and that other sessions find work.
pub const CLAIM_BATCH: usize = 4;

/// A name for this worker in `claimed_by`: process id and a random tag, unique per start.
#[must_use]
pub fn claimant_name() -> String {
    format!(
        "pid{}-{}",
        std::process::id(),
        crate::secrets::random_string(8, crate::secrets::LOWER_ALNUM)
    )
}

/// The end of a lease taken now.
fn lease_end(settings: &OutboxSettings) -> NaiveDateTime {
    db::now() + chrono::Duration::from_std(settings.lease).unwrap_or(chrono::Duration::MAX)
}

/// Claims up to `limit` due rows for `claimant` and delivers them over `session`, one after
/// the other; stops early (the rest stay claimed until released or their lease ends) when
/// `keep_going` turns false. Returns what happened to each row delivered (empty: nothing was
/// due).
///
/// # Errors
/// [`DbError`] if the database fails; a row whose outcome could not be recorded stays claimed
/// and is sent again after its lease (same Message-ID).
#[expect(
    clippy::too_many_arguments,
    reason = "one call site per worker session and the tests; a struct would only rename them"
)]
pub fn deliver_due(
    pool: &Pool,
    transport: &Transport,
    session: &mut Session,
    from: &Mailbox,
    settings: &OutboxSettings,
    claimant: &str,
    limit: usize,
    keep_going: &dyn Fn() -> bool,
) -> Result<Vec<Delivery>, DbError> {
    let rows = {
        let mut conn = pool.get()?;
        outbox::claim_due(
            &mut conn,
            claimant,
            db::now(),
            lease_end(settings),
            i64::try_from(limit).unwrap_or(1),
        )?
    };
    if rows.is_empty() {
        session.idle();
    }
    let mut done = Vec::with_capacity(rows.len());
    let mut sent = Vec::with_capacity(rows.len());
    for row in rows {
        if !keep_going() {
            break;
        }
        match prepared(&row) {
            Some((parts, png)) => {
                let result = transport.send_with_parts(session, from, &row, &parts, png.as_deref());
                if result.is_ok() {
                    // Recorded below with the claim's other deliveries; the answer keeps
                    // claim order.
                    done.push(Delivery::Sent(row.id));
                    sent.push(row);
                    continue;
                }
                // The drawn picture is kept with the row, so every retry sends the same bytes.
                let drawn = png.and_then(|png| stored_with_picture(&row, parts, &png));
                let recorded = pool.get().map_err(DbError::from).and_then(|mut conn| {
                    record(&mut conn, &row, drawn.as_deref(), result, settings)
                });
                done.push(recorded.inspect_err(|_| mark_sent(pool, &sent))?);
            }
            None => {
                let result = transport.send(session, from, &row);
                let recorded = pool
                    .get()
                    .map_err(DbError::from)
                    .and_then(|mut conn| record(&mut conn, &row, None, result, settings));
                done.push(recorded.inspect_err(|_| mark_sent(pool, &sent))?);
            }
        }
    }
    if !sent.is_empty() {
        // What the claim delivered is marked in one statement. Until then its rows stay
        // claimed under their lease; a crash before it resends them with the same Message-ID.
        let ids: Vec<i64> = sent.iter().map(|row| row.id).collect();
        mark_delivered_patiently(pool, &ids, settings.lease / 2)?;
        for row in &sent {
            crate::metrics::mail_sent();
            tracing::info!(outbox_id = row.id, message_id = %row.message_id, attempts = row.attempts.saturating_add(1), "mail delivered");
        }
    }
    Ok(done)
}

/// Marks the rows `ids`, which the relay accepted, as sent; a failure (most often no pooled
/// connection within the pool's timeout, when a burst of moves holds them all) is tried again
/// with growing pauses for up to `patience`. Giving up at once released the round's claims and
/// sent those mails a second time (seen under an open-loop load at 800 moves a second). Half a
/// lease: the rows' lease (renewed every third of one) outlasts the wait, so no other session
/// takes them meanwhile.
///
/// # Errors
/// The last failure, once `patience` is spent.
fn mark_delivered_patiently(pool: &Pool, ids: &[i64], patience: Duration) -> Result<(), DbError> {
    let give_up_at = std::time::Instant::now() + patience;
    let mut pause = Duration::from_millis(50);
    loop {
        let marked = pool
            .get()
            .map_err(DbError::from)
            .and_then(|mut conn| outbox::mark_all_sent(&mut conn, ids, db::now()));
        match marked {
            Ok(_) => return Ok(()),
            Err(error) if std::time::Instant::now() + pause >= give_up_at => return Err(error),
            Err(error) => {
                tracing::warn!(%error, mails = ids.len(), "mail worker: cannot mark delivered mail yet; trying again");
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// Best effort, on the way out of a failed round: marks the mails it already delivered, so
/// that releasing the round's claims does not send them twice.
fn mark_sent(pool: &Pool, sent: &[OutboxMail]) {
    if sent.is_empty() {
        return;
    }
    let ids: Vec<i64> = sent.iter().map(|row| row.id).collect();
    if let Ok(mut conn) = pool.get() {
        let _ = outbox::mark_all_sent(&mut conn, &ids, db::now());
    }
}

/// A claimed row's parts, read once, and its picture, drawn now the first time the row is
/// delivered: done here, with no transaction open, not when the mail is composed (drawing
/// costs CPU that a transaction should not hold its locks for; on SQLite, the write lock
/// every move needs). `None`: the row has no parts or they cannot be read (sent as stored,
/// which reports why). A picture that cannot be drawn is dropped (the text board is in both
/// parts).
fn prepared(row: &OutboxMail) -> Option<(StoredParts, Option<Vec<u8>>)> {
    let mut parts = StoredParts::from_json(row.parts.as_deref()?).ok()?;
    if !parts.needs_png() {
        return Some((parts, None));
    }
    match parts.rasterise() {
        Some(Ok(png)) => Some((parts, Some(png.bytes))),
        Some(Err(error)) => {
            tracing::warn!(outbox_id = row.id, %error, "board picture failed; sending without it");
            parts.drop_picture();
            Some((parts, None))
        }
        None => Some((parts, None)),
    }
}

/// The parts to store with a row whose attempt failed: with the picture drawn for it.
fn stored_with_picture(row: &OutboxMail, mut parts: StoredParts, png: &[u8]) -> Option<String> {
    parts.set_png(png);
    match parts.to_json() {
        Ok(json) => Some(json),
        Err(error) => {
            tracing::warn!(outbox_id = row.id, %error, "cannot store the drawn picture");
            None
        }
    }
}

fn record(
    conn: &mut db::DbConnection,
    row: &OutboxMail,
    drawn: Option<&str>,
    result: Result<(), super::SendError>,
    settings: &OutboxSettings,
) -> Result<Delivery, DbError> {
    let attempts = row.attempts.saturating_add(1);
    match result {
        Ok(()) => {
            outbox::mark_sent(conn, row.id, attempts, db::now())?;
            crate::metrics::mail_sent();
            tracing::info!(outbox_id = row.id, message_id = %row.message_id, attempts, "mail delivered");
            Ok(Delivery::Sent(row.id))
        }
        Err(error) => {
            let failures = u32::try_from(attempts).unwrap_or(u32::MAX);
            let give_up = error.permanent || failures >= settings.max_attempts;
            let message: String = error.message.chars().take(1000).collect();
            if give_up {
                outbox::mark_failed(conn, row.id, attempts, &message, None, drawn)?;
                crate::metrics::mail_dead();
                tracing::error!(outbox_id = row.id, attempts, error = %message, "mail dead-lettered");
                Ok(Delivery::Dead(row.id))
            } else {
                let delay =
                    chrono::Duration::from_std(settings.backoff(failures)).unwrap_or_default();
                outbox::mark_failed(
                    conn,
                    row.id,
                    attempts,
                    &message,
                    Some(db::now() + delay),
                    drawn,
                )?;
                crate::metrics::mail_retried();
                tracing::warn!(outbox_id = row.id, attempts, retry_in_ms = delay.num_milliseconds(), error = %message, "mail delivery failed; will retry");
                Ok(Delivery::Retrying(row.id))
            }
        }
    }
}

/// The worker that runs beside the HTTP server.
#[derive(Clone)]
pub struct OutboxWorker {
    /// Database.
    pub pool: Pool,
    /// Transport.
    pub transport: Arc<Transport>,
    /// Sender.
    pub from: Mailbox,
    /// Timing and concurrency.
    pub settings: OutboxSettings,
    /// Wakes a session early (the composer, after mail was composed or queued).
    pub wake: Arc<Notify>,
    /// The bound of the catch-up session: one more session, at normal priority, that delivers only
    /// while the longest-due mail has waited that long (`crate::worker_threads::overdue_catch_up`);
    /// `None`: none.
    pub catch_up: Option<CatchUp>,
}

impl OutboxWorker {
    /// [`deliver_due`] with this worker's pool, transport, sender and settings.
    fn deliver(
        &self,
        session: &mut Session,
        claimant: &str,
        limit: usize,
        keep_going: &dyn Fn() -> bool,
    ) -> Result<Vec<Delivery>, DbError> {
        deliver_due(
            &self.pool,
            &self.transport,
            session,
            &self.from,
            &self.settings,
            claimant,
            limit,
            keep_going,
        )
    }

    /// Delivers due mail with `settings.sessions` sessions until `shutdown` turns true. Sends
    /// in progress when shutdown is asked finish and are recorded first; rows claimed but not
    /// yet sent are released for another process.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        let claimant = claimant_name();
        if self.pool_is_sqlite().await {
            // One process per SQLite file: a lease found now was left by a process that is gone.
            let pool = self.pool.clone();
            match tokio::task::spawn_blocking(move || outbox::release_all_claims(&mut *pool.get()?))
                .await
            {
                Ok(Ok(0)) => {}
                Ok(Ok(released)) => {
                    tracing::info!(
                        released,
                        "mail left claimed by a stopped process is due again"
                    );
                }
                Ok(Err(error)) => tracing::error!(%error, "mail worker: cannot release old claims"),
                Err(error) => tracing::error!(%error, "mail worker: start-up task failed"),
            }
        }
        let renewal = tokio::spawn(renew_leases(
            self.pool.clone(),
            claimant.clone(),
            self.settings,
            shutdown.clone(),
        ));
        let vacuum = tokio::spawn(vacuum_queues(self.pool.clone(), shutdown.clone()));
        // True while the catch-up session works on overdue mail.
        let catching_up = Arc::new(AtomicBool::new(false));
        let mut sessions: Vec<_> = (0..self.settings.sessions.max(1))
            .map(|number| {
                tokio::spawn(self.clone().session(
                    number,
                    format!("{claimant}/s{number}"),
                    catching_up.clone(),
                    shutdown.clone(),
                ))
            })
            .collect();
        if let Some(catch_up) = self.catch_up {
            sessions.push(tokio::spawn(self.clone().catch_up_session(
                catch_up,
                format!("{claimant}/c"),
                catching_up.clone(),
                shutdown.clone(),
            )));
        }
        for session in sessions {
            let _ = session.await;
        }
        let _ = renewal.await;
        let _ = vacuum.await;
        let pool = self.pool.clone();
        let name = claimant.clone();
        if let Ok(Err(error)) = tokio::task::spawn_blocking(move || {
            outbox::release_worker_claims(&mut *pool.get()?, &name)
        })
        .await
        {
            tracing::warn!(%error, "mail worker: cannot release its claims (they expire with their lease)");
        }
        tracing::info!("mail worker stopped");
    }

    async fn pool_is_sqlite(&self) -> bool {
        let pool = self.pool.clone();
        matches!(
            tokio::task::spawn_blocking(move || pool.get().map(|conn| conn.backend())).await,
            Ok(Ok(db::Backend::Sqlite))
        )
    }

    /// One session: its own low-priority thread (drawing pictures costs CPU the HTTP API should
    /// get first) and its own SMTP connection. While the catch-up session works it claims one
    /// mail at a time: mail it holds while starved of CPU, the catch-up cannot take (nor its
    /// recipients' later mail, which waits behind it).
    async fn session(
        self,
        number: usize,
        claimant: String,
        catching_up: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let background = match Background::start(&format!("mail-session-{number}")) {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail worker: cannot start a session thread");
                return;
            }
        };
        let mut session = Some(Session::new());
        // Set when a round failed after claiming and its rows could not be released at once:
        // they stay claimed under this session's name, and the worker's lease renewal would
        // hold them for good (with every later mail of their recipients); they are released
        // before the next claim.
        let mut abandoned = false;
        loop {
            if *shutdown.borrow() {
                break;
            }
            let this = self.clone();
            let name = claimant.clone();
            let stop = shutdown.clone();
            let Some(mut current) = session.take() else {
                break;
            };
            let batch = if catching_up.load(Ordering::Relaxed) {
                1
            } else {
                CLAIM_BATCH
            };
            let release_first = abandoned;
            let outcome = background
                .run(move || {
                    let keep_going = || !*stop.borrow();
                    if release_first {
                        if let Err(error) = release_session_claims(&this.pool, &name) {
                            return (current, Err(error), true);
                        }
                    }
                    let result = this.deliver(&mut current, &name, batch, &keep_going);
                    // Released at once when the database lets us; else before the next claim.
                    let still_claimed =
                        result.is_err() && release_session_claims(&this.pool, &name).is_err();
                    (current, result, still_claimed)
                })
                .await;
            let delivered = match outcome {
                Some((current, result, still_claimed)) => {
                    session = Some(current);
                    abandoned = still_claimed;
                    match result {
                        Ok(done) => done.len(),
                        Err(error) => {
                            tracing::error!(%error, "mail worker: database error");
                            0
                        }
                    }
                }
                None => {
                    tracing::error!("mail worker: a session thread ended");
                    break;
                }
            };
            if delivered >= batch {
                // More may be due: let another session help while this one goes on.
                self.wake.notify_one();
                continue;
            }
            if delivered > 0 {
                continue;
            }
            tokio::select! {
                () = tokio::time::sleep(self.settings.poll_interval) => {}
                () = self.wake.notified() => {}
                _ = shutdown.changed() => {}
            }
        }
    }

    /// The catch-up session: its own thread at normal priority and its own SMTP connection;
    /// every [`CatchUp::check_every`] it delivers the longest-due mail while that is overdue.
    async fn catch_up_session(
        self,
        catch_up: CatchUp,
        claimant: String,
        working: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let background = match Background::start_normal("mail-catchup-s") {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail worker: cannot start its catch-up thread");
                return;
            }
        };
        let mut session = Some(Session::new());
        while !pause(catch_up.check_every(), &mut shutdown).await {
            let this = self.clone();
            let name = claimant.clone();
            let stop = shutdown.clone();
            let Some(mut current) = session.take() else {
                break;
            };
            let working = working.clone();
            let outcome = background
                .run(move || {
                    let keep_going = || !*stop.borrow();
                    let result = catch_up.overdue_rounds(
                        || {
                            let mut conn = this.pool.get()?;
                            Ok(outbox::oldest_due_at(&mut conn, db::now())?
                                .map(crate::worker_threads::overdue_catch_up::age_since))
                        },
                        || {
                            working.store(true, Ordering::Relaxed);
                            this.deliver(&mut current, &name, CLAIM_BATCH, &keep_going)
                                .map(|done| done.len())
                        },
                    );
                    working.store(false, Ordering::Relaxed);
                    if result.is_err() {
                        // Its claims would otherwise be renewed for good (see `session`); a
                        // release that fails too leaves them to the next failure's release.
                        let _ = release_session_claims(&this.pool, &name);
                    }
                    (current, result)
                })
                .await;
            match outcome {
                Some((current, result)) => {
                    session = Some(current);
                    match result {
                        Ok(0) => {}
                        Ok(delivered) => {
                            tracing::debug!(delivered, "mail worker: caught up on overdue mail");
                        }
                        Err(error) => tracing::error!(%error, "mail worker: database error"),
                    }
                }
                None => {
                    tracing::error!("mail worker: its catch-up thread ended");
                    break;
                }
            }
        }
    }
}

/// Renews the lease of every row this worker holds, three times per lease, until shutdown.
async fn renew_leases(
    pool: Pool,
    claimant: String,
    settings: OutboxSettings,
    mut shutdown: watch::Receiver<bool>,
) {
    let every = (settings.lease / 3).max(Duration::from_millis(10));
    while !pause(every, &mut shutdown).await {
        let pool = pool.clone();
        let name = claimant.clone();
        let until = lease_end(&settings);
        match tokio::task::spawn_blocking(move || {
            outbox::renew_worker_claims(&mut *pool.get()?, &name, until)
        })
        .await
        {
            Ok(Ok(_)) => {}
            Ok(Err(error)) => tracing::warn!(%error, "mail worker: cannot renew its leases"),
            Err(error) => tracing::warn!(%error, "mail worker: lease renewal task failed"),
        }
    }
}

/// How often the queue tables' dead rows are counted (`db::queue_vacuum`).
const VACUUM_CHECK_EVERY: Duration = Duration::from_millis(500);

/// Vacuums the queue tables when dead rows pile up in them, until shutdown (PostgreSQL; on
/// SQLite the first look finds nothing to do and the loop ends).
async fn vacuum_queues(pool: Pool, mut shutdown: watch::Receiver<bool>) {
    // One warning: a role that may not vacuum would otherwise say so every two seconds.
    let mut warned = false;
    while !pause(VACUUM_CHECK_EVERY, &mut shutdown).await {
        let pool = pool.clone();
        let looked = tokio::task::spawn_blocking(move || {
            let mut conn = pool.get()?;
            if conn.backend() != db::Backend::Postgres {
                return Ok(None);
            }
            db::queue_vacuum::vacuum_queues(&mut conn).map(Some)
        })
        .await;
        match looked {
            Ok(Ok(None)) => break,
            Ok(Ok(Some(tables))) if !tables.is_empty() => {
                tracing::debug!(?tables, "queue tables vacuumed");
            }
            Ok(Ok(Some(_))) => {}
            Ok(Err(error)) => {
                if !warned {
                    tracing::warn!(%error, "cannot vacuum the queue tables; autovacuum will");
                    warned = true;
                }
            }
            Err(error) => tracing::warn!(%error, "queue vacuum task failed"),
        }
    }
}

/// Releases the rows `claimant` (one session) still holds, so they are due again.
fn release_session_claims(pool: &Pool, claimant: &str) -> Result<(), DbError> {
    let released = outbox::release_claims(&mut *pool.get()?, claimant)?;
    if released > 0 {
        tracing::warn!(
            released,
            "mail worker: mail claimed by a failed round is due again"
        );
    }
    Ok(())
}
