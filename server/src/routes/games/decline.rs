//! `POST /v1/games/{id}/decline`.

use actix_web::{web, HttpResponse};

use crate::games::challenge;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Declines a challenge (the challenger withdraws it the same way): it is cancelled.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is no longer a challenge or the challenge expired.
#[utoipa::path(post, path = "/v1/games/{id}/decline", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody)))]
pub async fn decline(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        challenge::decline(conn, ctx, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
