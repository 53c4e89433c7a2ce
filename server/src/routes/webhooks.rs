//! `/v1/webhooks` (issue 46): add a webhook (its secret in the answer, once), list them, show
//! one with its delivery log, remove one, queue a test delivery, rotate the secret.

use actix_web::HttpResponse;
use turnpost_shared::api::CreateWebhookRequest;

use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::path_call::{Call, PathCall};
use crate::webhooks::endpoints;

/// Adds a webhook: the URL (https unless the operator allows http; no private address unless
/// allowed), the event types (absent: all), the format (`standard`, `ntfy`, `discord`,
/// `slack`). The answer carries the `whsec_` signing secret, shown this once. At most 10 per
/// account.
///
/// # Errors
/// 401; 400/413/415/422 for the body; 422 `invalid_webhook` (the URL or token refused, with
/// why); 409 `webhooks_limit` past 10.
#[utoipa::path(post, path = "/v1/webhooks", tag = "webhooks", security(("bearer" = [])),
    request_body = turnpost_shared::api::CreateWebhookRequest,
    responses((status = 201, description = "Added; the secret is shown this once", body = turnpost_shared::api::WebhookCreated), (status = 400, body = turnpost_shared::api::ErrorBody), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 413, body = turnpost_shared::api::ErrorBody), (status = 415, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    call: Call,
    body: Result<JsonObject<CreateWebhookRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let request = body?.into_inner();
    let policy = call.state().outbound.clone();
    let created = call
        .run(move |conn, actor, ()| endpoints::create(conn, &policy, actor.account_id(), &request));
    Ok(HttpResponse::Created().json(created.await?))
}

/// The caller's webhooks (without their secrets).
///
/// # Errors
/// 401.
#[utoipa::path(get, path = "/v1/webhooks", tag = "webhooks", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::api::WebhookList), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer_own(endpoints::list).await
}

/// One webhook with its last 50 delivery attempts (time, status, duration), newest first.
///
/// # Errors
/// 401; 404 for a webhook the caller does not have.
#[utoipa::path(get, path = "/v1/webhooks/{id}", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Webhook id")),
    responses((status = 200, body = turnpost_shared::api::WebhookDetail), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, actor, id| endpoints::detail(conn, actor.account_id(), id))
        .await
}

/// Removes a webhook; deliveries not yet made are dropped.
///
/// # Errors
/// 401; 404 for a webhook the caller does not have.
#[utoipa::path(delete, path = "/v1/webhooks/{id}", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Webhook id")),
    responses((status = 204, description = "Removed"), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn remove(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.run(endpoints::remove).await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Queues a test delivery (type `test`), sent at once; a webhook switched off after failing
/// is switched on again. Its result shows in the delivery log.
///
/// # Errors
/// 401; 404 for a webhook the caller does not have.
#[utoipa::path(post, path = "/v1/webhooks/{id}/test", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Webhook id")),
    responses((status = 202, description = "Queued", body = turnpost_shared::api::WebhookTestQueued), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn test(call: PathCall) -> Result<HttpResponse, ApiError> {
    let site = call.state().mail.public_url.clone();
    let queued = call
        .run(move |conn, actor, id| endpoints::queue_test(conn, &site, actor.account_id(), id))
        .await?;
    Ok(HttpResponse::Accepted().json(queued))
}

/// Replaces the webhook's signing secret; the new one is in the answer, shown this once.
///
/// # Errors
/// 401; 404 for a webhook the caller does not have.
#[utoipa::path(post, path = "/v1/webhooks/{id}/secret", tag = "webhooks", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Webhook id")),
    responses((status = 200, description = "The new secret", body = turnpost_shared::api::WebhookSecret), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn rotate_secret(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, actor, id| endpoints::rotate_secret(conn, actor.account_id(), id))
        .await
}
