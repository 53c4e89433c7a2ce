//! The forms of the push section of `/settings` (drawn by `super::push_section`): keep this
//! browser's subscription (posted by `/assets/push.js`), remove a device, and the switches of
//! what push brings. Every form goes through the push service (`crate::push::subscriptions`)
//! or the preferences, with the session's CSRF token.

use actix_web::http::header;
use actix_web::HttpRequest;
use turnpost_shared::api::{CreatePushSubscriptionRequest, PushKeys};

use super::channel_forms::{refused, save_switches as save_channel_switches};
use super::signed_in_form::{see_other, SignedInForm};
use super::WebAnswer;
use crate::preferences::Channel;
use crate::push::subscriptions;

/// `POST /settings/push/subscribe`: `endpoint`, `p256dh`, `auth` (from the browser's
/// `PushSubscription`), named from the `User-Agent`.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn subscribe(request: HttpRequest, posted: SignedInForm) -> WebAnswer {
    let subscription = CreatePushSubscriptionRequest {
        endpoint: posted.field("endpoint").unwrap_or_default().to_owned(),
        keys: PushKeys {
            p256dh: posted.field("p256dh").unwrap_or_default().to_owned(),
            auth: posted.field("auth").unwrap_or_default().to_owned(),
        },
        name: None,
        expiration_time: None,
    };
    let agent = request
        .headers()
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let policy = posted.state.outbound.clone();
    let account_id = posted.signed_in.account.id;
    let created = crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(subscriptions::create(
            conn,
            &policy,
            account_id,
            &subscription,
            agent.as_deref(),
        ))
    })
    .await?;
    match created {
        Ok(_) => Ok(see_other("/settings?done=push_on#push".to_owned())),
        Err(error) => refused(&posted, error.into()).await,
    }
}

/// `POST /settings/push/{id}/remove`.
///
/// # Errors
/// 403 when not signed in or without the session's token; 404; storage failures.
pub async fn remove(posted: SignedInForm<i64>) -> WebAnswer {
    posted.act(posted.path, subscriptions::remove).await?;
    Ok(see_other("/settings?done=push_removed#push".to_owned()))
}

/// `POST /settings/push/switches`: every switch of the form (an unticked box is off).
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn save_switches(posted: SignedInForm) -> WebAnswer {
    save_channel_switches(&posted, Channel::Push).await?;
    Ok(see_other("/settings?done=push_switches#push".to_owned()))
}
