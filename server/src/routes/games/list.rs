//! `GET /v1/games`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::games::reads::{self, ListFilter};
use crate::http::error::ApiError;
use crate::http::path_call::Call;
use crate::routes::query_value;

/// Default page size.
const DEFAULT_LIMIT: i64 = 20;
/// Largest page size.
const MAX_LIMIT: i64 = 100;

/// Query parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// `invited`, `active`, `finished` or `cancelled`.
    status: Option<String>,
    /// `mine`: only games where the caller is to move.
    turn: Option<String>,
    /// Page size, 1–100 (default 20).
    limit: Option<i64>,
    /// `next_cursor` of the previous page.
    cursor: Option<String>,
}

/// `<microseconds>.<id>` of the last game of a page.
fn parse_cursor(text: &str) -> Option<(chrono::NaiveDateTime, i64)> {
    let (micros, id) = text.split_once('.')?;
    let at = chrono::DateTime::from_timestamp_micros(micros.parse().ok()?)?.naive_utc();
    Some((at, id.parse().ok()?))
}

/// The caller's games, newest activity first, a page at a time.
///
/// # Errors
/// 401; 400 `bad_query` for an unknown status, turn, limit or cursor.
#[utoipa::path(get, path = "/v1/games", tag = "games", security(("bearer" = [])),
    params(("status" = Option<turnpost_shared::play::GameStatus>, Query, description = "invited, active, finished or cancelled"),
           ("turn" = Option<String>, Query, description = "mine: only games where you are to move", pattern = "^mine$"),
           ("limit" = Option<i64>, Query, description = "page size 1-100, default 20", minimum = 1, maximum = 100),
           ("cursor" = Option<String>, Query, description = "next_cursor of the previous page (empty: the first page)", pattern = "^([0-9]{1,16}[.][0-9]{1,18})?$")),
    responses((status = 200, description = "A page of games", body = turnpost_shared::api::GameList), (status = 400, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: Call, query: web::Query<ListQuery>) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let status = query_value::parsed::<turnpost_shared::play::GameStatus>(
        "status",
        query.status.as_deref(),
        |_| "expected invited, active, finished or cancelled".to_owned(),
    )?;
    let my_turn = match query.turn.as_deref() {
        None => false,
        Some("mine") => true,
        Some(other) => {
            return Err(ApiError::bad_query(format!(
                "turn={other}: the only value is mine"
            )))
        }
    };
    let limit = query.limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_LIMIT).contains(&limit) {
        return Err(ApiError::bad_query(format!(
            "limit={limit}: expected 1 to {MAX_LIMIT}"
        )));
    }
    let before = match query.cursor.as_deref() {
        None | Some("") => None,
        Some(text) => Some(parse_cursor(text).ok_or_else(|| {
            ApiError::bad_query(format!("cursor={text} is not a cursor from a listing"))
        })?),
    };
    let filter = ListFilter {
        status,
        my_turn,
        before,
        limit,
    };
    let list = call
        .run(move |conn, actor, ()| reads::list(conn, actor, &filter))
        .await?;
    Ok(HttpResponse::Ok().json(list))
}
