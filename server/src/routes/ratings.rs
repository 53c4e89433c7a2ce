//! `GET /v1/ratings/{kind}`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;

use crate::games::rating::{self, LeaderboardPage};
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::page_size::page_size;
use crate::http::state::AppState;

/// Query parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// Page size, 1–100 (default 50).
    limit: Option<String>,
    /// Ranks to skip: `next_offset` of the previous page (default 0).
    offset: Option<String>,
}

/// The page a query asks for.
///
/// # Errors
/// 400 `bad_query` for a limit or offset that is not a number in range.
fn page_of(query: &LeaderboardQuery) -> Result<LeaderboardPage, ApiError> {
    let limit = page_size(query.limit.as_deref()).map_err(ApiError::bad_query)?;
    let offset = match query.offset.as_deref() {
        None => 0,
        Some(text) => text.trim().parse::<u32>().map_err(|_| {
            ApiError::bad_query(format!(
                "offset={text}: expected a whole number of ranks to skip (0 or more)"
            ))
        })?,
    };
    Ok(LeaderboardPage { offset, limit })
}

/// The leaderboard of a rating kind, a page at a time: everyone with a rated game in it,
/// highest rating first, with deviation, games and `provisional` (deviation above 110); `total`
/// players ranked, and `next_offset` for the next page. The kinds: `kefren`, `kechi`, `sanqi`,
/// `chinese-checkers` (two-player games) and `chinese-checkers-multi` (three to six seats).
///
/// # Errors
/// 401; 400 `bad_query` for a bad limit or offset; 404 `not_found` for an unknown rating kind.
#[utoipa::path(get, path = "/v1/ratings/{kind}", tag = "ratings", security(("bearer" = [])),
    params(("kind" = String, Path, description = "kefren, kechi, sanqi, chinese-checkers or chinese-checkers-multi"),
           ("limit" = Option<u32>, Query, description = "page size 1-100, default 50", minimum = 1, maximum = 100),
           ("offset" = Option<i64>, Query, description = "ranks to skip: next_offset of the previous page, default 0", minimum = 0, maximum = 4294967295_u32)),
    responses((status = 200, description = "A page of the leaderboard", body = turnpost_shared::api::Leaderboard), (status = 400, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn leaderboard(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<String>,
    query: web::Query<LeaderboardQuery>,
) -> Result<HttpResponse, ApiError> {
    let page = page_of(&query)?;
    let kind = path.into_inner();
    let board = crate::http::blocking::with_games(&state, move |conn| {
        rating::leaderboard(conn, &kind, page)
    })
    .await?;
    Ok(HttpResponse::Ok().json(board))
}
