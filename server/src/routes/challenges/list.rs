//! `GET /v1/challenges`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use turnpost_shared::api::ChallengeList;
use turnpost_shared::GameKind;

use crate::games::open_seats;
use crate::http::error::ApiError;
use crate::http::path_call::Call;
use crate::routes::query_value;

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
/// 401; 400 `bad_query` for a kind that is not one of [`GameKind`]'s names, an empty one
/// (`?kind=`) too: the document lists the names, so a client reads there what is taken.
#[utoipa::path(get, path = "/v1/challenges", tag = "challenges", security(("bearer" = [])),
    params(("kind" = Option<GameKind>, Query, description = "Only challenges to this kind of game; leave the parameter out for every kind")),
    responses((status = 200, description = "The open challenges", body = turnpost_shared::api::ChallengeList), (status = 400, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(
    call: Call,
    query: web::Query<ChallengesQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = query_value::parsed::<GameKind>("kind", query.kind.as_deref(), |e| e.to_string())?;
    let challenges = call
        .run(move |conn, actor, ()| open_seats::list(conn, actor.account_id(), kind))
        .await?;
    Ok(HttpResponse::Ok().json(ChallengeList { challenges }))
}
