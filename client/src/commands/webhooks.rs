//! `turnpost webhooks add|list|show|remove|test`: the account's webhooks (issue 46).

use clap::{Subcommand, ValueEnum};
use turnpost_shared::api::{
    CreateWebhookRequest, StreamEventType, WebhookCreated, WebhookDetail, WebhookFormat,
    WebhookList, WebhookTestQueued,
};

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// A webhook's format on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum FormatChoice {
    /// JSON signed as Standard Webhooks asks (the default).
    Standard,
    /// An ntfy topic URL: text with Title, Click, Tags and Priority.
    Ntfy,
    /// A Discord channel's webhook URL.
    Discord,
    /// A Slack incoming-webhook URL.
    Slack,
}

#[derive(Subcommand, Debug)]
pub enum WebhooksCommand {
    /// List your webhooks (the default).
    List,
    /// Add a webhook; prints its signing secret, shown this once.
    Add {
        /// Where deliveries go (https://…).
        url: String,
        /// How deliveries are written.
        #[arg(long, value_enum, default_value = "standard")]
        format: FormatChoice,
        /// Only these event types (comma-separated: challenge, accepted, started, declined,
        /// move, draw_offer, draw_declined, left, game_over, lapsed) [default: all]
        #[arg(long, value_delimiter = ',')]
        events: Vec<String>,
        /// ntfy only: an access token for a protected topic (read from TURNPOST_NTFY_TOKEN
        /// too, so it stays out of the shell's history).
        #[arg(long, env = "TURNPOST_NTFY_TOKEN", hide_env_values = true)]
        ntfy_token: Option<String>,
    },
    /// Show one webhook with its recent deliveries.
    Show {
        /// The webhook's id, from `turnpost webhooks`.
        id: i64,
    },
    /// Remove a webhook.
    Remove {
        /// The webhook's id.
        id: i64,
    },
    /// Send a test delivery now (switches a webhook that was switched off on again).
    Test {
        /// The webhook's id.
        id: i64,
    },
}

/// Runs `turnpost webhooks …`.
///
/// # Errors
/// Usage failures (an unknown event type, no profile); refusals from the server; network
/// failures.
pub fn run(
    command: Option<WebhooksCommand>,
    profile_flag: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile_flag)?;
    match command.unwrap_or(WebhooksCommand::List) {
        WebhooksCommand::List => {
            let list: WebhookList = session.client.get("/webhooks")?;
            if json {
                return Ok(print_json("webhooks", &list.webhooks)?);
            }
            if list.webhooks.is_empty() {
                return Ok(print(
                    "No webhooks. Add one with `turnpost webhooks add URL`.\n",
                )?);
            }
            let mut text = format!("{:>6}  {:<8}  {:<10}  {}\n", "ID", "FORMAT", "STATE", "URL");
            for hook in &list.webhooks {
                let state = if hook.disabled_at.is_some() {
                    "off"
                } else if hook.failing_since.is_some() {
                    "failing"
                } else {
                    "on"
                };
                text.push_str(&format!(
                    "{:>6}  {:<8}  {:<10}  {}\n",
                    hook.id, hook.format, state, hook.url
                ));
            }
            print(&text)?;
        }
        WebhooksCommand::Add {
            url,
            format,
            events,
            ntfy_token,
        } => {
            let events = if events.is_empty() {
                None
            } else {
                Some(
                    events
                        .iter()
                        .map(|name| {
                            name.parse::<StreamEventType>()
                                .map_err(|error| Failure::usage(error.to_string()))
                        })
                        .collect::<Result<Vec<_>, _>>()?,
                )
            };
            let request = CreateWebhookRequest {
                url,
                events,
                format: Some(match format {
                    FormatChoice::Standard => WebhookFormat::Standard,
                    FormatChoice::Ntfy => WebhookFormat::Ntfy,
                    FormatChoice::Discord => WebhookFormat::Discord,
                    FormatChoice::Slack => WebhookFormat::Slack,
                }),
                // The server takes the token exactly as sent; a pasted one's spaces or
                // newline are the shell's, not the token's.
                ntfy_token: ntfy_token
                    .map(|token| token.trim().to_owned())
                    .filter(|token| !token.is_empty()),
            };
            let created: WebhookCreated = session.client.post("/webhooks", &request)?;
            if json {
                return Ok(print_json("webhook", &created)?);
            }
            print(&format!(
                "Webhook {} added ({}).\nIts signing secret, shown this once:\n\n    {}\n\n\
                 Deliveries carry webhook-id, webhook-timestamp and webhook-signature (Standard \
                 Webhooks); check them with this secret.\n",
                created.webhook.id, created.webhook.format, created.secret
            ))?;
        }
        WebhooksCommand::Show { id } => {
            let detail: WebhookDetail = session.client.get(&format!("/webhooks/{id}"))?;
            if json {
                return Ok(print_json("webhook", &detail)?);
            }
            let hook = &detail.webhook;
            let events: Vec<&str> = hook.events.iter().map(|e| e.as_str()).collect();
            let mut text = format!(
                "Webhook {} ({}): {}\nEvents: {}\n",
                hook.id,
                hook.format,
                hook.url,
                events.join(", ")
            );
            if let Some(off) = &hook.disabled_at {
                text.push_str(&format!(
                    "Switched off at {off} after failing for three days; `turnpost webhooks test {}` switches it on.\n",
                    hook.id
                ));
            }
            text.push_str(&format!(
                "{:<20}  {:<14}  {:>6}  {}\n",
                "TIME", "EVENT", "MS", "ANSWER"
            ));
            for attempt in &detail.attempts {
                let answer = match (&attempt.error, attempt.status) {
                    (Some(error), _) => error.clone(),
                    (None, Some(status)) => format!("{status} delivered"),
                    (None, None) => "delivered".to_owned(),
                };
                text.push_str(&format!(
                    "{:<20}  {:<14}  {:>6}  {}\n",
                    attempt.at, attempt.event, attempt.duration_ms, answer
                ));
            }
            print(&text)?;
        }
        WebhooksCommand::Remove { id } => {
            session.client.delete(&format!("/webhooks/{id}"))?;
            if json {
                print_json("removed", &id)?;
            } else {
                print(&format!("Webhook {id} removed.\n"))?;
            }
        }
        WebhooksCommand::Test { id } => {
            let queued: WebhookTestQueued =
                session.client.post_empty(&format!("/webhooks/{id}/test"))?;
            if json {
                print_json("test", &queued)?;
            } else {
                print(&format!(
                    "A test delivery ({}) is on its way; see it with `turnpost webhooks show {id}`.\n",
                    queued.webhook_id
                ))?;
            }
        }
    }
    Ok(())
}
