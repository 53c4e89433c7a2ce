//! `GET /v1/health`.

use actix_web::{web, HttpResponse};
use turnpost_shared::Health;

use crate::error::ApiError;
use crate::state::AppState;

/// Checks the database and answers `{"status":"ok","database":"postgres"|"sqlite"}`.
///
/// # Errors
/// 503 if the database does not answer.
#[utoipa::path(get, path = "/v1/health", tag = "server",
    responses((status = 200, body = turnpost_shared::Health), (status = 503, body = turnpost_shared::ErrorBody)))]
pub async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let backend = state.backend;
    super::with_conn(&state, |conn| {
        crate::db::ping(conn).map_err(|e| {
            tracing::error!(error = %e, "health check failed");
            ApiError::Unavailable
        })
    })
    .await?;
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".into(),
        database: backend.name().into(),
    }))
}
