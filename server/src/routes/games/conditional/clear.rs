//! `DELETE /v1/games/{id}/conditional`.

use actix_web::HttpResponse;

use crate::games::conditional;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Clears the caller's conditional moves; answers them (none) at the game's ply.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat.
#[utoipa::path(delete, path = "/v1/games/{id}/conditional", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "Your conditional moves: none", body = turnpost_shared::api::ConditionalMoves), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn clear(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(conditional::clear).await
}
