//! `POST /v1/tournaments/{id}/withdraw`.

use actix_web::HttpResponse;

use crate::http::error::ApiError;
use crate::http::path_call::PathCall;
use crate::tournaments;

/// Withdraws you from a tournament. Before it starts you just leave it; once it runs, your
/// running games of it are resigned (losses) and you are out of later rounds (a round-robin
/// scores your later games as losses).
///
/// # Errors
/// 401; 404 unknown tournament; 409 `not_entered`, `entry_closed` (it is over).
#[utoipa::path(post, path = "/v1/tournaments/{id}/withdraw", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament after your withdrawal", body = turnpost_shared::api::TournamentView), (status = 404, body = turnpost_shared::api::ErrorBody), (status = 409, body = turnpost_shared::api::ErrorBody)))]
pub async fn withdraw(call: PathCall) -> Result<HttpResponse, ApiError> {
    call.answer(tournaments::withdraw).await
}
