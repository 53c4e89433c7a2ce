//! `GET /v1/games/{id}/conditional`.

use actix_web::{web, HttpResponse};

use crate::games::conditional;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The caller's conditional moves: the ply they start at (the game's) and the lines, each a
/// list of moves starting with the opponent's. Private to the seat's player.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat.
#[utoipa::path(get, path = "/v1/games/{id}/conditional", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "Your conditional moves", body = turnpost_shared::ConditionalMoves), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn show(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let lines = crate::http::blocking::with_games(&state, move |conn, _| {
        conditional::get(conn, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(lines))
}
