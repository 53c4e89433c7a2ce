//! One short line per HTTP request: method, path without the query, status, duration.
//!
//! The query is left out because it can carry secrets (the signature of an unsubscribe link),
//! and so is the pass of a play link (`/games/{id}/play/…`); headers (tokens) and bodies (codes) are never logged. Refused requests (4xx) are part of
//! normal operation and stay at info like the rest; only server errors (5xx) are warnings.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

/// The middleware (for `actix_web::middleware::from_fn`).
///
/// # Errors
/// Whatever the wrapped service returns, unchanged.
pub async fn access_log(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let method = request.method().clone();
    let path = logged_path(request.path());
    let started = Instant::now();
    let result = next.call(request).await;
    let status = match &result {
        Ok(response) => response.status(),
        Err(error) => error.as_response_error().status_code(),
    };
    let millis = started.elapsed().as_millis();
    if status.is_server_error() {
        tracing::warn!(target: "turnpost::access", "{method} {path} {} {millis} ms", status.as_u16());
    } else {
        tracing::info!(target: "turnpost::access", "{method} {path} {} {millis} ms", status.as_u16());
    }
    result
}

/// The path as logged: a play link's pass (a secret) is cut off.
fn logged_path(path: &str) -> String {
    match path.find("/play/") {
        Some(at) => format!("{}…", path.get(..at + "/play/".len()).unwrap_or_default()),
        None => path.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::logged_path;

    #[test]
    fn play_link_passes_are_not_logged() {
        assert_eq!(logged_path("/games/7/play/1.2.abcdef"), "/games/7/play/…");
        assert_eq!(logged_path("/games/7"), "/games/7");
    }
}
