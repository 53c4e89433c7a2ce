//! One short line per HTTP request: method, path without the query, status, duration.
//!
//! The query is left out because it can carry secrets (the signature of an unsubscribe link), and
//! so is the pass of a play link (`/games/{id}/play/…`, however the path spells it) and any address
//! in the path (reply keys); headers (tokens) and bodies (codes) are never logged. Refused requests
//! (4xx) are part of normal operation and stay at info like the rest; only server errors (5xx) are
//! warnings. A method is logged only as far as [`LOGGED_METHOD_CHARS`]: a client may send any
//! token of kilobytes as one.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;

/// The longest method logged whole; the longest standard one (`OPTIONS`, `CONNECT`) has 7.
const LOGGED_METHOD_CHARS: usize = 16;

/// The middleware (for `actix_web::middleware::from_fn`).
///
/// # Errors
/// Whatever the wrapped service returns, unchanged.
pub async fn access_log(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let method = logged_method(request.method().as_str());
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

/// The path as logged, read as the router reads it (percent-decoded), so no spelling of a
/// secret gets past: a play link's pass (a secret) is cut off, and a segment holding an `@`
/// (an address, which may carry a seat's reply key) is replaced; control characters are
/// escaped, so a decoded path cannot forge log lines.
fn logged_path(path: &str) -> String {
    let decoded = percent_encoding::percent_decode_str(path).decode_utf8_lossy();
    let mut logged = String::with_capacity(decoded.len());
    for (index, segment) in decoded.split('/').enumerate() {
        if index > 0 {
            logged.push('/');
        }
        if segment.contains('@') {
            logged.push_str("(address)");
        } else {
            for c in segment.chars() {
                if c.is_control() {
                    logged.extend(c.escape_default());
                } else {
                    logged.push(c);
                }
            }
        }
        if segment.eq_ignore_ascii_case("play") && index > 0 {
            logged.push_str("/…");
            break;
        }
    }
    logged
}

#[cfg(test)]
mod tests {
    use super::{logged_method, logged_path};

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
    fn play_link_passes_are_not_logged() {
        assert_eq!(logged_path("/games/7/play/1.2.abcdef"), "/games/7/play/…");
        assert_eq!(logged_path("/games/7"), "/games/7");
        assert_eq!(logged_path("/games/7/pl%61y/1.2.abcdef"), "/games/7/play/…");
        assert_eq!(
            logged_path("/games/7/%70%6C%61%79/1.2.ab"),
            "/games/7/play/…"
        );
        assert_eq!(logged_path("/games/7/PLAY/1.2.ab"), "/games/7/PLAY/…");
        assert_eq!(logged_path("/games/7/play"), "/games/7/play/…");
    }

    #[test]
    fn addresses_and_control_characters_are_not_logged_as_sent() {
        assert_eq!(
            logged_path("/x/games+g1s2p1k0123@example.org/y"),
            "/x/(address)/y"
        );
        assert_eq!(logged_path("/x/games+k%40example.org"), "/x/(address)");
        assert_eq!(logged_path("/a%0aGET%20/b"), "/a\\nGET /b");
    }
}
