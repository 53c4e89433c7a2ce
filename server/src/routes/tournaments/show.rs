//! `GET /v1/tournaments/{id}`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::http::error::ApiError;
use crate::http::path_call::PathCall;
use crate::routes::query_value;
use crate::tournaments;

/// Query parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentQuery {
    /// The round whose games to list.
    round: Option<String>,
}

/// A tournament: settings, entrants, its rounds with their byes and counts, and the
/// standings with points, Buchholz and Sonneborn–Berger. A tournament of at most 100 games
/// lists every round's games with their results; a bigger one lists one round's (`listed`):
/// the `round` asked for, else the first round with a game still playing.
///
/// # Errors
/// 401; 404 unknown tournament, or a round not paired (yet); 400 `bad_query` for a round
/// that is no number from 1.
#[utoipa::path(get, path = "/v1/tournaments/{id}", tag = "tournaments", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id"),
        ("round" = Option<i64>, Query, minimum = 1, maximum = 4294967295_u32, description = "List this round's games (1 to `current_round`)")),
    responses((status = 200, description = "The tournament", body = turnpost_shared::api::TournamentView),
        (status = 400, body = turnpost_shared::api::ErrorBody),
        (status = 404, description = "No such tournament, or no such round of it", body = turnpost_shared::api::ErrorBody)))]
pub async fn show(
    call: PathCall,
    query: web::Query<TournamentQuery>,
) -> Result<HttpResponse, ApiError> {
    let expected = "expected a round number (1 or more)";
    let round =
        query_value::parsed::<u32>("round", query.round.as_deref(), |_| expected.to_owned())?;
    if round == Some(0) {
        return Err(ApiError::bad_query(format!("round=0: {expected}")));
    }
    call.answer(move |conn, actor, id| tournaments::show(conn, actor.account_id(), id, round))
        .await
}
