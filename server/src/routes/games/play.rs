//! `POST /v1/games/{id}/moves`.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::PlayMoveRequest;

use crate::games::moving;
use crate::http::auth::BearerToken;
use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::state::AppState;

/// Plays `{move, ply}`, where `ply` is the number of moves the client saw played, with an
/// optional `message` for the other players. An identical retry of a recorded move answers as
/// the first time did (and stores its message once).
///
/// # Errors
/// 401; 404 unknown game; 403 `not_your_game` / `not_your_turn`; 409 with the current game
/// (`{"error", "game"}`) for a stale ply, a taken ply, a game not started or over; 422
/// `move_syntax` (with `offset` and `expected`), `illegal_move` (with the rule), or
/// `bad_message` (a message longer than five hundred characters: nothing played).
#[utoipa::path(post, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    request_body = turnpost_shared::api::PlayMoveRequest,
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 201, description = "The game after the move", body = turnpost_shared::api::GameView), (status = 403, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, description = "Stale: the error and the current game"), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn play(
    state: web::Data<AppState>,
    bearer: BearerToken,
    path: Result<web::Path<i64>, actix_web::Error>,
    body: Result<JsonObject<PlayMoveRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // A bad path or body is refused after the token, as on every other route: a request with
    // an unknown token learns nothing else.
    let (asked, refused) = match (path, body) {
        (Ok(path), Ok(body)) => (Some((path.into_inner(), body.into_inner())), None),
        (Err(error), _) | (_, Err(error)) => (None, Some(error)),
    };
    // The hot path: the token is looked up on the connection that then plays the move.
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        let actor = bearer.authenticate(conn)?.actor();
        match asked {
            Some((game_id, request)) => Ok(Some(moving::play(conn, &actor, game_id, &request)?)),
            None => Ok(None),
        }
    })
    .await?;
    match (view, refused) {
        (Some(view), _) => Ok(HttpResponse::Created().json(view)),
        (None, Some(error)) => Err(error),
        (None, None) => Err(ApiError::Internal("a move without its game or body".into()).into()),
    }
}
