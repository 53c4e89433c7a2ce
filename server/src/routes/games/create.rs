//! `POST /v1/games`: a challenge.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::CreateGameRequest;

use crate::games::challenge;
use crate::http::auth::Authenticated;
use crate::http::budgeted_challenge::make_charged;
use crate::http::json_object::JsonObject;
use crate::http::state::AppState;

/// Challenges players: `{kind, options, seats: [names…], clock?}`; the caller holds a seat.
/// Built-in bots (`bot-1` … `bot-5`, `bot`) accept at once, so a challenge in which every
/// other seat is a bot starts at once.
///
/// # Errors
/// 401; 422 for an unknown kind, bad options (naming the key), a wrong number of seats, an
/// unknown or repeated player, a challenge without the caller, or one naming bots only
/// (`bots_only`); 409 `bot_games_limit` for a bot challenged by someone who has as many bot
/// games at once as the server allows (`TURNPOST_BOT_GAMES_PER_ACCOUNT`), and
/// `open_challenges_limit` for an open seat posted by someone with 5 open challenges waiting; 429 when the caller
/// has sent, or a person has received, as many challenges as an hour allows.
#[utoipa::path(post, path = "/v1/games", tag = "games", security(("bearer" = [])),
    request_body = turnpost_shared::api::CreateGameRequest,
    responses((status = 201, description = "The new game (status invited; active when every other seat is a bot)", body = turnpost_shared::api::GameView), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 409, description = "A bot challenged beyond the bot games one may have at once", body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody), (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    state: web::Data<AppState>,
    auth: Authenticated,
    body: Result<JsonObject<CreateGameRequest>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    let actor = auth.actor();
    // Refused only once the token passed (see `crate::http::auth`).
    let request = body?.into_inner();
    let limits = state.clone();
    // Checked, charged, created and the charge settled in one blocking task, which runs to
    // its end even if the client goes away: only a challenge that can be made is charged
    // (each recipient once), and only one that was made keeps its charge.
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        let checked = challenge::check(conn, &actor, &request, limits.bot_games_cap)?;
        make_charged(&limits.limits, &checked, |checked| {
            challenge::create(conn, &actor, checked)
        })
    })
    .await?;
    Ok(HttpResponse::Created().json(view))
}
