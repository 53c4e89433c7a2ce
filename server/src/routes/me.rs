//! `/v1/me`: the caller's account, notification preferences and vacation.

use actix_web::HttpResponse;
use turnpost_shared::api::{NotificationSettingsPatch, VacationRequest};

use crate::games::vacation;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::path_call::Call;
use crate::preferences;

/// The account of the token used.
#[utoipa::path(get, path = "/v1/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::api::Account), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(auth.account.to_api())
}

/// The caller's notification preferences.
///
/// # Errors
/// 401; storage failures.
#[utoipa::path(get, path = "/v1/me/notifications", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "time_zone, turn_mail, digest_hour, categories, muted_games", body = turnpost_shared::api::NotificationSettings), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn notifications(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer_own(preferences::show).await
}

/// Changes the caller's notification preferences; answers the new ones.
///
/// # Errors
/// 401; 404 a game to mute that does not exist; 422 `invalid_time_zone`,
/// `invalid_digest_hour`, `not_your_game`.
#[utoipa::path(patch, path = "/v1/me/notifications", tag = "notifications", security(("bearer" = [])),
    request_body = turnpost_shared::api::NotificationSettingsPatch,
    responses((status = 200, description = "The new preferences", body = turnpost_shared::api::NotificationSettings), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, description = "A game to mute that does not exist", body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn update_notifications(
    call: Call,
    patch: Result<JsonObject<NotificationSettingsPatch>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let patch = patch?.into_inner();
    let answer =
        call.answer(move |conn, actor, ()| preferences::update(conn, actor.account_id(), &patch));
    Ok(answer.await?)
}

/// The caller's vacation days this year and the running vacation.
///
/// # Errors
/// 401; storage failures.
#[utoipa::path(get, path = "/v1/me/vacation", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "year, days_used, days_left, until", body = turnpost_shared::api::Vacation), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn vacation(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, actor, ()| vacation::show(conn, actor))
        .await
}

/// Takes vacation days now (after the running vacation, if one runs): every clock of the
/// caller pauses for that long.
///
/// # Errors
/// 401; 422 `invalid_vacation`; 409 `vacation_exhausted` (fewer days left this year than
/// asked).
#[utoipa::path(post, path = "/v1/me/vacation", tag = "notifications", security(("bearer" = [])),
    request_body = turnpost_shared::api::VacationRequest,
    responses((status = 200, description = "The vacation", body = turnpost_shared::api::Vacation), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn take_vacation(
    call: Call,
    request: Result<JsonObject<VacationRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let days = request?.into_inner().days;
    let answer =
        call.answer(move |conn, actor, ()| vacation::take(conn, actor, days, crate::db::now()));
    Ok(answer.await?)
}
