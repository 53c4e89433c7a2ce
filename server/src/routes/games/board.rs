//! `GET /v1/games/{id}/board.svg`.

use actix_web::HttpResponse;

use crate::games::reads;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// The current position drawn as SVG (the renderer in `turnpost-shared`, shared with the CLI).
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The board", content_type = "image/svg+xml"), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn board(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer_as("image/svg+xml", |conn, _, game_id| {
        reads::board_svg(conn, game_id)
    })
    .await
}
