//! `POST /v1/tournaments/{id}/withdraw`.

use actix_web::{web, HttpResponse};

use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments;

/// Withdraws you from a tournament. Before it starts you just leave it; once it runs, your
/// running games of it are resigned (losses) and you are out of later rounds (a round-robin
/// scores your later games as losses).
///
/// # Errors
/// 401; 404 unknown tournament; 409 `not_entered`, `entry_closed` (it is over).
#[utoipa::path(post, path = "/v1/tournaments/{id}/withdraw", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament after your withdrawal", body = turnpost_shared::TournamentView), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody)))]
pub async fn withdraw(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let actor = auth.actor();
    let id = path.into_inner();
    let ctx = state.mail.clone();
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::withdraw(conn, &ctx, &actor, id)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
