//! `PUT /v1/games/{id}/conditional`.

use actix_web::HttpResponse;
use turnpost_shared::api::ConditionalMoves;

use crate::games::conditional::{self, Edit};
use crate::http::json_object::JsonObject;
use crate::http::path_call::PathCall;

/// Replaces the caller's conditional moves with `{ply, lines}` (no lines clears them), `ply`
/// being the game's ply the lines were written for. Each line is checked by the engine move by
/// move; the server plays an answer at once when the opponent plays the move a line expects,
/// and drops every line at any other move.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat; 409 with the current game (`stale_ply`) when the
/// game is at another ply, `not_active` when it is not being played, `left_game`; 422
/// `bad_conditional` (a game not for two players, dice rolled each turn, or a line the engine
/// refuses: the message names the line, the move and the reason).
#[utoipa::path(put, path = "/v1/games/{id}/conditional", tag = "games", security(("bearer" = [])),
    request_body = turnpost_shared::api::ConditionalMoves,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "Your conditional moves as they now stand", body = turnpost_shared::api::ConditionalMoves), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, description = "Stale: the error and the current game"), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn set(
    call: PathCall,
    body: Result<JsonObject<ConditionalMoves>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let request = body?.into_inner();
    let answer = call.answer(move |conn, actor, game_id| {
        conditional::set(conn, actor, game_id, &request, Edit::Replace)
    });
    Ok(answer.await?)
}
