//! The webhooks section of `/settings` as it is drawn: each webhook listed with its recent
//! deliveries and the forms to test or remove it, the form that adds one, and the switches of
//! what webhooks carry (apart from mail's). The forms post to `super::webhooks_settings`.

use maud::{html, Markup};
use turnpost_shared::api::{ChannelCategories, WebhookDetail, WebhookFormat};

use super::channel_switches::switches_form;
use super::viewer::SignedIn;
use crate::webhooks::endpoints;

/// Attempts shown per webhook (the API shows all 50 kept).
const SHOWN_ATTEMPTS: usize = 10;

/// The section.
#[must_use]
pub fn section(
    signed_in: &SignedIn,
    hooks: &[WebhookDetail],
    switches: &ChannelCategories,
) -> Markup {
    html! {
        h2 #webhooks { "Webhooks" }
        p { "turnpost can post your games' events to a URL: signed JSON (Standard Webhooks), "
            "an ntfy topic, a Discord or a Slack channel. They follow the switches below and "
            "your muted games." }
        @if !hooks.is_empty() {
            ul.rows {
                @for hook in hooks {
                    @let w = &hook.webhook;
                    li {
                        span { strong { (w.format) } " · " code { (w.url) }
                            @if w.disabled_at.is_some() { " · " strong { "switched off after failing for three days" } }
                            @else if w.failing_since.is_some() { " · failing" } }
                        form.inline method="post" action={ "/settings/webhooks/" (w.id) "/test" } {
                            (signed_in.csrf_field())
                            button type="submit" aria-label={ "Test webhook " (w.id) } { "Test" }
                        }
                        form.inline method="post" action={ "/settings/webhooks/" (w.id) "/remove" } {
                            (signed_in.csrf_field())
                            button type="submit" aria-label={ "Remove webhook " (w.id) } { "Remove" }
                        }
                        @if !hook.attempts.is_empty() {
                            details {
                                summary { "Recent deliveries" }
                                table {
                                    thead { tr { th { "Time (UTC)" } th { "Event" } th { "Answer" } th { "ms" } } }
                                    tbody {
                                        @for attempt in hook.attempts.iter().take(SHOWN_ATTEMPTS) {
                                            tr {
                                                td { (attempt.at) }
                                                td { (attempt.event) }
                                                td { @match (&attempt.error, attempt.status) {
                                                    (None, Some(status)) => { (status) " delivered" }
                                                    (Some(error), _) => { (error) }
                                                    (None, None) => { "delivered" }
                                                } }
                                                td { (attempt.duration_ms) }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if hooks.len() < usize::try_from(endpoints::ENDPOINTS_PER_ACCOUNT).unwrap_or(0) {
            form.stack method="post" action="/settings/webhooks" {
                (signed_in.csrf_field())
                label for="webhook_url" { "URL (https://…)" }
                input #webhook_url type="url" name="url" required autocapitalize="none" spellcheck="false";
                label for="webhook_format" { "Format" }
                select #webhook_format name="format" {
                    @for format in WebhookFormat::ALL { option value=(format.as_str()) { (format) } }
                }
                label for="webhook_token" { "ntfy access token (optional)" }
                input #webhook_token type="password" name="ntfy_token" autocomplete="off";
                button type="submit" { "Add webhook" }
            }
        }
        (switches_form(signed_in, "/settings/webhooks/switches", "What webhooks carry", "Save webhook switches", switches))
    }
}
