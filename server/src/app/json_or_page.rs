//! Answers whose form depends on who is asking: under `/v1/` a program (JSON, [`ApiError`]),
//! elsewhere a person reading pages (HTML, [`WebError`]). Above both `routes` and `web`, so
//! neither reaches into the other for them.

use actix_web::{HttpRequest, HttpResponse};

use crate::http::error::ApiError;
use crate::web::{not_found_page, WebError};

/// Whether `req` is for the JSON API.
fn is_api(req: &HttpRequest) -> bool {
    req.path().starts_with("/v1/")
}

/// Answer for unknown paths: the HTML 404 page outside the API.
///
/// # Errors
/// Under `/v1/`: 404 with the method and path.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    if !is_api(&req) {
        return Ok(not_found_page(&req));
    }
    Err(ApiError::NotFound(format!(
        "no route for {} {}",
        req.method(),
        req.path()
    )))
}

/// Maps query string errors to 400: an HTML page outside the API, JSON `bad_query` under it.
pub fn query_error(
    error: actix_web::error::QueryPayloadError,
    req: &HttpRequest,
) -> actix_web::Error {
    if !is_api(req) {
        return WebError::bad_request(format!("the query of this address cannot be read: {error}"))
            .into();
    }
    ApiError::BadRequest {
        code: "bad_query",
        message: error.to_string(),
    }
    .into()
}
