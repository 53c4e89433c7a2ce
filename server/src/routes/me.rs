//! `/v1/me`: the caller's account, notification preferences and vacation.

use actix_web::{web, HttpResponse};
use turnpost_shared::{NotificationSettingsPatch, VacationRequest};

use crate::games::vacation;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::state::AppState;
use crate::preferences;

/// The account of the token used.
#[utoipa::path(get, path = "/v1/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::Account), (status = 401, body = turnpost_shared::ErrorBody)))]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(auth.account.to_api())
}

/// The caller's notification preferences.
///
/// # Errors
/// 401; storage failures.
#[utoipa::path(get, path = "/v1/me/notifications", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "time_zone, turn_mail, digest_hour, categories, muted_games", body = turnpost_shared::NotificationSettings), (status = 401, body = turnpost_shared::ErrorBody)))]
pub async fn notifications(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let account_id = auth.account.id;
    let settings = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(preferences::show(conn, account_id)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(settings))
}

/// Changes the caller's notification preferences; answers the new ones.
///
/// # Errors
/// 401; 422 `invalid_time_zone`, `invalid_digest_hour`, `not_your_game`.
#[utoipa::path(patch, path = "/v1/me/notifications", tag = "notifications", security(("bearer" = [])),
    request_body = turnpost_shared::NotificationSettingsPatch,
    responses((status = 200, description = "The new preferences", body = turnpost_shared::NotificationSettings), (status = 401, body = turnpost_shared::ErrorBody), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn update_notifications(
    state: web::Data<AppState>,
    auth: Authenticated,
    patch: Result<JsonObject<NotificationSettingsPatch>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let account_id = auth.account.id;
    // Refused only once the token passed (see `crate::http::auth`).
    let patch = patch?.into_inner();
    let settings = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(preferences::update(conn, account_id, &patch)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(settings))
}

/// The caller's vacation days this year and the running vacation.
///
/// # Errors
/// 401; storage failures.
#[utoipa::path(get, path = "/v1/me/vacation", tag = "notifications", security(("bearer" = [])),
    responses((status = 200, description = "year, days_used, days_left, until", body = turnpost_shared::Vacation), (status = 401, body = turnpost_shared::ErrorBody)))]
pub async fn vacation(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let view =
        crate::http::blocking::with_games(&state, move |conn, _| vacation::show(conn, &actor))
            .await?;
    Ok(HttpResponse::Ok().json(view))
}

/// Takes vacation days now (after the running vacation, if one runs): every clock of the
/// caller pauses for that long.
///
/// # Errors
/// 401; 422 `invalid_vacation`, `vacation_exhausted`.
#[utoipa::path(post, path = "/v1/me/vacation", tag = "notifications", security(("bearer" = [])),
    request_body = turnpost_shared::VacationRequest,
    responses((status = 200, description = "The vacation", body = turnpost_shared::Vacation), (status = 401, body = turnpost_shared::ErrorBody), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn take_vacation(
    state: web::Data<AppState>,
    auth: Authenticated,
    request: Result<web::Json<VacationRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let actor = auth.actor();
    let days = request?.days;
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        vacation::take(conn, ctx, &actor, days, crate::db::now())
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
