//! The forms of the webhooks section of `/settings` (drawn by `super::webhooks_section`): add
//! one (its secret shown once, in the page's notice), test or remove one, and the switches of
//! what webhooks carry. Every form goes through the webhook service
//! (`crate::webhooks::endpoints`) or the preferences, with the session's CSRF token.

use actix_web::http::StatusCode;
use turnpost_shared::api::{CreateWebhookRequest, WebhookFormat};

use super::channel_forms::{refused, save_switches as save_channel_switches};
use super::settings::render;
use super::signed_in_form::{see_other, SignedInForm};
use super::WebAnswer;
use crate::http::error::ApiError;
use crate::preferences::Channel;
use crate::webhooks::endpoints;

/// `POST /settings/webhooks`: `url`, `format`, `ntfy_token`.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn add(posted: SignedInForm) -> WebAnswer {
    let format = match posted
        .field("format")
        .unwrap_or("standard")
        .parse::<WebhookFormat>()
    {
        Ok(format) => format,
        Err(error) => {
            return refused(
                &posted,
                ApiError::invalid("invalid_webhook", error.to_string()),
            )
            .await
        }
    };
    let request = CreateWebhookRequest {
        url: posted.field("url").unwrap_or_default().to_owned(),
        events: None,
        format: Some(format),
        // A pasted token's surrounding spaces are the paste's (the API takes it as sent).
        ntfy_token: posted
            .field("ntfy_token")
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
    };
    let policy = posted.state.outbound.clone();
    let account_id = posted.signed_in.account.id;
    let created = crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(endpoints::create(conn, &policy, account_id, &request))
    })
    .await?;
    match created {
        Ok(created) => {
            let note = format!(
                "Webhook added. Its signing secret, shown this once: {}",
                created.secret
            );
            render(
                &posted.state,
                &posted.signed_in,
                Some(Ok(&note)),
                StatusCode::OK,
            )
            .await
        }
        Err(error) => refused(&posted, error.into()).await,
    }
}

/// `POST /settings/webhooks/{id}/remove`.
///
/// # Errors
/// 403 when not signed in or without the session's token; 404; storage failures.
pub async fn remove(posted: SignedInForm<i64>) -> WebAnswer {
    posted.act(posted.path, endpoints::remove).await?;
    Ok(see_other(
        "/settings?done=webhook_removed#webhooks".to_owned(),
    ))
}

/// `POST /settings/webhooks/{id}/test`.
///
/// # Errors
/// 403 when not signed in or without the session's token; 404; storage failures.
pub async fn test(posted: SignedInForm<i64>) -> WebAnswer {
    let site = posted.state.mail.public_url.clone();
    posted
        .act(posted.path, move |conn, actor, id| {
            endpoints::queue_test(conn, &site, actor.account_id(), id)
        })
        .await?;
    Ok(see_other("/settings?done=webhook_test#webhooks".to_owned()))
}

/// `POST /settings/webhooks/switches`: every switch of the form (an unticked box is off).
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn save_switches(posted: SignedInForm) -> WebAnswer {
    save_channel_switches(&posted, Channel::Webhooks).await?;
    Ok(see_other(
        "/settings?done=webhook_switches#webhooks".to_owned(),
    ))
}
