//! `POST /v1/games/{id}/rematch`.

use actix_web::{web, HttpResponse};

use crate::http::auth::Authenticated;
use crate::http::budgeted_challenge;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Challenges the players of a finished game again: same kind, options and clock, seats
/// rotated (seat 1's player moves to the last seat). The others accept as usual. A game has
/// one rematch: asking again (anyone of its players) answers it with 200.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 `not_finished`; 422 when a player is
/// gone; 429 when the caller has sent, or a player has received, as many challenges as an
/// hour allows.
#[utoipa::path(post, path = "/v1/games/{id}/rematch", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id of the finished game")),
    responses((status = 201, description = "The rematch challenge", body = turnpost_shared::api::GameView), (status = 200, description = "The rematch made before", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn rematch(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let (view, made) = budgeted_challenge::rematch(&state, auth.actor(), path.into_inner()).await?;
    Ok(if made {
        HttpResponse::Created().json(view)
    } else {
        HttpResponse::Ok().json(view)
    })
}
