//! `/v1/push` (issue 46): the server's VAPID public key, and the caller's browsers (devices)
//! that get web push notifications: add one (the browser's `PushSubscription`), list, remove.

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use turnpost_shared::api::{CreatePushSubscriptionRequest, PushKey};

use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::path_call::{Call, PathCall};
use crate::http::state::AppState;
use crate::push::subscriptions;

/// The server's VAPID public key: the `applicationServerKey` a browser subscribes with.
#[utoipa::path(get, path = "/v1/push/key", tag = "push",
    responses((status = 200, body = turnpost_shared::api::PushKey)))]
pub async fn key(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok().json(PushKey {
        public_key: state.vapid.public_key().to_owned(),
    })
}

/// The caller's devices.
///
/// # Errors
/// 401.
#[utoipa::path(get, path = "/v1/push/subscriptions", tag = "push", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::api::PushSubscriptionList), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer_own(subscriptions::list).await
}

/// Adds a browser: its `PushSubscription` as `toJSON()` gives it (`endpoint`, `keys.p256dh`,
/// `keys.auth`), and a name (absent: from the `User-Agent`). The endpoint is checked as a
/// webhook URL is (https; no private address unless the operator allows it). The same
/// endpoint again replaces the former device. At most 20 per account.
///
/// # Errors
/// 401; 400/413/415/422 for the body; 422 `invalid_push_subscription` (the endpoint or keys
/// refused, with why); 409 `push_subscriptions_limit` past 20.
#[utoipa::path(post, path = "/v1/push/subscriptions", tag = "push", security(("bearer" = [])),
    request_body = turnpost_shared::api::CreatePushSubscriptionRequest,
    responses((status = 201, description = "Added", body = turnpost_shared::api::PushSubscriptionView), (status = 400, body = turnpost_shared::api::ErrorBody), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 413, body = turnpost_shared::api::ErrorBody), (status = 415, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    request: HttpRequest,
    call: Call,
    body: Result<JsonObject<CreatePushSubscriptionRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let subscription = body?.into_inner();
    let agent = request
        .headers()
        .get(header::USER_AGENT)
        .and_then(|value| value.to_str().ok())
        .map(str::to_owned);
    let policy = call.state().outbound.clone();
    let created = call.run(move |conn, actor, ()| {
        let account = actor.account_id();
        subscriptions::create(conn, &policy, account, &subscription, agent.as_deref())
    });
    Ok(HttpResponse::Created().json(created.await?))
}

/// Removes a device; its notifications not yet sent are dropped.
///
/// # Errors
/// 401; 404 for a device the caller does not have.
#[utoipa::path(delete, path = "/v1/push/subscriptions/{id}", tag = "push", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Subscription id")),
    responses((status = 204, description = "Removed"), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn remove(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.run(subscriptions::remove).await?;
    Ok(HttpResponse::NoContent().finish())
}
