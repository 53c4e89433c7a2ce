//! `GET /v1/tournaments/{id}`.

use actix_web::HttpResponse;

use crate::http::error::ApiError;
use crate::http::path_call::PathCall;
use crate::tournaments;

/// A tournament: settings, entrants, every round's games with results, byes, and the
/// standings with points, Buchholz and Sonneborn–Berger.
///
/// # Errors
/// 401; 404 unknown tournament.
#[utoipa::path(get, path = "/v1/tournaments/{id}", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament", body = turnpost_shared::api::TournamentView), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, actor, id| tournaments::show(conn, actor.account_id(), id))
        .await
}
