//! `POST /v1/games/{id}/claim`.

use actix_web::HttpResponse;

use crate::games::ending;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Claims the win on time: in a game with timeout mode `claim`, once the seat to move is past
/// its deadline, any other seat still playing may take it out as a loss on time (in a two-seat
/// game that ends the game; with three or more seats playing it goes on without the late seat).
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 `not_active`, `not_claimable` or
/// `left_game`.
#[utoipa::path(post, path = "/v1/games/{id}/claim", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The finished game", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody)))]
pub async fn claim(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(ending::claim).await
}
