//! `POST /v1/tournaments/{id}/start`.

use actix_web::HttpResponse;

use crate::http::error::ApiError;
use crate::http::path_call::PathCall;
use crate::tournaments;

/// Starts a tournament you organise now, before its entries would close: once at least its
/// minimum of players has entered (2; 3 for `tables`), entries close and round 1
/// is paired within a moment; the entrants are mailed their games.
///
/// # Errors
/// 401; 403 `not_organiser`; 404 unknown tournament; 409 `entry_closed` (started or over),
/// `too_few_entrants`.
#[utoipa::path(post, path = "/v1/tournaments/{id}/start", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament, its entries closed; round 1 follows at once", body = turnpost_shared::api::TournamentView), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody)))]
pub async fn start(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(tournaments::start_now).await
}
