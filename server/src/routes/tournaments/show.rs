//! `GET /v1/tournaments/{id}`.

use actix_web::{web, HttpResponse};

use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments;

/// A tournament: settings, entrants, every round's games with results, byes, and the
/// standings with points, Buchholz and Sonneborn–Berger.
///
/// # Errors
/// 401; 404 unknown tournament.
#[utoipa::path(get, path = "/v1/tournaments/{id}", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament", body = turnpost_shared::TournamentView), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn show(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let viewer = auth.account.id;
    let id = path.into_inner();
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::show(conn, viewer, id)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
