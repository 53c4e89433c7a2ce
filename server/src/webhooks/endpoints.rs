//! The service behind `/v1/webhooks`, the settings page and `turnpost webhooks`: add (the
//! secret shown once), list, show with its delivery log, remove, rotate the secret, and queue
//! a test delivery.

use turnpost_shared::api::{
    CreateWebhookRequest, StreamEventType, WebhookAttempt, WebhookCreated, WebhookDetail,
    WebhookFormat, WebhookList, WebhookSecret, WebhookTestQueued, WebhookView,
};

use super::destination::OutboundPolicy;
use super::{payload, signature, WebhookError};
use crate::db::transaction as tx;
use crate::db::webhooks::{self as q, EndpointRow, NewDelivery, NewEndpoint};
use crate::db::{self, DbConnection};
use crate::games::Actor;

/// Webhooks one account may have.
pub const ENDPOINTS_PER_ACCOUNT: i64 = 10;

/// Longest ntfy token accepted.
const TOKEN_MAX: usize = 200;

/// The stored kinds as a list (unknown names left out).
fn kinds_of(stored: &str) -> Vec<StreamEventType> {
    stored
        .split(',')
        .filter_map(|name| name.parse().ok())
        .collect()
}

/// An endpoint as the API shows it.
#[must_use]
pub fn view(row: &EndpointRow) -> WebhookView {
    WebhookView {
        id: row.id,
        url: row.url.clone(),
        events: kinds_of(&row.kinds),
        format: row.format.parse().unwrap_or_default(),
        has_ntfy_token: row.ntfy_token.is_some(),
        created_at: db::rfc3339(row.created_at),
        failing_since: row.failing_since.map(db::rfc3339),
        disabled_at: row.disabled_at.map(db::rfc3339),
    }
}

/// Whether the endpoint wants events of type `kind`.
#[must_use]
pub fn wants(row: &EndpointRow, kind: StreamEventType) -> bool {
    row.kinds.split(',').any(|name| name == kind.as_str())
}

/// Adds a webhook for `account_id`.
///
/// # Errors
/// [`WebhookError::Invalid`] for a URL the policy refuses or a bad token;
/// [`WebhookError::TooMany`] past [`ENDPOINTS_PER_ACCOUNT`]; storage failures.
pub fn create(
    conn: &mut DbConnection,
    policy: &OutboundPolicy,
    account_id: i64,
    request: &CreateWebhookRequest,
) -> Result<WebhookCreated, WebhookError> {
    let url = policy
        .check_url(&request.url)
        .map_err(WebhookError::Invalid)?;
    let format = request.format.unwrap_or_default();
    // Judged as sent (the schema's pattern): a token is never trimmed into one.
    let token = match request.ntfy_token.as_deref() {
        None | Some("") => None,
        Some(_) if format != WebhookFormat::Ntfy => {
            return Err(WebhookError::Invalid(
                "ntfy_token goes with the ntfy format only".to_owned(),
            ))
        }
        Some(token) if token.len() > TOKEN_MAX || !token.chars().all(|c| c.is_ascii_graphic()) => {
            return Err(WebhookError::Invalid(format!(
                "ntfy_token must be up to {TOKEN_MAX} printable ASCII characters without spaces"
            )))
        }
        Some(token) => Some(token.to_owned()),
    };
    let mut kinds: Vec<StreamEventType> = match &request.events {
        None => StreamEventType::ALL.to_vec(),
        Some(events) if events.is_empty() => {
            return Err(WebhookError::Invalid(
                "events is empty: name at least one event type, or leave it out for all".to_owned(),
            ))
        }
        Some(events) => events.clone(),
    };
    kinds.sort_by_key(|kind| StreamEventType::ALL.iter().position(|k| k == kind));
    kinds.dedup();
    let kinds_text = kinds
        .iter()
        .map(|kind| kind.as_str())
        .collect::<Vec<_>>()
        .join(",");
    let secret = signature::new_secret();
    tx::write_with(conn, |conn| {
        let have = i64::try_from(q::endpoints_of(conn, account_id)?.len()).unwrap_or(i64::MAX);
        if have >= ENDPOINTS_PER_ACCOUNT {
            return Err(WebhookError::TooMany(have));
        }
        let id = q::insert_endpoint(
            conn,
            &NewEndpoint {
                account_id,
                url: url.as_str(),
                kinds: &kinds_text,
                format: format.as_str(),
                secret: &secret,
                ntfy_token: token.as_deref(),
                created_at: db::now(),
            },
        )?;
        let row = q::endpoint(conn, account_id, id)?.ok_or(WebhookError::NotFound(id))?;
        Ok(WebhookCreated {
            webhook: view(&row),
            secret: secret.clone(),
        })
    })
}

