//! Whether a request announces a body, from its headers alone (before any of it is read).

use actix_web::http::header::{self, HeaderMap};

/// Whether the headers say a body follows (a length above zero, or chunks).
#[must_use]
pub fn body_follows(headers: &HeaderMap) -> bool {
    if headers.contains_key(header::TRANSFER_ENCODING) {
        return true;
    }
    headers
        .get(header::CONTENT_LENGTH)
        .is_some_and(|length| length.to_str().map_or(true, |length| length.trim() != "0"))
}
