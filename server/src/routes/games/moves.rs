//! `GET /v1/games/{id}/moves`.

use actix_web::HttpResponse;

use crate::games::reads;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Every move: ply, seat, canonical move, time, and whether the server played it; for the
/// game's players, the messages sent with the actions (`messages`, without those the caller
/// muted; never shown to anyone else).
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The moves", body = turnpost_shared::api::MoveList), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, actor, game_id| reads::moves(conn, game_id, Some(actor.account_id())))
        .await
}
