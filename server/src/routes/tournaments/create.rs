//! `POST /v1/tournaments`.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::CreateTournamentRequest;

use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments;

/// Creates a tournament you organise: kind, options and clock as in a challenge, a format
/// (`round_robin` or `swiss` for two-seat games, `tables` for Chinese Checkers with
/// `table_seats` 3–6), `rounds` (Swiss, tables), the close of entries and an optional
/// maximum. Invited accounts are mailed. You enter it only by joining.
///
/// # Errors
/// 401; 422 `invalid_tournament` (naming what is wrong), `invalid_options`, `invalid_clock`;
/// 429 when you have created or joined as many as an hour allows.
#[utoipa::path(post, path = "/v1/tournaments", tag = "tournaments", security(("bearer" = [])),
    request_body = turnpost_shared::api::CreateTournamentRequest,
    responses((status = 201, description = "The new tournament, open for entries", body = turnpost_shared::api::TournamentView), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    state: web::Data<AppState>,
    auth: Authenticated,
    body: Result<web::Json<CreateTournamentRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let request = body?.into_inner();
    state
        .limits
        .check_join(&auth.account.name_key)
        .map_err(ApiError::from)?;
    let actor = auth.actor();
    let ctx = state.mail.clone();
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::create(conn, &ctx, &actor, &request)?)
    })
    .await?;
    Ok(HttpResponse::Created().json(view))
}
