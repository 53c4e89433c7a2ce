//! Muting messages (issue 28): `POST`/`DELETE /v1/games/{id}/mute` (a game's messages),
//! `POST`/`DELETE /v1/players/{name}/mute` (a person's, in every game), and
//! `GET /v1/me/mutes`. Each answers what the caller has muted now. Muted messages are left out
//! of the caller's turn cards, the move list and the game page.

use actix_web::HttpResponse;

use crate::games::messages;
use crate::http::error::ApiError;
use crate::http::path_call::{Call, PathCall};

/// Mutes the messages of a game the caller plays in (again: no change).
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it.
#[utoipa::path(post, path = "/v1/games/{id}/mute", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn mute_game(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, actor, id| messages::mute_game(conn, actor, id, true))
        .await
}

/// Shows the messages of a game again.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it.
#[utoipa::path(delete, path = "/v1/games/{id}/mute", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn unmute_game(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, actor, id| messages::mute_game(conn, actor, id, false))
        .await
}

/// Mutes the messages of the player called `name`, in every game (again: no change).
///
/// # Errors
/// 401; 422 `unknown_player` for no such player (or yourself).
#[utoipa::path(post, path = "/v1/players/{name}/mute", tag = "games", security(("bearer" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn mute_player(call: PathCall<String>) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, actor, name| messages::mute_person(conn, actor, &name, true))
        .await
}

/// Shows the messages of the player called `name` again.
///
/// # Errors
/// 401; 422 `unknown_player` for no such player (or yourself).
#[utoipa::path(delete, path = "/v1/players/{name}/mute", tag = "games", security(("bearer" = [])),
    params(("name" = String, Path, description = "The player's name")),
    responses((status = 200, description = "What you have muted now", body = turnpost_shared::api::MessageMutes), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn unmute_player(call: PathCall<String>) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, actor, name| messages::mute_person(conn, actor, &name, false))
        .await
}

/// The games and players whose messages the caller muted.
///
/// # Errors
/// 401.
#[utoipa::path(get, path = "/v1/me/mutes", tag = "games", security(("bearer" = [])),
    responses((status = 200, description = "What you have muted", body = turnpost_shared::api::MessageMutes)))]
pub async fn list(call: Call) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, actor, ()| messages::mutes(conn, actor.account_id()))
        .await
}
