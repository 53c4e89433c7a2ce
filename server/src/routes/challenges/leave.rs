//! `POST /v1/challenges/{id}/leave`.

use actix_web::HttpResponse;

use crate::games::open_seats;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Gives up the open seat you took in a challenge that still waits for players: the seat is
/// open again. (A seat you were invited to is declined with `POST /v1/games/{id}/decline`.)
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 `not_an_open_seat`,
/// `not_a_challenge`, `challenge_expired`.
#[utoipa::path(post, path = "/v1/challenges/{id}/leave", tag = "challenges", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id of the challenge")),
    responses((status = 200, description = "The challenge, your seat open again", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody)))]
pub async fn leave(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(open_seats::leave).await
}
