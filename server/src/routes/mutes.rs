//! Muting messages (issue 28): `POST`/`DELETE /v1/games/{id}/mute` (a game's messages),
//! `POST`/`DELETE /v1/players/{name}/mute` (a person's, in every game), and
//! `GET /v1/me/mutes`. Each answers what the caller has muted now. Muted messages are left out
//! of the caller's turn cards, the move list and the game page.

use actix_web::{web, HttpResponse};

use crate::games::messages;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Mutes the messages of a game the caller plays in (again: no change).
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it.
#[utoipa::path(post, path = "/v1/games/{id}/mute", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::MessageMutes), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn mute_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    game(state, auth, path.into_inner(), true).await
}

/// Shows the messages of a game again.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it.
#[utoipa::path(delete, path = "/v1/games/{id}/mute", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::MessageMutes), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn unmute_game(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    game(state, auth, path.into_inner(), false).await
}

async fn game(
    state: web::Data<AppState>,
    auth: Authenticated,
    game_id: i64,
    on: bool,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let mutes = crate::http::blocking::with_games(&state, move |conn, _| {
        messages::mute_game(conn, &actor, game_id, on)
    })
    .await?;
    Ok(HttpResponse::Ok().json(mutes))
}

/// Mutes the messages of the player called `name`, in every game (again: no change).
///
/// # Errors
/// 401; 422 `unknown_player` for no such player (or yourself).
#[utoipa::path(post, path = "/v1/players/{name}/mute", tag = "games", security(("bearer" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::MessageMutes), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn mute_player(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    player(state, auth, path.into_inner(), true).await
}

/// Shows the messages of the player called `name` again.
///
/// # Errors
/// 401; 422 `unknown_player` for no such player (or yourself).
#[utoipa::path(delete, path = "/v1/players/{name}/mute", tag = "games", security(("bearer" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::MessageMutes), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn unmute_player(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    player(state, auth, path.into_inner(), false).await
}

async fn player(
    state: web::Data<AppState>,
    auth: Authenticated,
    name: String,
    on: bool,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let mutes = crate::http::blocking::with_games(&state, move |conn, _| {
        messages::mute_person(conn, &actor, &name, on)
    })
    .await?;
    Ok(HttpResponse::Ok().json(mutes))
}

/// The games and players whose messages the caller muted.
///
/// # Errors
/// 401.
#[utoipa::path(get, path = "/v1/me/mutes", tag = "games", security(("bearer" = [])),
    responses((status = 200, description = "What you have muted", body = turnpost_shared::MessageMutes)))]
pub async fn list(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let me = auth.actor().account_id();
    let mutes = crate::http::blocking::with_games(&state, move |conn, _| {
        Ok::<_, crate::games::GameError>(messages::mutes(conn, me)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(mutes))
}
