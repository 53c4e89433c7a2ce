//! `POST /v1/challenges/{id}/join`.

use actix_web::{web, HttpResponse};

use crate::games::open_seats;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Takes the first open seat of a challenge, accepted at once; the game starts when every seat
/// is filled and accepted. Joining again the seat you took answers the same.
///
/// # Errors
/// 401; 404 unknown game; 409 `already_seated` (you hold another seat of it),
/// `no_open_seat`, `not_a_challenge`, `challenge_expired`; 429 when you have joined as many
/// challenges as an hour allows.
#[utoipa::path(post, path = "/v1/challenges/{id}/join", tag = "challenges", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id of the challenge")),
    responses((status = 200, description = "The challenge (active when your seat was the last one)", body = turnpost_shared::GameView), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody), (status = 429, body = turnpost_shared::ErrorBody)))]
pub async fn join(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.limits.check_join(&auth.account.name_key)?;
    let actor = auth.actor();
    let game_id = path.into_inner();
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        open_seats::join(conn, ctx, &actor, game_id)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
