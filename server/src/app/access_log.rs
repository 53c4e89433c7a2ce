//! One short line per HTTP request: method, route, status, duration, as fields (numbers where
//! they are numbers, so a JSON log needs no parsing of a message).
//!
//! The route is the route table's pattern the request matched (`/signin/link/{secret}`,
//! `/games/{id}/play/{pass}`), never the path the client sent, and the query is left out: that
//! one rule keeps every secret a route carries in its path or query (a sign-in link, a play
//! link's pass, an unsubscribe signature, a reply address, and any route added later) out of
//! the log without a list of secret routes to keep up to date. A request no route matched is
//! logged as [`UNMATCHED`]: its path may be a secret link mistyped or cut by a mail scanner.
//! Headers (tokens) and bodies (codes) are never logged. Refused requests (4xx) are part of
//! normal operation and stay at info like the rest; only server errors (5xx) are warnings. A
//! method is logged only as far as [`LOGGED_METHOD_CHARS`]: a client may send any token of
//! kilobytes as one.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

/// The longest method logged whole; the longest standard one (`OPTIONS`, `CONNECT`) has 7.
const LOGGED_METHOD_CHARS: usize = 16;

/// The route logged for a request no route matched.
const UNMATCHED: &str = "(unmatched)";

/// The middleware (for `actix_web::middleware::from_fn`).
///
/// # Errors
/// Whatever the wrapped service returns, unchanged.
pub async fn access_log(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let method = logged_method(request.method().as_str());
    let route = logged_route(request.match_pattern().as_deref());
    let started = Instant::now();
    let result = next.call(request).await;
    let status = match &result {
        Ok(response) => response.status(),
        Err(error) => error.as_response_error().status_code(),
    };
    let ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let code = status.as_u16();
    if status.is_server_error() {
        tracing::warn!(target: "turnpost::access", method = %method, route = %route, status = code, ms);
    } else {
        tracing::info!(target: "turnpost::access", method = %method, route = %route, status = code, ms);
    }
    result
}

/// The route as logged: the matched pattern from the route table (the server's own text), or
/// [`UNMATCHED`].
fn logged_route(pattern: Option<&str>) -> String {
    pattern.map_or_else(|| UNMATCHED.to_owned(), str::to_owned)
}

/// The method as logged: its first [`LOGGED_METHOD_CHARS`] characters, then `…` when it was
/// longer; control characters escaped like the path's (a method is a token and has none, but
/// the log must not depend on the parser for that).
fn logged_method(method: &str) -> String {
    let mut logged = String::new();
    let mut chars = method.chars();
    for c in chars.by_ref().take(LOGGED_METHOD_CHARS) {
        if c.is_control() {
            logged.extend(c.escape_default());
        } else {
            logged.push(c);
        }
    }
    if chars.next().is_some() {
        logged.push('…');
    }
    logged
}

#[cfg(test)]
mod tests {
    use super::{logged_method, logged_route};

    #[test]
    fn long_methods_are_cut() {
        assert_eq!(logged_method("GET"), "GET");
        assert_eq!(logged_method("ABCDEFGHIJKLMNOP"), "ABCDEFGHIJKLMNOP");
        assert_eq!(
            logged_method(&"X".repeat(7000)),
            format!("{}…", "X".repeat(16))
        );
        // Cut between characters, never inside one.
        assert_eq!(
            logged_method(&"é".repeat(20)),
            format!("{}…", "é".repeat(16))
        );
        assert_eq!(logged_method("A\nB"), "A\\nB");
    }

    #[test]
    fn routes_are_patterns() {
        assert_eq!(
            logged_route(Some("/games/{id}/play/{pass}")),
            "/games/{id}/play/{pass}"
        );
        assert_eq!(logged_route(None), "(unmatched)");
    }
}
