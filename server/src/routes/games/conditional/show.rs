//! `GET /v1/games/{id}/conditional`.

use actix_web::HttpResponse;

use crate::games::conditional;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// The caller's conditional moves: the ply they start at (the game's) and the lines, each a
/// list of moves starting with the opponent's. Private to the seat's player.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat.
#[utoipa::path(get, path = "/v1/games/{id}/conditional", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "Your conditional moves", body = turnpost_shared::api::ConditionalMoves), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(conditional::get).await
}
