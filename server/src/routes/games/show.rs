//! `GET /v1/games/{id}`.

use actix_web::{web, HttpResponse};

use crate::games::reads;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The game: kind, options, seats, status, result, ply, seat to move, position, text board, the
/// last moves, and the legal moves when it is the caller's turn. Any account may read any game.
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::GameView), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn show(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let view = crate::http::blocking::with_games(&state, move |conn, _| {
        reads::show(conn, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
