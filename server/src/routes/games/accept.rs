//! `POST /v1/games/{id}/accept`.

use actix_web::HttpResponse;

use crate::games::challenge;
use crate::http::path_call::{MessageBody, PathCall};

/// Accepts the caller's seat of a challenge; the game starts when every seat has accepted. An
/// optional body `{message}` carries a word for the other players.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is no longer a challenge or
/// the challenge expired; 422 `bad_message` for a message longer than five hundred characters
/// (nothing done).
#[utoipa::path(post, path = "/v1/games/{id}/accept", tag = "games", security(("bearer" = [])),
    request_body(content = Option<turnpost_shared::api::ActionMessage>, description = "Optional: a message with the acceptance"),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn accept(call: PathCall, body: MessageBody) -> Result<HttpResponse, actix_web::Error> {
    call.answer_with_message(body, challenge::accept).await
}
