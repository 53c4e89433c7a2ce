//! `GET /v1/games/{id}/board.svg`.

use actix_web::{web, HttpResponse};

use crate::games::reads;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The current position drawn as SVG (the renderer in `turnpost-shared`, shared with the CLI).
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The board", content_type = "image/svg+xml"), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn board(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let game_id = path.into_inner();
    let svg =
        crate::http::blocking::with_games(&state, move |conn, _| reads::board_svg(conn, game_id))
            .await?;
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}
