//! `GET /v1/tournaments`.

use actix_web::{web, HttpResponse};
use serde::Deserialize;
use turnpost_shared::api::{TournamentList, TournamentStatus};

use crate::http::error::ApiError;
use crate::http::path_call::Call;
use crate::routes::query_value;
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
    params(("status" = Option<turnpost_shared::api::TournamentStatus>, Query, description = "entry (default), running, finished or cancelled")),
    responses((status = 200, description = "The tournaments", body = turnpost_shared::api::TournamentList), (status = 400, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(
    call: Call,
    query: web::Query<TournamentsQuery>,
) -> Result<HttpResponse, ApiError> {
    let status = query_value::parsed("status", query.status.as_deref(), |_| {
        "expected entry, running, finished or cancelled".to_owned()
    })?
    .unwrap_or(TournamentStatus::Entry);
    let tournaments = call
        .run(move |conn, _, ()| tournaments::list(conn, status))
        .await?;
    Ok(HttpResponse::Ok().json(TournamentList { tournaments }))
}
