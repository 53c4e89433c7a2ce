//! Security headers on every answer: pages may not be framed (a framing page could make a
//! click play for the seat), run only the script served from `/assets` (no inline script),
//! are never sniffed as another type, and do not leak their address as a referrer where it is
//! a secret (play links). Answers to a request that carries a credential (a play cookie, a
//! session cookie, an API token) are not stored by caches.
//!
//! A header the handler set already is kept (the play link's redirect sets its own referrer
//! policy).

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;

/// The content security policy of every answer: everything from this origin only, no inline
/// script or style, no plugin, no framing, forms posted here only. The pages' one script is
/// `/assets/game.js`; the legal moves it reads are a JSON data block, which is not script.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'";

/// The prefix of turnpost's cookies (play passes `tp_play_{id}`, web sessions).
const COOKIE_PREFIX: &str = "tp_";

/// Whether a request is a play page: a play link, or a request carrying a game's play
/// cookie (the browser sends it only to that game's pages).
fn is_play_request(request: &ServiceRequest) -> bool {
    let path = percent_encoding::percent_decode_str(request.path()).decode_utf8_lossy();
    let mut segments = path.split('/').skip(1);
    let play_link = segments.next() == Some("games")
        && segments
            .nth(1)
            .is_some_and(|segment| segment.eq_ignore_ascii_case("play"));
    play_link || has_cookie(request, crate::play_link::COOKIE_PREFIX)
}

/// Whether the request carries a cookie whose name starts with `prefix`.
fn has_cookie(request: &ServiceRequest, prefix: &str) -> bool {
    request
        .cookies()
        .is_ok_and(|cookies| cookies.iter().any(|c| c.name().starts_with(prefix)))
}

/// Whether the request carries a credential: an API token or one of turnpost's cookies.
fn is_signed_in(request: &ServiceRequest) -> bool {
    request.headers().contains_key(header::AUTHORIZATION) || has_cookie(request, COOKIE_PREFIX)
}

/// Sets `name` to `value` unless the handler set it.
fn set_default(headers: &mut header::HeaderMap, name: HeaderName, value: &'static str) {
    if !headers.contains_key(&name) {
        headers.insert(name, HeaderValue::from_static(value));
    }
}

/// The middleware (for `actix_web::middleware::from_fn`).
///
/// # Errors
/// Whatever the wrapped service returns, unchanged.
pub async fn security_headers(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let play = is_play_request(&request);
    let signed_in = is_signed_in(&request);
    let mut response = next.call(request).await?;
    let headers = response.headers_mut();
    set_default(
        headers,
        header::CONTENT_SECURITY_POLICY,
        CONTENT_SECURITY_POLICY,
    );
    set_default(headers, header::X_FRAME_OPTIONS, "DENY");
    set_default(headers, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set_default(
        headers,
        header::REFERRER_POLICY,
        if play {
            "no-referrer"
        } else {
            "strict-origin-when-cross-origin"
        },
    );
    if play || signed_in {
        // Replaces a cacheable answer's header too: a page with a credential is personal.
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(response)
}
