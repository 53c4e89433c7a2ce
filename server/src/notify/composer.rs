//! The mail composer: loops beside the delivery worker (`crate::mail::OutboxWorker`) that turn
//! waiting game events into outbox rows ([`compose_waiting`]), then wake delivery. The commit
//! bell wakes them after every commit of events or mail, in this process or (PostgreSQL, through
//! `LISTEN`/`NOTIFY`) another (`crate::db::commit_bell`); game writes also wake them after commit
//! ([`MailContext::wake`]); so does any other mail queued in a
//! transaction (sign-in codes, answers, clock mail), which they pass on to delivery. Delivery
//! itself never composes.
//!
//! [`Composer::threads`] loops compose in parallel, each on its own low-priority thread (the HTTP
//! API gets the CPU first); a loop that finds a full batch wakes another, so a backlog spreads over
//! all of them. Each event is still composed exactly once: a batch is taken with `FOR UPDATE SKIP
//! LOCKED` on PostgreSQL, under SQLite's write lock otherwise. Beside them, one catch-up loop at
//! normal priority ([`Composer::catch_up`], `crate::worker_threads::overdue_catch_up`) composes
//! only while the oldest waiting event is overdue, so a load that saturates the machine cannot
//! starve the mail for longer than that bound.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};

use super::composing::{compose_overdue, compose_waiting};
use crate::db::Pool;
use crate::mail_context::MailContext;
use crate::worker_threads::idle_priority::Background;
use crate::worker_threads::overdue_catch_up::CatchUp;

/// Game events composed per round: composing takes milliseconds, so a round stays short and
/// the cards composed go out at once.
pub const COMPOSE_BATCH: usize = 8;

/// The composer loops.
#[derive(Clone)]
pub struct Composer {
    /// Database.
    pub pool: Pool,
    /// Links, Message-ID domain, and the wake the loops wait on.
    pub ctx: MailContext,
    /// Wakes delivery after mail was composed or queued.
    pub deliver: Arc<Notify>,
    /// How often each loop looks for events without being woken.
    pub poll_interval: Duration,
    /// Low-priority composing threads (at least one).
    pub threads: usize,
    /// The normal-priority catch-up loop's bound (`None`: no catch-up loop).
    pub catch_up: Option<CatchUp>,
}

impl Composer {
    /// Composes waiting game events until `shutdown` turns true.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        // True while the catch-up composer works on overdue events.
        let catching_up = Arc::new(AtomicBool::new(false));
        let mut loops = Vec::new();
        for number in 0..self.threads.max(1) {
            loops.push(tokio::spawn(self.clone().compose_loop(
                number,
                catching_up.clone(),
                shutdown.clone(),
            )));
        }
        if let Some(catch_up) = self.catch_up {
            loops.push(tokio::spawn(self.clone().catch_up_loop(
                catch_up,
                catching_up.clone(),
                shutdown.clone(),
            )));
        }
        for composing in loops {
            let _ = composing.await;
        }
        tracing::info!("mail composer stopped");
    }

    /// One low-priority composing thread and its loop. While the catch-up composer works it
    /// takes one event at a time: starved of CPU in the middle of a batch, it would hold that
    /// batch's games (every later event of each waits behind it) out of the catch-up's reach.
    async fn compose_loop(
        self,
        number: usize,
        catching_up: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let background = match Background::start(&format!("mail-composer-{number}")) {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail composer: cannot start its thread");
                return;
            }
        };
        let mut bell = crate::db::commit_bell::subscribe();
        // At start-up events or rows may be waiting from before.
        let mut woken = true;
        loop {
            if *shutdown.borrow() {
                break;
            }
            let pool = self.pool.clone();
            let ctx = self.ctx.clone();
            let batch = if catching_up.load(Ordering::Relaxed) {
                1
            } else {
                COMPOSE_BATCH
            };
            let composed = match background
                .run(move || compose_waiting(&pool, &ctx, batch))
                .await
            {
                Some(Ok(composed)) => composed,
                Some(Err(error)) => {
                    tracing::error!(%error, "mail composer: cannot compose game mail");
                    0
                }
                None => {
                    tracing::error!("mail composer: its thread ended");
                    break;
                }
            };
            // Woken, the wake may have been for mail queued directly: delivery looks too.
            if woken || composed > 0 {
                self.deliver.notify_one();
            }
            if composed >= batch {
                // More may wait: another composer helps while this one goes on.
                self.ctx.wake.notify_one();
                woken = false;
                continue;
            }
            woken = tokio::select! {
                () = tokio::time::sleep(self.poll_interval) => false,
                () = self.ctx.wake.notified() => true,
                // A commit of events or mail, in this process or (PostgreSQL) another.
                _ = bell.changed() => true,
                _ = shutdown.changed() => false,
            };
        }
    }

    /// The catch-up thread at normal priority: every [`CatchUp::check_every`], composes the
    /// oldest events while they are overdue.
    async fn catch_up_loop(
        self,
        catch_up: CatchUp,
        working: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let background = match Background::start_normal("mail-catchup-c") {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail composer: cannot start its catch-up thread");
                return;
            }
        };
        loop {
            tokio::select! {
                () = tokio::time::sleep(catch_up.check_every()) => {}
                _ = shutdown.changed() => {}
            }
            if *shutdown.borrow() {
                break;
            }
            let pool = self.pool.clone();
            let ctx = self.ctx.clone();
            let deliver = self.deliver.clone();
            let working = working.clone();
            let stop = shutdown.clone();
            match background
                .run(move || {
                    let keep_going = || !*stop.borrow();
                    compose_overdue(
                        &pool,
                        &ctx,
                        catch_up,
                        COMPOSE_BATCH,
                        &deliver,
                        &working,
                        &keep_going,
                    )
                })
                .await
            {
                Some(Ok(0)) => {}
                Some(Ok(composed)) => {
                    tracing::debug!(composed, "mail composer: caught up on overdue events");
                }
                Some(Err(error)) => {
                    tracing::error!(%error, "mail composer: cannot catch up on game mail");
                }
                None => {
                    tracing::error!("mail composer: its catch-up thread ended");
                    break;
                }
            }
        }
    }
}
