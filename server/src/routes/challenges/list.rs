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
    /// Only challenges older than this one (the `next_before` of the page before).
    before: Option<String>,
}

/// The challenges with a seat open for anyone to take, newest first, 50 a page (`next_before`
/// names the next), optionally of one kind of game. Take a seat with
/// `POST /v1/challenges/{id}/join`.
///
/// # Errors
/// 401; 400 `bad_query` for a kind that is not one of [`GameKind`]'s names, an empty one
/// (`?kind=`) too: the document lists the names, so a client reads there what is taken; and
/// for a `before` that is not a challenge id (a positive number).
#[utoipa::path(get, path = "/v1/challenges", tag = "challenges", security(("bearer" = [])),
    params(("kind" = Option<GameKind>, Query, description = "Only challenges to this kind of game; leave the parameter out for every kind"),
        ("before" = Option<i64>, Query, minimum = 1, description = "Only challenges older than this one: the `next_before` of the page before")),
    responses((status = 200, description = "The open challenges", body = turnpost_shared::api::ChallengeList), (status = 400, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(
    call: Call,
    query: web::Query<ChallengesQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = query_value::parsed::<GameKind>("kind", query.kind.as_deref(), |e| e.to_string())?;
    let before = query_value::parsed::<i64>("before", query.before.as_deref(), |_| {
        "expected a challenge id (a positive number)".to_owned()
    })?;
    if let Some(id) = before.filter(|id| *id < 1) {
        return Err(ApiError::bad_query(format!(
            "before={id}: expected a challenge id (a positive number)"
        )));
    }
    let page = call
        .run(move |conn, actor, ()| open_seats::list(conn, actor.account_id(), kind, before))
        .await?;
    Ok(HttpResponse::Ok().json(ChallengeList {
        challenges: page.challenges,
        next_before: page.next_before,
    }))
}
