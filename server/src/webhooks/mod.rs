//! Webhooks (issue 46): URLs an account's events are posted to, signed as the Standard
//! Webhooks specification asks, or written for ntfy, Discord or Slack.
//!
//! - [`endpoints`]: the service behind the API, the settings page and the CLI (add with the
//!   secret shown once, list, show with the delivery log, remove, rotate, test);
//! - `consumer`: a consumer of the event log with its own position (`webhooks`), which
//!   queues one delivery per endpoint and event in the transaction that moves it, following
//!   the audience, the webhook switches and game mutes;
//! - [`OutboundChannel`], [`run_deliveries`]: the worker round webhooks and web push share;
//! - [`WebhookWorker`]: sends due deliveries (same `webhook-id` every try, the outbox's
//!   back-off, the last 50 attempts kept, an endpoint failing for three days switched off);
//! - [`OutboundPolicy`] and `outbound`: where a request may go and how it is made safely.

mod consumer;
mod delivery_rounds;
mod destination;
mod disabled_mail;
pub mod endpoints;
mod error;
mod formats;
mod outbound;
mod payload;
mod signature;
mod worker;

pub use consumer::WEBHOOKS_CONSUMER;
pub use delivery_rounds::{run_deliveries, ClaimDue, NextDueAt, OutboundChannel};
pub use destination::{refused_range, OutboundPolicy};
pub use endpoints::ENDPOINTS_PER_ACCOUNT;
pub use error::WebhookError;
pub use outbound::{
    send as send_outbound, OutboundAnswer, OutboundRequest, ANSWER_READ_MAX, CONNECT_TIMEOUT,
    TOTAL_TIMEOUT,
};
pub use payload::{of_event as payload_of_event, title as payload_title};
pub use signature::{sign, SECRET_PREFIX};
pub use worker::{WebhookWorker, DISABLE_AFTER};
