//! Counts every HTTP request and its latency for the metrics, by method, route pattern and
//! status ([`crate::metrics::http_request`]).

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;

/// The label of a request no route matched: one series for them all, whatever was asked.
const UNMATCHED: &str = "(unmatched)";

/// The methods labelled by name (RFC 9110's and PATCH); every other is [`OTHER_METHOD`].
static STANDARD_METHODS: [Method; 9] = [
    Method::GET,
    Method::HEAD,
    Method::POST,
    Method::PUT,
    Method::DELETE,
    Method::CONNECT,
    Method::OPTIONS,
    Method::TRACE,
    Method::PATCH,
];

/// The label of every method outside [`STANDARD_METHODS`]. A client may send any token as a
/// method, and each label value is a series kept until the process ends (recording is on even
/// when `/metrics` is off): the invented ones share one, so they cannot grow the memory.
const OTHER_METHOD: &str = "other";

/// `method` as a label: its name when it is standard, else [`OTHER_METHOD`].
fn method_label(method: &Method) -> &'static str {
    STANDARD_METHODS
        .iter()
        .find(|standard| *standard == method)
        .map_or(OTHER_METHOD, Method::as_str)
}

/// A route pattern as a label: `/v1/games/{id}/moves` → `/v1/games/:id/moves`. Braces are
/// legal in a label value, but simple scrapers and parsers take a `}` for the end of the labels.
fn route_label(pattern: &str) -> String {
    let mut label = String::with_capacity(pattern.len());
    // Inside `{…}`, and past the `:` of a segment's regex (`{tail:.*}`), which is left out.
    let (mut in_segment, mut in_regex) = (false, false);
    for c in pattern.chars() {
        match c {
            '{' if !in_segment => {
                label.push(':');
                in_segment = true;
            }
            '}' if in_segment => (in_segment, in_regex) = (false, false),
            ':' if in_segment => in_regex = true,
            _ if in_regex => {}
            _ => label.push(c),
        }
    }
    label
}

/// The middleware (for `actix_web::middleware::from_fn`).
///
/// # Errors
/// Whatever the wrapped service returns, unchanged.
pub async fn request_metrics(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let method = method_label(request.method());
    // The pattern, never the path: ids must not multiply the series.
    let route = request
        .match_pattern()
        .map_or_else(|| UNMATCHED.to_owned(), |pattern| route_label(&pattern));
    let started = Instant::now();
    let result = next.call(request).await;
    let status = match &result {
        Ok(response) => response.status(),
        Err(error) => error.as_response_error().status_code(),
    };
    crate::metrics::http_request(method, &route, status.as_u16(), started.elapsed());
    result
}

#[cfg(test)]
mod tests {
    use actix_web::http::Method;

    use super::{method_label, route_label};

    #[test]
    fn invented_methods_share_one_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        for invented in ["BREW", "get", "PROPFIND", &"X".repeat(7000)] {
            let method = Method::from_bytes(invented.as_bytes()).unwrap();
            assert_eq!(method_label(&method), "other", "{invented}");
        }
    }

    #[test]
    fn patterns_become_labels_without_braces() {
        assert_eq!(route_label("/v1/games/{id}/moves"), "/v1/games/:id/moves");
        assert_eq!(route_label("/v1/games"), "/v1/games");
        assert_eq!(
            route_label("/games/{id}/play/{pass}"),
            "/games/:id/play/:pass"
        );
        assert_eq!(route_label("/assets/{tail:.*}"), "/assets/:tail");
    }
}
