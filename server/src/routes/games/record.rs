//! `GET /v1/games/{id}/record`.

use actix_web::{web, HttpResponse};

use crate::games::reads;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The game record as plain text: `[Key "value"]` headers (kind, options, seed, players, dates,
/// result), a blank line, one canonical move per line.
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/record", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The record", content_type = "text/plain"), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn record(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let game_id = path.into_inner();
    let record =
        crate::http::blocking::with_games(&state, move |conn, _| reads::record(conn, game_id))
            .await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .body(record.to_text()))
}
