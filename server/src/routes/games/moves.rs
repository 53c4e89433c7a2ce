//! `GET /v1/games/{id}/moves`.

use actix_web::{web, HttpResponse};
use turnpost_shared::MoveList;

use crate::app::AppState;
use crate::auth::Authenticated;
use crate::db::games as q;
use crate::error::ApiError;
use crate::games::{tx, view};

/// Every move: ply, seat, canonical move, time, and whether the server played it.
///
/// # Errors
/// 401; 404 unknown game.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id")),
    responses((status = 200, description = "The moves"), (status = 404, body = crate::openapi::schemas::ErrorBody)))]
pub async fn list(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let game_id = path.into_inner();
    let rows = crate::routes::with_conn(&state, move |conn| {
        tx::read(conn, |conn| {
            if q::find(conn, game_id)?.is_none() {
                return Err(ApiError::NotFound(format!("there is no game {game_id}")).into());
            }
            Ok(q::moves(conn, game_id)?)
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(MoveList {
        moves: rows.iter().map(view::move_view).collect(),
    }))
}
