//! The service behind `/v1/push/subscriptions` and the settings page: a browser's
//! subscription checked and kept (one row per device, named from its `User-Agent`), listed,
//! removed.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use turnpost_shared::api::{
    CreatePushSubscriptionRequest, PushSubscriptionList, PushSubscriptionView,
};

use super::PushError;
use crate::db::push::{self as q, NewSubscription, SubscriptionRow};
use crate::db::transaction as tx;
use crate::db::{self, DbConnection};
use crate::games::Actor;
use crate::webhooks::OutboundPolicy;

/// Devices one account may have.
pub const SUBSCRIPTIONS_PER_ACCOUNT: i64 = 20;

/// Longest device name kept.
const NAME_MAX: usize = 100;

/// A device as the API shows it.
#[must_use]
pub fn view(row: &SubscriptionRow) -> PushSubscriptionView {
    PushSubscriptionView {
        id: row.id,
        name: row.name.clone(),
        endpoint: row.endpoint.clone(),
        created_at: db::rfc3339(row.created_at),
        last_used: row.last_used.map(db::rfc3339),
    }
}

/// Base64url (padded or not, as browsers and libraries differ) as bytes.
fn base64url(text: &str) -> Option<Vec<u8>> {
    URL_SAFE_NO_PAD
        .decode(text.trim().trim_end_matches('='))
        .ok()
}

/// Checks the browser's keys: a P-256 point and a 16-byte secret.
fn check_keys(p256dh: &str, auth: &str) -> Result<(), PushError> {
    let point = base64url(p256dh)
        .ok_or_else(|| PushError::Invalid("keys.p256dh is not base64url".to_owned()))?;
    if p256::PublicKey::from_sec1_bytes(&point).is_err() || point.len() != 65 {
        return Err(PushError::Invalid(
            "keys.p256dh is not an uncompressed P-256 public key (65 bytes)".to_owned(),
        ));
    }
    match base64url(auth) {
        Some(secret) if secret.len() == 16 => Ok(()),
        Some(_) => Err(PushError::Invalid(
            "keys.auth must be 16 bytes (base64url)".to_owned(),
        )),
        None => Err(PushError::Invalid("keys.auth is not base64url".to_owned())),
    }
}

/// Keeps the subscription of a browser of `account_id` (`user_agent`: its `User-Agent`, the
/// name when none is given). The same endpoint again replaces the former row (a browser
/// subscribing anew keeps one device).
///
/// # Errors
/// [`PushError::Invalid`] for an endpoint the policy refuses or bad keys;
/// [`PushError::TooMany`] past [`SUBSCRIPTIONS_PER_ACCOUNT`]; storage failures.
pub fn create(
    conn: &mut DbConnection,
    policy: &OutboundPolicy,
    account_id: i64,
    request: &CreatePushSubscriptionRequest,
    user_agent: Option<&str>,
) -> Result<PushSubscriptionView, PushError> {
    let endpoint = policy
        .check_url(&request.endpoint)
        .map_err(|why| PushError::Invalid(format!("endpoint: {why}")))?;
    check_keys(&request.keys.p256dh, &request.keys.auth)?;
    let name = match request.name.as_deref().map(str::trim) {
        Some(name) if !name.is_empty() => name.chars().take(NAME_MAX).collect(),
        _ => crate::browser_sessions::label_of_user_agent(user_agent.unwrap_or_default()),
    };
    let endpoint = endpoint.as_str().to_owned();
    let p256dh = request.keys.p256dh.trim().trim_end_matches('=').to_owned();
    let auth = request.keys.auth.trim().trim_end_matches('=').to_owned();
    tx::write_with(conn, |conn| {
        let theirs = q::subscriptions_of_all(conn, &[account_id])?;
        let known = theirs.iter().any(|row| row.endpoint == endpoint);
        let count = i64::try_from(theirs.len()).unwrap_or(i64::MAX);
        if !known && count >= SUBSCRIPTIONS_PER_ACCOUNT {
            return Err(PushError::TooMany(count));
        }
        let id = q::upsert(
            conn,
            &NewSubscription {
                account_id,
                endpoint: &endpoint,
                p256dh: &p256dh,
                auth: &auth,
                name: &name,
                created_at: db::now(),
            },
        )?;
        let row = q::subscription(conn, id)?.ok_or(PushError::NotFound(id))?;
        Ok(view(&row))
    })
}

/// The account's devices.
///
/// # Errors
/// Storage failures.
pub fn list(conn: &mut DbConnection, account_id: i64) -> Result<PushSubscriptionList, PushError> {
    Ok(PushSubscriptionList {
        subscriptions: q::subscriptions_of_all(conn, &[account_id])?
            .iter()
            .map(view)
            .collect(),
    })
}

/// Removes one of `actor`'s devices; its notifications not yet sent are dropped.
///
/// # Errors
/// [`PushError::NotFound`]; storage failures.
pub fn remove(conn: &mut DbConnection, actor: &Actor, id: i64) -> Result<(), PushError> {
    let account_id = actor.account_id();
    if tx::write_with(conn, |conn| q::delete(conn, Some(account_id), id))? {
        Ok(())
    } else {
        Err(PushError::NotFound(id))
    }
}
