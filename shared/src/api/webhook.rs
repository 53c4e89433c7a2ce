//! Webhooks (`/v1/webhooks`): a URL the server posts an account's events to, in one of four
//! formats, and what each delivery looks like.

use serde::{Deserialize, Serialize};

use crate::api::{StreamEvent, StreamEventType};

crate::named_value! {
    noun: "webhook format";
    /// How a webhook's deliveries are written.
    #[derive(Default)]
    pub enum WebhookFormat {
        /// A [`WebhookPayload`] as JSON, signed as the Standard Webhooks specification asks
        /// (`webhook-id`, `webhook-timestamp`, `webhook-signature`).
        #[default]
        Standard = "standard",
        /// A line of plain text with ntfy's `Title`, `Click`, `Tags` and `Priority` headers,
        /// to an ntfy topic URL.
        Ntfy = "ntfy",
        /// Discord's execute-webhook JSON (`content`, `embeds`).
        Discord = "discord",
        /// Slack's incoming-webhook JSON (`text`).
        Slack = "slack",
    }
}

/// `POST /v1/webhooks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreateWebhookRequest {
    /// Where deliveries are posted: an `https://` URL (plain `http://` only where the
    /// operator allows it). A URL that is, or resolves to, a loopback, private, link-local,
    /// multicast or CGNAT address is refused unless the operator allows that network.
    #[cfg_attr(
        feature = "openapi",
        schema(
            format = "uri",
            max_length = 2000,
            // What the server takes by default: https to a host named by DNS (an address
            // literal is checked against the networks it may reach; see the description).
            pattern = r"^https://[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}(?::[1-9][0-9]{0,4})?(?:/[!-~]*)?$",
            example = "https://hooks.example.org/turnpost"
        )
    )]
    pub url: String,
    /// The event types wanted (the stream's types: `move`, `challenge`, …); absent: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", schema(min_items = 1))]
    pub events: Option<Vec<StreamEventType>>,
    /// How deliveries are written; absent: `standard`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<WebhookFormat>,
    /// `ntfy` only: an access token sent as `Authorization: Bearer …` to a protected topic:
    /// up to 200 printable ASCII characters without spaces (empty: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        schema(pattern = r"^[!-~]{0,200}$", max_length = 200)
    )]
    pub ntfy_token: Option<String>,
}

/// One webhook, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookView {
    /// Its id.
    pub id: i64,
    /// Where deliveries go.
    pub url: String,
    /// The event types it gets.
    pub events: Vec<StreamEventType>,
    /// How deliveries are written.
    pub format: WebhookFormat,
    /// Whether an ntfy access token is kept for it (never shown).
    pub has_ntfy_token: bool,
    /// When it was added (RFC 3339, UTC).
    pub created_at: String,
    /// Since when its deliveries fail (none: the last one succeeded, or none failed yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failing_since: Option<String>,
    /// When it was switched off after failing for three days (`POST …/test` switches it on
    /// again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disabled_at: Option<String>,
}

/// `POST /v1/webhooks` answer: the webhook and its signing secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookCreated {
    /// The webhook.
    pub webhook: WebhookView,
    /// `whsec_` and the base64 of the key that signs its deliveries (Standard Webhooks).
    pub secret: String,
}

/// `POST /v1/webhooks/{id}/secret` answer: the new secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookSecret {
    /// `whsec_…`; deliveries from now on are signed with it.
    pub secret: String,
}

/// `GET /v1/webhooks`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookList {
    /// The account's webhooks, oldest first.
    pub webhooks: Vec<WebhookView>,
}

/// One attempt to deliver, as the delivery log shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookAttempt {
    /// When it was made (RFC 3339, UTC).
    pub at: String,
    /// The delivery's `webhook-id` (the same on every try of one delivery).
    pub webhook_id: String,
    /// The event's type (`move`, …, or `test`).
    pub event: String,
    /// Whether the endpoint took it (a 2xx answer).
    pub delivered: bool,
    /// The HTTP status answered (none: no answer, see `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// How long it took, in milliseconds.
    pub duration_ms: i64,
    /// Why it failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `GET /v1/webhooks/{id}`: the webhook and its last 50 attempts, newest first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookDetail {
    /// The webhook.
    pub webhook: WebhookView,
    /// Its last attempts, newest first.
    pub attempts: Vec<WebhookAttempt>,
}

/// `POST /v1/webhooks/{id}/test` answer: a test delivery is queued.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookTestQueued {
    /// The test delivery's `webhook-id` (find it in the delivery log).
    pub webhook_id: String,
}

/// What a `standard` webhook delivery carries (the body that is signed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WebhookPayload {
    /// The event's type: a stream event type (`move`, `challenge`, …) or `test`.
    #[serde(rename = "type")]
    pub event: String,
    /// When it happened (RFC 3339, UTC).
    pub timestamp: String,
    /// One line for people ("Your turn in Kefren #12: bert played F2-F3").
    pub text: String,
    /// The game's page (the site for a test).
    pub url: String,
    /// The event as the account's stream shows it (none for a test).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<StreamEvent>,
}
