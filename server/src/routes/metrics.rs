//! `GET /metrics`: this process's metrics in the Prometheus text format, when the operator
//! turned them on (`TURNPOST_METRICS=true`); otherwise the path does not exist (404).

use actix_web::{web, HttpRequest, HttpResponse};

use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::metrics::DatabaseGauges;

/// Answers the metrics, with the pool's use and the mail backlog read now.
///
/// # Errors
/// 404 when metrics are off; 503 if the database does not answer.
#[utoipa::path(get, path = "/metrics", tag = "server",
    responses(
        (status = 200, description = "Prometheus text format (version 0.0.4)", content_type = "text/plain", body = String),
        (status = 404, description = "Metrics are off (TURNPOST_METRICS=false)", body = turnpost_shared::api::ErrorBody),
        (status = 503, body = turnpost_shared::api::ErrorBody)))]
pub async fn metrics(
    req: HttpRequest,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if !state.metrics {
        return Err(ApiError::NotFound(format!(
            "no route for {} {}",
            req.method(),
            req.path()
        )));
    }
    let pool = state.pool.state();
    let max = state.pool.max_size();
    let (backlog, mail_in) = crate::http::blocking::with_conn(&state, |conn| {
        let backlog = crate::db::outbox::backlog(conn).map_err(|e| {
            tracing::error!(error = %e, "metrics: reading the mail backlog failed");
            ApiError::Unavailable
        })?;
        let mail_in = crate::db::mail_in_deliveries::counts(conn).map_err(|e| {
            tracing::error!(error = %e, "metrics: reading the mail-in counts failed");
            ApiError::Unavailable
        })?;
        Ok((backlog, mail_in))
    })
    .await?;
    let oldest_pending_secs = backlog.oldest.map_or(0.0, |queued| {
        let waited = (crate::db::now() - queued).num_milliseconds().max(0);
        // Milliseconds to seconds; precision past 2^53 ms does not matter here.
        #[expect(clippy::cast_precision_loss, reason = "an age in seconds for a gauge")]
        let seconds = waited as f64 / 1000.0;
        seconds
    });
    let mut text = crate::metrics::render(DatabaseGauges {
        connections: pool.connections,
        idle: pool.idle_connections,
        max,
        mail_pending: backlog.pending,
        oldest_pending_secs,
    })
    .map_err(|e| {
        tracing::error!(error = %e, "metrics: encoding failed");
        ApiError::Unavailable
    })?;
    text.push_str(&crate::metrics::mail_in_exposition(&mail_in));
    Ok(HttpResponse::Ok()
        .content_type(crate::metrics::CONTENT_TYPE)
        .body(text))
}
