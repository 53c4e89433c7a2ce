//! A delivery written in its endpoint's format: the headers and body of the request.
//!
//! - `standard`: the payload's JSON as stored, signed as Standard Webhooks asks;
//! - `ntfy`: the line of text, with `Title`, `Click` (the game), `Tags`, `Priority` and, when
//!   given, `Authorization: Bearer` (<https://docs.ntfy.sh/publish/>);
//! - `discord`: `{"content", "embeds": [{title, url, description}]}` with no mention parsed, so
//!   a player's name cannot ping a channel (execute-webhook);
//! - `slack`: `{"text"}` with the game's link as `<url|title>` (incoming webhooks).
//!
//! Every format carries the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers:
//! the others ignore them, and a receiver of any format can check and deduplicate.

use base64::Engine as _;
use serde_json::json;
use turnpost_shared::api::{WebhookFormat, WebhookPayload};

use super::payload::title;
use super::signature::sign;

/// The parts of one try of a delivery.
#[derive(Debug, Clone)]
pub struct Written {
    /// Headers, content type included.
    pub headers: Vec<(String, String)>,
    /// Body.
    pub body: String,
}

/// What one try needs.
#[derive(Debug, Clone, Copy)]
pub struct Signing<'a> {
    /// The endpoint's `whsec_` secret.
    pub secret: &'a str,
    /// The delivery's `webhook-id`.
    pub message_id: &'a str,
    /// This try's time, in seconds since the epoch.
    pub timestamp: i64,
}

/// The request of one try of `stored` (the payload's JSON) in `format`; `None` when the stored
/// payload or the secret cannot be read.
#[must_use]
pub fn write(
    format: WebhookFormat,
    stored: &str,
    signing: Signing<'_>,
    ntfy_token: Option<&str>,
) -> Option<Written> {
    let payload: WebhookPayload = serde_json::from_str(stored).ok()?;
    let (content_type, body, mut headers) = match format {
        WebhookFormat::Standard => ("application/json", stored.to_owned(), Vec::new()),
        WebhookFormat::Ntfy => {
            let mut headers = vec![
                ("Title".to_owned(), header_text(&title(&payload))),
                ("Click".to_owned(), payload.url.clone()),
                ("Tags".to_owned(), format!("turnpost,{}", payload.event)),
                ("Priority".to_owned(), priority(&payload).to_owned()),
            ];
            if let Some(token) = ntfy_token {
                headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
            }
            ("text/plain; charset=utf-8", payload.text.clone(), headers)
        }
        WebhookFormat::Discord => {
            let body = json!({
                "content": format!("{} {}", payload.text, payload.url),
                "embeds": [{
                    "title": title(&payload),
                    "url": payload.url,
                    "description": payload.text,
                }],
                "allowed_mentions": {"parse": []},
            });
            ("application/json", body.to_string(), Vec::new())
        }
        WebhookFormat::Slack => {
            let body = json!({
                "text": format!(
                    "<{}|{}> {}",
                    payload.url,
                    slack_escape(&title(&payload)),
                    slack_escape(&payload.text)
                ),
            });
            ("application/json", body.to_string(), Vec::new())
        }
    };
    let signature = sign(signing.secret, signing.message_id, signing.timestamp, &body)?;
    headers.extend([
        ("Content-Type".to_owned(), content_type.to_owned()),
        ("webhook-id".to_owned(), signing.message_id.to_owned()),
        (
            "webhook-timestamp".to_owned(),
            signing.timestamp.to_string(),
        ),
        ("webhook-signature".to_owned(), signature),
    ]);
    Some(Written { headers, body })
}

/// ntfy's priority: your turn and challenges are high (4), the rest default (3).
fn priority(payload: &WebhookPayload) -> &'static str {
    let urgent = payload.data.as_ref().is_some_and(|event| {
        matches!(
            event.for_you.as_deref(),
            Some("turn" | "challenges" | "draw_offers")
        )
    });
    if urgent {
        "4"
    } else {
        "3"
    }
}

/// A header value: as is in ASCII, else RFC 2047 encoded (ntfy decodes it; a player's name
/// may be any script).
fn header_text(text: &str) -> String {
    if text.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        text.to_owned()
    } else {
        format!(
            "=?UTF-8?B?{}?=",
            base64::engine::general_purpose::STANDARD.encode(text)
        )
    }
}

/// Slack's three control characters as it asks them escaped.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_payload_is_written_in_every_format() {
        let payload =
            super::super::payload::test("https://t.example", "2026-11-29T00:00:00Z".into());
        let stored = serde_json::to_string(&payload).unwrap_or_default();
        let signing = Signing {
            secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            message_id: "msg_1",
            timestamp: 1,
        };
        for format in WebhookFormat::ALL {
            let written = write(format, &stored, signing, Some("tk_1"));
            assert!(written.is_some(), "{format}");
        }
        let ntfy = write(WebhookFormat::Ntfy, &stored, signing, Some("tk_1"));
        assert!(ntfy.is_some_and(|w| w
            .headers
            .iter()
            .any(|(n, v)| n == "Authorization" && v == "Bearer tk_1")));
        assert_eq!(header_text("anna"), "anna");
        assert!(header_text("Zoë").starts_with("=?UTF-8?B?"));
        assert_eq!(slack_escape("<a&b>"), "&lt;a&amp;b&gt;");
    }
}
