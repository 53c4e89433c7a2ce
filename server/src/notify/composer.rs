//! The mail composer: a loop beside the delivery worker (`crate::mail::OutboxWorker`) that turns
//! waiting game events into outbox rows ([`compose_waiting`]) on its own low-priority thread,
//! then wakes delivery. Game writes wake it after commit ([`MailContext::wake`]); so does any
//! other mail queued in a transaction (sign-in codes, answers, clock mail), which it passes on
//! to delivery. Delivery itself never composes.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Notify};

use super::composing::compose_waiting;
use crate::background::Background;
use crate::db::Pool;
use crate::mail_context::MailContext;

/// Game events composed per round: composing takes milliseconds, so a round stays short and
/// the cards composed go out at once.
pub const COMPOSE_BATCH: usize = 8;

/// The composer loop.
#[derive(Clone)]
pub struct Composer {
    /// Database.
    pub pool: Pool,
    /// Links, Message-ID domain, and the wake this loop waits on.
    pub ctx: MailContext,
    /// Wakes delivery after mail was composed or queued.
    pub deliver: Arc<Notify>,
    /// How often it looks for events without being woken.
    pub poll_interval: Duration,
}

impl Composer {
    /// Composes waiting game events until `shutdown` turns true.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let background = match Background::start("mail-composer") {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "mail composer: cannot start its thread");
                return;
            }
        };
        // At start-up events or rows may be waiting from before.
        let mut woken = true;
        loop {
            if *shutdown.borrow() {
                break;
            }
            let pool = self.pool.clone();
            let ctx = self.ctx.clone();
            let composed = match background
                .run(move || compose_waiting(&pool, &ctx, COMPOSE_BATCH))
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
            if composed >= COMPOSE_BATCH {
                woken = false;
                continue;
            }
            woken = tokio::select! {
                () = tokio::time::sleep(self.poll_interval) => false,
                () = self.ctx.wake.notified() => true,
                _ = shutdown.changed() => false,
            };
        }
        tracing::info!("mail composer stopped");
    }
}
