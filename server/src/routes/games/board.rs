//! `GET /v1/games/{id}/board.svg`.

use actix_web::{web, HttpResponse};

use crate::app::AppState;
use crate::auth::Authenticated;
use crate::db::games as q;
use crate::error::ApiError;
use crate::games::{engine, tx};

/// The current position drawn as SVG (the renderer in `turnpost-shared`, shared with the CLI).
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/board.svg", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The board", content_type = "image/svg+xml"), (status = 404, body = crate::openapi::schemas::ErrorBody)))]
pub async fn board(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let game_id = path.into_inner();
    let game = crate::routes::with_conn(&state, move |conn| {
        tx::read(conn, |conn| {
            Ok(q::find(conn, game_id)?
                .ok_or_else(|| ApiError::NotFound(format!("there is no game {game_id}")))?)
        })
    })
    .await?;
    let svg = turnpost_shared::render_svg(&engine(&game)?.board_view());
    Ok(HttpResponse::Ok().content_type("image/svg+xml").body(svg))
}
