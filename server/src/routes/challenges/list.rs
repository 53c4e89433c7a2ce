//! `GET /v1/challenges`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use turnpost_shared::{ChallengeList, GameKind};

use crate::games::open_seats;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Query parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChallengesQuery {
    /// Only challenges to this kind of game.
    kind: Option<String>,
}

/// The challenges with a seat open for anyone to take, newest first (at most 100), optionally
/// of one kind of game. Take a seat with `POST /v1/challenges/{id}/join`.
///
/// # Errors
/// 401; 400 `bad_query` for an unknown kind.
#[utoipa::path(get, path = "/v1/challenges", tag = "challenges", security(("bearer" = [])),
    params(("kind" = Option<String>, Query, description = "kefren, kechi, sanqi or chinese-checkers")),
    responses((status = 200, description = "The open challenges", body = turnpost_shared::ChallengeList), (status = 400, body = turnpost_shared::ErrorBody)))]
pub async fn list(
    state: web::Data<AppState>,
    auth: Authenticated,
    query: web::Query<ChallengesQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = match query.into_inner().kind.as_deref() {
        None => None,
        Some(text) => Some(text.parse::<GameKind>().map_err(|e| ApiError::BadRequest {
            code: "bad_query",
            message: format!("kind={text}: {e}"),
        })?),
    };
    let viewer = auth.account.id;
    let challenges = crate::http::blocking::with_games(&state, move |conn, _| {
        open_seats::list(conn, viewer, kind)
    })
    .await?;
    Ok(HttpResponse::Ok().json(ChallengeList { challenges }))
}
