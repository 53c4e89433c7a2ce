//! `AppState`: what every handler shares. Its own module, so routes, the extractors in `auth`
//! and the OpenAPI document depend on it and not on start-up (`app`) or on each other.

use crate::db::{Backend, Pool};
use crate::games::challenge::BotGamesCap;
use crate::http::ratelimit::Limits;
use crate::mail_context::MailContext;

/// State shared by all handlers.
#[derive(Debug)]
pub struct AppState {
    /// Database pool.
    pub pool: Pool,
    /// Its backend.
    pub backend: Backend,
    /// Whether `POST /v1/accounts` is open.
    pub open_signup: bool,
    /// Whether the relay takes non-ASCII addresses (SMTPUTF8); sign-up refuses them if not.
    pub smtp_utf8: bool,
    /// What operations that queue mail need.
    pub mail: MailContext,
    /// Rate limits of the account and challenge endpoints.
    pub limits: Limits,
    /// The most games against bots one account may have at once.
    pub bot_games_cap: BotGamesCap,
    /// `/v1/openapi.json`.
    pub openapi_json: String,
    /// `/docs`.
    pub docs_html: String,
    /// Whether `GET /metrics` answers (`TURNPOST_METRICS`).
    pub metrics: bool,
    /// The open live streams of this process.
    pub live: std::sync::Arc<crate::live::Hub>,
    /// Turns true when the server stops: every stream ends.
    pub live_stopping: tokio::sync::watch::Receiver<bool>,
    /// Where webhooks may be sent (checked when one is added, and at each delivery).
    pub outbound: std::sync::Arc<crate::webhooks::OutboundPolicy>,
    /// The server's VAPID key pair (web push; its public half served to the pages).
    pub vapid: std::sync::Arc<crate::push::VapidKey>,
}
