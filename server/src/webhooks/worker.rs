//! The delivery worker: woken by the commit bell (and a poll), it lets the consumer queue the
//! deliveries of new events, takes the due ones (a lease keeps other workers off them), sends
//! each with the same `webhook-id` on every try, and records the attempt: delivered, or due
//! again after the outbox's back-off. An endpoint that has failed for three days is switched
//! off and its owner mailed.

use std::sync::Arc;
use std::time::Duration;

use chrono::NaiveDateTime;
use tokio::sync::watch;

use super::consumer::LogConsumer;
use super::destination::OutboundPolicy;
use super::disabled_mail;
use super::formats::{self, Signing};
use super::outbound::{self, OutboundAnswer, OutboundRequest, TOTAL_TIMEOUT};
use crate::config::OutboxSettings;
use crate::db::transaction as tx;
use crate::db::webhooks::{self as q, AttemptRow, DeliveryRow, EndpointRow, Outcome};
use crate::db::{self, DbConnection, DbError, Pool};
use crate::mail_context::MailContext;
use crate::worker_threads::bell_rounds::run_rounds;

/// How long an endpoint may fail before it is switched off.
pub const DISABLE_AFTER: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// Deliveries sent at once.
const SENDS_AT_ONCE: i64 = 8;

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
        let consumer = Arc::new(std::sync::Mutex::new(LogConsumer::default()));
        run_rounds("webhooks", self.poll, shutdown, || self.round(&consumer)).await;
    }

    /// One round: consume the log, send what is due; answers whether more may be due now.
    async fn round(&self, consumer: &Arc<std::sync::Mutex<LogConsumer>>) -> Result<bool, DbError> {
        let pool = self.pool.clone();
        let site = self.mail.public_url.clone();
        let consumer = consumer.clone();
        let claimed = blocking(move || {
            let mut conn = pool.get()?;
            if let Ok(mut consumer) = consumer.lock() {
                consumer.consume(&mut conn, &site)?;
            }
            claim(&mut conn)
        })
        .await?;
        if claimed.is_empty() {
            return Ok(false);
        }
        let full = claimed.len() == usize::try_from(SENDS_AT_ONCE).unwrap_or(usize::MAX);
        let sends = claimed.into_iter().map(|(delivery, endpoint)| {
            let policy = self.policy.clone();
            async move {
                let answer = send(&policy, &delivery, &endpoint).await;
                (delivery, endpoint, answer)
            }
        });
        let results = futures_util::future::join_all(sends).await;
        let pool = self.pool.clone();
        let this = self.clone();
        blocking(move || {
            let mut conn = pool.get()?;
            for (delivery, endpoint, answer) in &results {
                this.record(&mut conn, delivery, endpoint, answer)?;
            }
            Ok(())
        })
        .await?;
        Ok(full)
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

/// Takes the due deliveries with their endpoints, leased for longer than a try can take.
fn claim(conn: &mut DbConnection) -> Result<Vec<(DeliveryRow, EndpointRow)>, DbError> {
    let now = db::now();
    // A read first: most rounds find nothing due, and need no write lock (SQLite's is global).
    if q::next_due_at(conn)?.is_none_or(|due| due > now) {
        return Ok(Vec::new());
    }
    let lease = chrono::Duration::from_std(TOTAL_TIMEOUT * 4).unwrap_or_default();
    tx::write_with(conn, |conn| {
        let due = q::claim_due(conn, now, now + lease, SENDS_AT_ONCE)?;
        let mut claimed = Vec::with_capacity(due.len());
        for delivery in due {
            if let Some(endpoint) = q::endpoint_by_id(conn, delivery.endpoint_id)? {
                claimed.push((delivery, endpoint));
            }
        }
        Ok(claimed)
    })
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

/// Runs storage work on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, DbError> + Send + 'static,
) -> Result<T, DbError> {
    crate::worker_threads::bell_rounds::blocking("webhook", work).await
}
