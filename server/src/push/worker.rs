//! The push worker: woken by the commit bell (and a poll), it lets the consumer queue the
//! notifications of new events, takes the due ones (a lease keeps other workers off them),
//! encrypts each for its device (RFC 8291, `aes128gcm`, fresh keys each try), signs a VAPID
//! JWT for the push service (RFC 8292), and sends it through the webhooks' outbound checks.
//! 2xx: delivered. 404 or 410: the device unsubscribed, its row goes. Anything else: due again
//! after the outbox's back-off, until its TTL has passed (the push service would drop it
//! then anyway).

use std::sync::Arc;
use std::time::Duration;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use tokio::sync::watch;

use chrono::NaiveDateTime;

use super::consumer::{DEVICES, PUSH_CONSUMER};
use super::vapid::VapidKey;
use crate::config::OutboxSettings;
use crate::db::events::LogConsumer;
use crate::db::push::{self as q, DeliveryRow, Outcome, SubscriptionRow};
use crate::db::transaction as tx;
use crate::db::{self, DbConnection, DbError, Pool};
use crate::webhooks::{
    run_deliveries, send_outbound, ClaimDue, NextDueAt, OutboundAnswer, OutboundChannel,
    OutboundPolicy, OutboundRequest,
};

/// The worker and what it needs.
#[derive(Debug, Clone)]
pub struct PushWorker {
    /// The database.
    pub pool: Pool,
    /// Where requests may go (a push endpoint is the browser's word: checked as a webhook).
    pub policy: Arc<OutboundPolicy>,
    /// The server's VAPID key pair.
    pub vapid: Arc<VapidKey>,
    /// The JWT's `sub`: how the push service reaches the operator (`mailto:`).
    pub contact: String,
    /// The public base URL (the notifications' links).
    pub site: String,
    /// Back-off between tries (the outbox's).
    pub retry: OutboxSettings,
    /// How often it looks without a bell.
    pub poll: Duration,
}

impl PushWorker {
    /// Runs until `shutdown` turns true.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        let (pool, poll) = (self.pool.clone(), self.poll);
        run_deliveries(self, pool, poll, shutdown).await;
    }

    /// The encrypted, signed request of `delivery`.
    fn request(
        &self,
        delivery: &DeliveryRow,
        device: &SubscriptionRow,
    ) -> Result<OutboundRequest, String> {
        let unreadable = || "the stored subscription keys cannot be read".to_owned();
        let point = URL_SAFE_NO_PAD
            .decode(&device.p256dh)
            .map_err(|_| unreadable())?;
        let public =
            web_push_native::p256::PublicKey::from_sec1_bytes(&point).map_err(|_| unreadable())?;
        let auth = URL_SAFE_NO_PAD
            .decode(&device.auth)
            .map_err(|_| unreadable())?;
        let auth = web_push_native::Auth::from_exact_iter(auth).ok_or_else(unreadable)?;
        let body = web_push_native::encrypt(delivery.body.clone().into_bytes(), &public, &auth)
            .map_err(|error| format!("cannot encrypt: {error}"))?;
        let endpoint = url::Url::parse(&device.endpoint).map_err(|_| unreadable())?;
        let vapid = self
            .vapid
            .authorization(&endpoint, &self.contact, chrono::Utc::now())
            .ok_or_else(|| "the endpoint has no origin".to_owned())?;
        // What is left of its time to live (a retry is not kept longer than the first try).
        let age = (db::now() - delivery.created_at).num_seconds();
        let ttl = (i64::from(delivery.ttl) - age).max(0);
        let mut headers = vec![
            (
                "Content-Type".to_owned(),
                "application/octet-stream".to_owned(),
            ),
            ("Content-Encoding".to_owned(), "aes128gcm".to_owned()),
            ("TTL".to_owned(), ttl.to_string()),
            ("Urgency".to_owned(), delivery.urgency.clone()),
            ("Authorization".to_owned(), vapid),
        ];
        if let Some(topic) = topic_of(&delivery.body) {
            headers.push(("Topic".to_owned(), topic));
        }
        Ok(OutboundRequest {
            url: device.endpoint.clone(),
            headers,
            body,
        })
    }
}

