//! `GET /v1/games/{id}/moves`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::games::reads::{self, MovePage, MOVES_PAGE};
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// Query parameters: a page of the moves.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovesQuery {
    /// How many moves, 1–2000 (default 2000).
    limit: Option<i64>,
    /// Only moves before this ply (the `earlier` of a page).
    before: Option<u32>,
    /// Only moves after this ply (the `later` of a page).
    after: Option<u32>,
}

/// A page of the moves (by default the last 2000, every move of a game within its move limit):
/// ply, seat, canonical move, time, and whether the server played it; `earlier` and `later`
/// give the `before` and `after` of the neighbouring pages when moves were left out. For the
/// game's players, the messages sent with the actions listed (`messages`, without those the
/// caller muted; never shown to anyone else).
///
/// # Errors
/// 401; 404 unknown game; 400 `bad_query` for a limit out of range or both `before` and `after`.
#[utoipa::path(get, path = "/v1/games/{id}/moves", tag = "games", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Game id"),
           ("limit" = Option<i64>, Query, description = "page size 1-2000, default 2000", minimum = 1, maximum = 2000),
           ("before" = Option<i64>, Query, description = "only moves before this ply: the `earlier` of a page", minimum = 0, maximum = 4294967295_u32),
           ("after" = Option<i64>, Query, description = "only moves after this ply: the `later` of a page", minimum = 0, maximum = 4294967295_u32)),
    responses((status = 200, description = "The moves", body = turnpost_shared::api::MoveList), (status = 400, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: PathCall, query: web::Query<MovesQuery>) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let limit = query.limit.unwrap_or(MOVES_PAGE);
    if !(1..=MOVES_PAGE).contains(&limit) {
        return Err(ApiError::bad_query(format!(
            "limit={limit}: expected 1 to {MOVES_PAGE}"
        )));
    }
    if query.before.is_some() && query.after.is_some() {
        return Err(ApiError::bad_query(
            "before and after: give one of them, not both".to_owned(),
        ));
    }
    let page = MovePage {
        after: query.after,
        before: query.before,
        limit,
    };
    call.answer(move |conn, actor, game_id| {
        reads::moves(conn, game_id, Some(actor.account_id()), page)
    })
    .await
}
