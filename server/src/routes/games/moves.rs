//! `GET /v1/games/{id}/moves`.

use actix_web::{web, HttpResponse};

use crate::games::reads;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Every move: ply, seat, canonical move, time, and whether the server played it; for the
/// game's players, the messages sent with the actions (`messages`, without those the caller
/// muted; never shown to anyone else).
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The moves", body = turnpost_shared::MoveList), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn list(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let viewer = auth.actor().account_id();
    let game_id = path.into_inner();
    let moves = crate::http::blocking::with_games(&state, move |conn, _| {
        reads::moves(conn, game_id, Some(viewer))
    })
    .await?;
    Ok(HttpResponse::Ok().json(moves))
}
