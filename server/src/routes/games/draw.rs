//! `POST /v1/games/{id}/draw`.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::DrawRequest;

use crate::games::ending;
use crate::http::path_call::PathCall;

/// `{action: offer|accept|decline}`: offers a draw (standing until the offerer moves again or
/// a seat leaves), or accepts (the game ends drawn once every other seat still playing has
/// accepted) or declines another seat's offer (one decline ends it); `message` carries a word
/// for the other players.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat; 409 not being played, no offer to answer, or
/// your seat has left the game (`left_game`); 422 an unknown action, `bad_message` for a
/// message longer than five hundred characters (nothing done).
#[utoipa::path(post, path = "/v1/games/{id}/draw", tag = "games", security(("bearer" = [])),
    request_body = turnpost_shared::api::DrawRequest,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn draw(
    call: PathCall,
    body: Result<web::Json<DrawRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let DrawRequest { action, message } = body?.into_inner();
    let answer = call.answer(move |conn, actor, game_id| {
        ending::draw(conn, actor, game_id, action, message.as_deref())
    });
    Ok(answer.await?)
}
