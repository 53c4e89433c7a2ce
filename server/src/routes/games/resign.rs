//! `POST /v1/games/{id}/resign`.

use actix_web::HttpResponse;

use crate::games::ending;
use crate::http::path_call::{MessageBody, PathCall};

/// Resigns the caller's seat: in a two-seat game the other seat wins; with three or more seats
/// playing (Chinese Checkers) the seat leaves and the game goes on without it. An optional body
/// `{message}` carries a word for the other players.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is not being played or the
/// seat has already left (`left_game`); 422 `bad_message` for a message longer than five hundred
/// characters (nothing done).
#[utoipa::path(post, path = "/v1/games/{id}/resign", tag = "games", security(("bearer" = [])),
    request_body(content = Option<turnpost_shared::api::ActionMessage>, description = "Optional: a message with the resignation"),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn resign(call: PathCall, body: MessageBody) -> Result<HttpResponse, actix_web::Error> {
    call.answer_with_message(body, ending::resign).await
}
