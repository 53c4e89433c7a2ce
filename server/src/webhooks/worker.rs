//! The delivery worker: woken by the commit bell (and a poll), it lets the consumer queue the
//! deliveries of new events, takes the due ones (a lease keeps other workers off them), sends
//! each with the same `webhook-id` on every try, and records the attempt: delivered, or due
//! again after the outbox's back-off. An endpoint that has failed for three days is switched
//! off and its owner mailed.

use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDateTime;
use tokio::sync::watch;

use super::consumer::{ENDPOINTS, WEBHOOKS_CONSUMER};
use super::delivery_rounds::{run_deliveries, ClaimDue, NextDueAt, OutboundChannel};
use super::destination::OutboundPolicy;
use super::disabled_mail;
use super::formats::{self, Signing};
use super::outbound::{self, OutboundAnswer, OutboundRequest};
use crate::config::OutboxSettings;
use crate::db::events::LogConsumer;
use crate::db::transaction as tx;
use crate::db::webhooks::{self as q, AttemptRow, DeliveryRow, EndpointRow, Outcome};
use crate::db::{self, DbConnection, DbError, Pool};
use crate::mail_context::MailContext;

/// How long an endpoint may fail before it is switched off.
pub const DISABLE_AFTER: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// The worker and what it needs.
#[derive(Debug, Clone)]
pub struct WebhookWorker {
    /// The database.
    pub pool: Pool,
    /// Where deliveries may go.
    pub policy: Arc<OutboundPolicy>,
    /// Links, and the owner's mail when an endpoint is switched off.
    pub mail: MailContext,
    /// Back-off between tries (the outbox's).
    pub retry: OutboxSettings,
    /// How often it looks without a bell.
    pub poll: Duration,
}

impl WebhookWorker {
    /// Runs until `shutdown` turns true.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        let (pool, poll) = (self.pool.clone(), self.poll);
        run_deliveries(self, pool, poll, shutdown).await;
    }
}

impl OutboundChannel for WebhookWorker {
    type Delivery = DeliveryRow;
    type Target = EndpointRow;

    const NAME: &'static str = WEBHOOKS_CONSUMER;

    fn consume(&self, log: &mut LogConsumer, conn: &mut DbConnection) -> Result<usize, DbError> {
        log.consume(conn, |conn, rows| {
            ENDPOINTS.queue_for(conn, &self.mail.public_url, rows)
        })
    }

    const NEXT_DUE_AT: NextDueAt = q::next_due_at;
    const CLAIM_DUE: ClaimDue<DeliveryRow> = q::claim_due;

    fn target_of(
        conn: &mut DbConnection,
        delivery: &DeliveryRow,
    ) -> Result<Option<EndpointRow>, DbError> {
        q::endpoint_by_id(conn, delivery.endpoint_id)
    }

    async fn send(&self, delivery: &DeliveryRow, endpoint: &EndpointRow) -> OutboundAnswer {
        send(&self.policy, delivery, endpoint).await
    }

    /// Records one attempt; switches the endpoint off once it has failed for too long.
    fn record(
        &self,
        conn: &mut DbConnection,
        delivery: &DeliveryRow,
        endpoint: &EndpointRow,
        answer: &OutboundAnswer,
    ) -> Result<(), DbError> {
        let now = db::now();
        let failures = u32::try_from(delivery.attempts.saturating_add(1)).unwrap_or(u32::MAX);
        let retry_at = (!answer.delivered()).then(|| {
            now + chrono::Duration::from_std(self.retry.backoff(failures)).unwrap_or_default()
        });
        let outcome = Outcome {
            attempt: AttemptRow {
                endpoint_id: endpoint.id,
                webhook_id: delivery.webhook_id.clone(),
                event_type: delivery.event_type.clone(),
                at: now,
                delivered: answer.delivered(),
                status: answer.status.map(i32::from),
                duration_ms: answer.duration_ms,
                error: answer.error.clone(),
            },
            retry_at,
        };
        let mailed = tx::write_with(conn, |conn| {
            q::record_attempt(conn, delivery, &outcome)?;
            if answer.delivered() {
                q::mark_working(conn, endpoint.id)?;
                return Ok::<bool, DbError>(false);
            }
            let since: Option<NaiveDateTime> = q::mark_failing(conn, endpoint.id, now)?;
            if since.is_some_and(|since| now - since >= DISABLE_AFTER)
                && q::disable(conn, endpoint.id, now)?
            {
                let why = answer.error.as_deref().unwrap_or("failed");
                disabled_mail::queue(conn, &self.mail, endpoint, why)?;
                return Ok(true);
            }
            Ok(false)
        })?;
        if mailed {
            tracing::info!(
                webhook = endpoint.id,
                "webhook switched off after failing for three days"
            );
            self.mail.wake.notify_one();
        }
        Ok(())
    }
}

/// One try of `delivery`.
async fn send(
    policy: &OutboundPolicy,
    delivery: &DeliveryRow,
    endpoint: &EndpointRow,
) -> OutboundAnswer {
    let format = endpoint.format.parse().unwrap_or_default();
    let signing = Signing {
        secret: &endpoint.secret,
        message_id: &delivery.webhook_id,
        timestamp: chrono::Utc::now().timestamp(),
    };
    let Some(written) = formats::write(
        format,
        &delivery.body,
        signing,
        endpoint.ntfy_token.as_deref(),
    ) else {
        return OutboundAnswer {
            status: None,
            error: Some("the stored delivery or secret cannot be read".to_owned()),
            duration_ms: 0,
        };
    };
    outbound::send(
        policy,
        OutboundRequest {
            url: endpoint.url.clone(),
            headers: written.headers,
            body: written.body.into_bytes(),
        },
    )
    .await
}