impl OutboundChannel for PushWorker {
    type Delivery = DeliveryRow;
    type Target = SubscriptionRow;

    const NAME: &'static str = PUSH_CONSUMER;

    fn consume(&self, log: &mut LogConsumer, conn: &mut DbConnection) -> Result<usize, DbError> {
        log.consume(conn, |conn, rows| DEVICES.queue_for(conn, &self.site, rows))
    }

    const NEXT_DUE_AT: NextDueAt = q::next_due_at;
    const CLAIM_DUE: ClaimDue<DeliveryRow> = q::claim_due;

    fn target_of(
        conn: &mut DbConnection,
        delivery: &DeliveryRow,
    ) -> Result<Option<SubscriptionRow>, DbError> {
        q::subscription(conn, delivery.subscription_id)
    }

    /// The finished notifications go after a while.
    fn tidy(conn: &mut DbConnection, now: NaiveDateTime) -> Result<(), DbError> {
        q::prune(conn, now).map(drop)
    }

    async fn send(&self, delivery: &DeliveryRow, device: &SubscriptionRow) -> OutboundAnswer {
        match self.request(delivery, device) {
            Ok(request) => send_outbound(&self.policy, request).await,
            Err(error) => OutboundAnswer {
                status: None,
                error: Some(error),
                duration_ms: 0,
            },
        }
    }

    /// Delivered; the device gone (404, 410); or due again, unless its TTL has passed.
    fn record(
        &self,
        conn: &mut DbConnection,
        delivery: &DeliveryRow,
        device: &SubscriptionRow,
        answer: &OutboundAnswer,
    ) -> Result<(), DbError> {
        let now = db::now();
        if matches!(answer.status, Some(404 | 410)) {
            tracing::info!(
                subscription = device.id,
                "push: the service says the subscription is gone; removed"
            );
            tx::write_with(conn, |conn| q::delete(conn, None, device.id))?;
            return Ok(());
        }
        let failures = u32::try_from(delivery.attempts.saturating_add(1)).unwrap_or(u32::MAX);
        let retry_at =
            now + chrono::Duration::from_std(self.retry.backoff(failures)).unwrap_or_default();
        let expires = delivery.created_at + chrono::TimeDelta::seconds(i64::from(delivery.ttl));
        let state = if answer.delivered() {
            "delivered"
        } else if retry_at > expires {
            "dropped"
        } else {
            "pending"
        };
        let outcome = Outcome {
            at: now,
            status: answer.status.map(i32::from),
            error: answer.error.clone(),
            state,
            retry_at: (state == "pending").then_some(retry_at),
        };
        tx::write_with(conn, |conn| q::record(conn, delivery, &outcome))
    }
}

/// The push's `Topic` (RFC 8030, 5.4): its notification's tag (`game-12`), so that a newer
/// notification of a game replaces one the device has not fetched yet (offline, the phone
/// gets the latest state of each game, not a pile). At most 32 characters of the URL-safe
/// base64 alphabet, as the RFC asks; none when the body has no such tag.
fn topic_of(body: &str) -> Option<String> {
    let shown: serde_json::Value = serde_json::from_str(body).ok()?;
    let topic: String = shown
        .get("tag")?
        .as_str()?
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    (!topic.is_empty()).then_some(topic)
}

#[cfg(test)]
mod tests {
    use super::topic_of;

    #[test]
    fn the_topic_is_the_tag_in_the_url_safe_alphabet_at_most_32_long() {
        assert_eq!(topic_of(r#"{"tag":"game-12"}"#).as_deref(), Some("game-12"));
        assert_eq!(
            topic_of(&format!(r#"{{"tag":"g a/m+e{}"}}"#, "x".repeat(40))).map(|t| t.len()),
            Some(32)
        );
        assert_eq!(topic_of(r#"{"tag":"+/ "}"#), None);
        assert_eq!(topic_of(r#"{"title":"no tag"}"#), None);
        assert_eq!(topic_of("not json"), None);
    }
}
