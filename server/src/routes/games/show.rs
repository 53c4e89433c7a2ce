//! `GET /v1/games/{id}`.

use actix_web::HttpResponse;

use crate::games::reads;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// The game: kind, options, seats, status, result, ply, seat to move, position, text board, the
/// last moves, and the legal moves when it is the caller's turn. Any account may read any game.
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::api::GameView), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(reads::show).await
}
