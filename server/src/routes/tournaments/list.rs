//! `GET /v1/tournaments`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use turnpost_shared::{TournamentList, TournamentStatus};

use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::tournaments;

/// Query parameters.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentsQuery {
    /// `entry` (the default), `running`, `finished` or `cancelled`.
    status: Option<String>,
}

/// The tournaments in one state, newest first (at most 100): by default those taking entries.
///
/// # Errors
/// 401; 400 `bad_query` for an unknown status.
#[utoipa::path(get, path = "/v1/tournaments", tag = "tournaments", security(("bearer" = [])),
    params(("status" = Option<String>, Query, description = "entry (default), running, finished or cancelled")),
    responses((status = 200, description = "The tournaments", body = turnpost_shared::TournamentList), (status = 400, body = turnpost_shared::ErrorBody)))]
pub async fn list(
    state: web::Data<AppState>,
    _auth: Authenticated,
    query: web::Query<TournamentsQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = match query.into_inner().status.as_deref() {
        None => TournamentStatus::Entry,
        Some(text) => TournamentStatus::from_name(text).ok_or_else(|| ApiError::BadRequest {
            code: "bad_query",
            message: format!("status={text}: expected entry, running, finished or cancelled"),
        })?,
    };
    let tournaments =
        crate::http::blocking::with_conn(&state, move |conn| Ok(tournaments::list(conn, status)?))
            .await?;
    Ok(HttpResponse::Ok().json(TournamentList { tournaments }))
}
