//! `POST /v1/challenges/{id}/leave`.

use actix_web::{web, HttpResponse};

use crate::games::open_seats;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Gives up the open seat you took in a challenge that still waits for players: the seat is
/// open again. (A seat you were invited to is declined with `POST /v1/games/{id}/decline`.)
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 `not_an_open_seat`,
/// `not_a_challenge`, `challenge_expired`.
#[utoipa::path(post, path = "/v1/challenges/{id}/leave", tag = "challenges", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id of the challenge")),
    responses((status = 200, description = "The challenge, your seat open again", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody)))]
pub async fn leave(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        open_seats::leave(conn, ctx, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
