//! `GET /v1/games/{id}/record`.

use actix_web::HttpResponse;

use crate::games::reads;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// The game record as plain text: `[Key "value"]` headers (kind, options, seed, players, dates,
/// result), a blank line, one canonical move per line.
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/record", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The record", content_type = "text/plain"), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn record(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer_as("text/plain; charset=utf-8", |conn, _, game_id| {
        reads::record(conn, game_id).map(|record| record.to_text())
    })
    .await
}