/// The account's webhooks.
///
/// # Errors
/// Storage failures.
pub fn list(conn: &mut DbConnection, account_id: i64) -> Result<WebhookList, WebhookError> {
    Ok(WebhookList {
        webhooks: q::endpoints_of(conn, account_id)?
            .iter()
            .map(view)
            .collect(),
    })
}

/// One webhook with its delivery log.
///
/// # Errors
/// [`WebhookError::NotFound`]; storage failures.
pub fn detail(
    conn: &mut DbConnection,
    account_id: i64,
    id: i64,
) -> Result<WebhookDetail, WebhookError> {
    let row = q::endpoint(conn, account_id, id)?.ok_or(WebhookError::NotFound(id))?;
    let attempts = q::attempts_of(conn, id)?
        .into_iter()
        .map(|attempt| WebhookAttempt {
            at: db::rfc3339(attempt.at),
            webhook_id: attempt.webhook_id,
            event: attempt.event_type,
            delivered: attempt.delivered,
            status: attempt.status.and_then(|status| u16::try_from(status).ok()),
            duration_ms: attempt.duration_ms,
            error: attempt.error,
        })
        .collect();
    Ok(WebhookDetail {
        webhook: view(&row),
        attempts,
    })
}

/// Removes one of `actor`'s webhooks (its queued deliveries and log with it).
///
/// # Errors
/// [`WebhookError::NotFound`]; storage failures.
pub fn remove(conn: &mut DbConnection, actor: &Actor, id: i64) -> Result<(), WebhookError> {
    let account_id = actor.account_id();
    let removed = tx::write_with(conn, |conn| {
        Ok::<bool, WebhookError>(q::delete_endpoint(conn, account_id, id)?)
    })?;
    if removed {
        Ok(())
    } else {
        Err(WebhookError::NotFound(id))
    }
}

/// Replaces a webhook's secret; the new one is shown once. Deliveries not yet made are signed
/// with it.
///
/// # Errors
/// [`WebhookError::NotFound`]; storage failures.
pub fn rotate_secret(
    conn: &mut DbConnection,
    account_id: i64,
    id: i64,
) -> Result<WebhookSecret, WebhookError> {
    let secret = signature::new_secret();
    tx::write_with(conn, |conn| {
        q::endpoint(conn, account_id, id)?.ok_or(WebhookError::NotFound(id))?;
        q::set_secret(conn, id, &secret)?;
        Ok(WebhookSecret {
            secret: secret.clone(),
        })
    })
}

/// Queues a test delivery, due at once; a webhook switched off after failing is switched on
/// again (the test shows whether it works now).
///
/// # Errors
/// [`WebhookError::NotFound`]; storage failures.
pub fn queue_test(
    conn: &mut DbConnection,
    site: &str,
    account_id: i64,
    id: i64,
) -> Result<WebhookTestQueued, WebhookError> {
    let message_id = signature::new_message_id();
    tx::write_with(conn, |conn| {
        let row = q::endpoint(conn, account_id, id)?.ok_or(WebhookError::NotFound(id))?;
        if row.disabled_at.is_some() {
            q::switch_on(conn, id)?;
        }
        let now = db::now();
        let body = serde_json::to_string(&payload::test(site, db::rfc3339(now)))
            .map_err(|error| WebhookError::Invalid(error.to_string()))?;
        q::enqueue(
            conn,
            &NewDelivery {
                endpoint_id: id,
                event_id: None,
                webhook_id: &message_id,
                event_type: payload::TEST_TYPE,
                body: &body,
                next_try_at: now,
                status: "pending",
                created_at: now,
            },
        )?;
        Ok(WebhookTestQueued {
            webhook_id: message_id.clone(),
        })
    })
}

/// Every webhook of the account with its delivery log (the settings page).
///
/// # Errors
/// Storage failures.
pub fn details(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Vec<WebhookDetail>, WebhookError> {
    q::endpoints_of(conn, account_id)?
        .iter()
        .map(|row| detail(conn, account_id, row.id))
        .collect()
}
