//! `POST /v1/games/{id}/decline`.

use actix_web::HttpResponse;

use crate::games::challenge;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Declines a challenge (the challenger withdraws it the same way): it is cancelled.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is no longer a challenge or
/// the challenge expired.
#[utoipa::path(post, path = "/v1/games/{id}/decline", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody)))]
pub async fn decline(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(challenge::decline).await
}
