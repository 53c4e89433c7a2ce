//! `POST /v1/tournaments/{id}/join`.

use actix_web::{web, HttpResponse};

use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments;

/// Enters you into a tournament while its entry window is open.
///
/// # Errors
/// 401; 404 unknown tournament; 409 `entry_closed`, `tournament_full`, `already_entered`;
/// 422 `bot_entrant`; 429 when you have joined as many as an hour allows.
#[utoipa::path(post, path = "/v1/tournaments/{id}/join", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament with you entered", body = turnpost_shared::TournamentView), (status = 404, body = turnpost_shared::ErrorBody), (status = 409, body = turnpost_shared::ErrorBody), (status = 422, body = turnpost_shared::ErrorBody), (status = 429, body = turnpost_shared::ErrorBody)))]
pub async fn join(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    state.limits.check_join(&auth.account.name_key)?;
    let actor = auth.actor();
    let id = path.into_inner();
    let ctx = state.mail.clone();
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::join(conn, &ctx, &actor, id)?)
    })
    .await?;
    Ok(HttpResponse::Ok().json(view))
}
