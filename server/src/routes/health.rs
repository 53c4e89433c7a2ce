//! `GET /v1/health`.

use actix_web::{web, HttpResponse};
use turnpost_shared::api::Health;

use crate::http::error::ApiError;
use crate::http::state::AppState;

/// Checks the database and answers
/// `{"status":"ok","database":"postgres"|"sqlite","mail_backlog":N,"oldest_pending_mail_secs":S}`:
/// how many emails wait to be delivered, and for how long the oldest has waited (null when
/// none), so a monitor sees a relay that refuses or cannot keep up.
///
/// # Errors
/// 503 if the database does not answer.
#[utoipa::path(get, path = "/v1/health", tag = "server",
    responses((status = 200, body = turnpost_shared::api::Health), (status = 503, body = turnpost_shared::api::ErrorBody)))]
pub async fn health(state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let backend = state.backend;
    let backlog = crate::http::blocking::with_conn(&state, |conn| {
        crate::db::ping(conn)
            .and_then(|()| crate::db::outbox::backlog(conn))
            .map_err(|e| {
                tracing::error!(error = %e, "health check failed");
                ApiError::Unavailable
            })
    })
    .await?;
    let oldest_pending_mail_secs = backlog
        .oldest
        .map(|queued| (crate::db::now() - queued).num_seconds().max(0));
    Ok(HttpResponse::Ok().json(Health {
        status: "ok".into(),
        database: backend.name().into(),
        mail_backlog: backlog.pending,
        oldest_pending_mail_secs,
    }))
}
