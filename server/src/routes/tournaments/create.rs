//! `POST /v1/tournaments`.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::CreateTournamentRequest;

use crate::http::auth::Authenticated;
use crate::http::budgeted_tournament;
use crate::http::error::ApiError;
use crate::http::json_object::JsonObject;
use crate::http::state::AppState;

/// Creates a tournament you organise: kind, options and clock as in a challenge, a format
/// (`round_robin` or `swiss` for two-seat games, `tables` for Chinese Checkers with
/// `table_seats` 3–6), `rounds` (Swiss, tables), the close of entries and an optional
/// maximum. You enter it only by joining.
///
/// `invite` names up to 50 players (each once, however often named). An invitation is a
/// challenge to play: it is mailed only to invitees whose `challenges` mail switch is on (with
/// its one-click unsubscribe link), and a tournament that invites anyone costs one challenge
/// from your hourly budget and one from each invitee's budget of challenges received. When an
/// invitee has received as many challenges as an hour allows, the whole request is refused
/// with 429 and nothing is created (no invitee is skipped silently): invite them later.
///
/// # Errors
/// 401; 422 `invalid_tournament` (naming what is wrong), `invalid_options`, `invalid_clock`;
/// 429 when you have created or joined as many as an hour allows, or past the challenge
/// budgets (yours, or an invitee's).
#[utoipa::path(post, path = "/v1/tournaments", tag = "tournaments", security(("bearer" = [])),
    request_body = turnpost_shared::api::CreateTournamentRequest,
    responses((status = 201, description = "The new tournament, open for entries", body = turnpost_shared::api::TournamentView), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    state: web::Data<AppState>,
    auth: Authenticated,
    body: Result<JsonObject<CreateTournamentRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let request = body?.into_inner();
    state
        .limits
        .check_join(&auth.account.name_key)
        .map_err(ApiError::from)?;
    let view = budgeted_tournament::create_charged(
        &state,
        auth.actor(),
        auth.account.name_key.clone(),
        request,
    )
    .await?
    .map_err(ApiError::from)?;
    Ok(HttpResponse::Created().json(view))
}
