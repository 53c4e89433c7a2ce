//! `GET /v1/players/{name}`.

use actix_web::HttpResponse;

use crate::games::rating;
use crate::http::error::ApiError;
use crate::http::path_call::PathCall;

/// A player and their ratings: for each rating kind they played rated games in, the rating and
/// deviation (grown for the days without games), whether it is provisional (deviation above
/// 110), the games played and the rating after each. Any account may read any player.
///
/// # Errors
/// 401; 404 `not_found` for an unknown player.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "ratings", security(("bearer" = [])),
    params(("name" = String, Path, description = "Account name (any case)")),
    responses((status = 200, description = "The player", body = turnpost_shared::api::PlayerProfile), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(call: PathCall<String>) -> Result<HttpResponse, ApiError> {
    call.answer(|conn, _, name| rating::profile(conn, &name))
        .await
}
