//! `POST /v1/games/{id}/claim`.

use actix_web::{web, HttpResponse};

use crate::games::ending;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Claims the win on time: in a game with timeout mode `claim`, once the seat to move is past
/// its deadline, any other seat still playing may take it out as a loss on time (in a two-seat
/// game that ends the game; with three or more seats playing it goes on without the late seat).
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 `not_active`, `not_claimable` or
/// `left_game`.
#[utoipa::path(post, path = "/v1/games/{id}/claim", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The finished game", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody)))]
pub async fn claim(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        ending::claim(conn, ctx, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
