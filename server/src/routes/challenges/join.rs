//! `POST /v1/challenges/{id}/join`.

use actix_web::HttpResponse;

use crate::games::open_seats;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Takes the first open seat of a challenge, accepted at once; the game starts when every seat
/// is filled and accepted. Joining again the seat you took answers the same.
///
/// # Errors
/// 401; 404 unknown game; 409 `already_seated` (you hold another seat of it),
/// `no_open_seat`, `not_a_challenge`, `challenge_expired`, `bot_games_limit` (a bot plays in
/// it and you have as many bot games as allowed); 429 when you have joined as many
/// challenges as an hour allows.
#[utoipa::path(post, path = "/v1/challenges/{id}/join", tag = "challenges", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id of the challenge")),
    responses((status = 200, description = "The challenge (active when your seat was the last one)", body = turnpost_shared::api::GameView), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn join(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.state()
        .limits
        .check_join(&call.auth.account.name_key)?;
    let cap = call.state().bot_games_cap;
    call.answer(move |conn, actor, id| open_seats::join(conn, actor, id, cap))
        .await
}
