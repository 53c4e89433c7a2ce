//! `POST /v1/tournaments/{id}/join`.

use actix_web::HttpResponse;

use crate::http::error::ApiError;
use crate::http::path_call::PathCall;
use crate::tournaments;

/// Enters you into a tournament while its entry window is open.
///
/// # Errors
/// 401; 404 unknown tournament; 409 `entry_closed`, `tournament_full`, `already_entered`;
/// 422 `bot_entrant`; 429 when you have joined as many as an hour allows.
#[utoipa::path(post, path = "/v1/tournaments/{id}/join", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament with you entered", body = turnpost_shared::api::TournamentView), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn join(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.state()
        .limits
        .check_join(&call.auth.account.name_key)?;
    call.answer(tournaments::join).await
}
