//! `GET /v1/ratings/{kind}`.

use actix_web::{web, HttpResponse};

use crate::auth::Authenticated;
use crate::error::ApiError;
use crate::games::rating;
use crate::state::AppState;

/// The leaderboard of a rating kind: everyone with a rated game in it, highest rating first,
/// with deviation, games and `provisional` (deviation above 110). The kinds: `kefren`,
/// `kechi`, `sanqi`, `chinese-checkers` (two-player games) and `chinese-checkers-multi`
/// (three to six seats).
///
/// # Errors
/// 401; 404 `not_found` for an unknown rating kind.
#[utoipa::path(get, path = "/v1/ratings/{kind}", tag = "ratings", security(("bearer" = [])),
    params(("kind" = String, Path, description = "kefren, kechi, sanqi, chinese-checkers or chinese-checkers-multi")),
    responses((status = 200, description = "The leaderboard", body = turnpost_shared::Leaderboard), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn leaderboard(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let kind = path.into_inner();
    let board =
        crate::blocking::with_games(&state, move |conn, _| rating::leaderboard(conn, &kind))
            .await?;
    Ok(HttpResponse::Ok().json(board))
}
