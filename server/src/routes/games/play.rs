//! `POST /v1/games/{id}/moves`.

use actix_web::{web, HttpResponse};
use turnpost_shared::PlayMoveRequest;

use crate::auth::Authenticated;
use crate::error::ApiError;
use crate::games::moving;
use crate::state::AppState;

/// Plays `{move, ply}`, where `ply` is the number of moves the client saw played. An identical
/// retry of a recorded move answers as the first time did.
///
/// # Errors
/// 401; 404 unknown game; 403 `not_your_game` / `not_your_turn`; 409 with the current game
/// (`{"error", "game"}`) for a stale ply, a taken ply, a game not started or over; 422
/// `move_syntax` (with `offset` and `expected`) or `illegal_move` (with the rule).
#[utoipa::path(post, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    request_body = turnpost_shared::PlayMoveRequest,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 201, description = "The game after the move", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, description = "Stale: the error and the current game"), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn play(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    body: web::Json<PlayMoveRequest>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let request = body.into_inner();
    let view = crate::routes::with_games(&state, move |conn, ctx| {
        moving::play(conn, ctx, &actor, game_id, &request)
    })
    .await?;
    Ok(HttpResponse::Created().json(view))
}
