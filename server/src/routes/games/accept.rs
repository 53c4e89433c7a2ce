//! `POST /v1/games/{id}/accept`.

use actix_web::{web, HttpResponse};
use turnpost_shared::ActionMessage;

use crate::games::challenge;
use crate::http::auth::Authenticated;
use crate::http::json_object::OptionalJson;
use crate::http::state::AppState;

/// Accepts the caller's seat of a challenge; the game starts when every seat has accepted. An
/// optional body `{message}` carries a word for the other players.
///
/// # Errors
/// 401; 404 unknown game; 403 without a seat in it; 409 when the game is no longer a challenge or the challenge expired; 422 `bad_message` for a message longer than five hundred characters (nothing
/// done).
#[utoipa::path(post, path = "/v1/games/{id}/accept", tag = "games", security(("bearer" = [])),
    request_body(content = Option<turnpost_shared::ActionMessage>, description = "Optional: a message with the acceptance"),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The game", body = turnpost_shared::GameView), (status = 403, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody), (status = 422, body = turnpost_shared::ErrorBody)))]
pub async fn accept(
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
        challenge::accept(conn, ctx, &actor, game_id, message.as_deref())
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
