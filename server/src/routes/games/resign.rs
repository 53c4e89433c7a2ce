//! `POST /v1/games/{id}/resign`.

use actix_web::{web, HttpResponse};
use turnpost_shared::ActionMessage;

use crate::games::ending;
use crate::http::auth::Authenticated;
use crate::http::json_object::OptionalJson;
use crate::http::state::AppState;

/// Resigns the caller's seat: in a two-seat game the other seat wins; with three or more seats
/// playing (Chinese Checkers) the seat leaves and the game goes on without it. An optional body
/// `{message}` carries a word for the other players.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is not being played or
/// the seat has already left (`left_game`); 422 `bad_message` for a message longer than five hundred
/// characters (nothing done).
#[utoipa::path(post, path = "/v1/games/{id}/resign", tag = "games", security(("bearer" = [])),
    request_body(content = Option<turnpost_shared::ActionMessage>, description = "Optional: a message with the resignation"),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn resign(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
    body: Result<OptionalJson<ActionMessage>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let actor = auth.actor();
    let game_id = path.into_inner();
    // Refused only once the token passed (see `crate::http::auth`).
    let message = body?.into_inner().message;
    let view = crate::http::blocking::with_games(&state, move |conn, ctx| {
        ending::resign(conn, ctx, &actor, game_id, message.as_deref())
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
