//! `GET /v1/players/{name}`.

use actix_web::{web, HttpResponse};

use crate::games::rating;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// A player and their ratings: for each rating kind they played rated games in, the rating and
/// deviation (grown for the days without games), whether it is provisional (deviation above
/// 110), the games played and the rating after each. Any account may read any player.
///
/// # Errors
/// 401; 404 `not_found` for an unknown player.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "ratings", security(("bearer" = [])),
    params(("name" = String, Path, description = "Account name (any case)")),
    responses((status = 200, description = "The player", body = turnpost_shared::PlayerProfile), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn show(
    state: web::Data<AppState>,
    _auth: Authenticated,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let name = path.into_inner();
    let profile =
        crate::http::blocking::with_games(&state, move |conn, _| rating::profile(conn, &name))
            .await?;
    Ok(HttpResponse::Ok().json(profile))
}
