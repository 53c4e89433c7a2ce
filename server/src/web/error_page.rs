//! HTML error answers: 404 and the other refusals of the pages, with what was expected.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpRequest, HttpResponse, ResponseError};
use maud::html;

use super::layout;
use crate::games::GameError;

/// What a page's handler answers: the page, or the error page of why not.
pub type WebAnswer = Result<HttpResponse, WebError>;

/// An error answer of a page: its status and a sentence for the reader.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct WebError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, for the reader.
    pub message: String,
}

impl WebError {
    /// 404 with `message`.
    #[must_use]
    pub fn not_found(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            message: message.into(),
        }
    }

    /// 400 with `message`.
    #[must_use]
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }

    /// 403 with `message`.
    #[must_use]
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self {
            status: StatusCode::FORBIDDEN,
            message: message.into(),
        }
    }

    /// 500; the cause is logged, the page says only that it failed.
    #[must_use]
    pub fn internal(cause: &dyn std::fmt::Display) -> Self {
        tracing::error!(%cause, "page failed");
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            message: "something went wrong on the server; try again later".to_owned(),
        }
    }
}

impl From<GameError> for WebError {
    fn from(error: GameError) -> Self {
        match error {
            GameError::NotFound { game_id } => {
                Self::not_found(format!("there is no game {game_id}"))
            }
            GameError::Storage(cause) => Self::internal(&cause),
            other => crate::http::error::ApiError::from(other).into(),
        }
    }
}

impl From<super::csrf::CsrfRefused> for WebError {
    fn from(refused: super::csrf::CsrfRefused) -> Self {
        Self::forbidden(refused.to_string())
    }
}

impl From<crate::http::error::ApiError> for WebError {
    fn from(error: crate::http::error::ApiError) -> Self {
        let status = error.status_code();
        if status.is_server_error() {
            Self::internal(&error)
        } else {
            Self {
                status,
                message: error.to_string(),
            }
        }
    }
}

impl ResponseError for WebError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let title = match self.status {
            StatusCode::NOT_FOUND => "Not found",
            StatusCode::FORBIDDEN => "Not allowed",
            status if status.is_server_error() => "Server error",
            _ => "Cannot do that",
        };
        let body = html! {
            h1 { (title) }
            p.error { (self.message) }
            p { a href="/" { "The home page" } " · " a href="/games" { "Games" } }
        };
        layout::response(self.status, title, &body)
    }
}

/// Maps form body errors of the pages to HTML: 413 past the size limit, 415 for a body that is
/// not a form, 400 for one that cannot be read.
pub fn form_error(
    error: actix_web::error::UrlencodedError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::UrlencodedError as U;
    let (status, message) = match &error {
        U::Overflow { limit, .. } => (
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the form is larger than {limit} bytes"),
        ),
        U::ContentType => (
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "expected a form (Content-Type: application/x-www-form-urlencoded)".to_owned(),
        ),
        other => (
            StatusCode::BAD_REQUEST,
            format!("the form cannot be read: {other}"),
        ),
    };
    WebError { status, message }.into()
}

/// The HTML 405 of the pages: the method, the page and the methods it takes (`Allow`).
pub fn method_not_allowed(req: &HttpRequest, allow: &str) -> HttpResponse {
    let body = html! {
        h1 { "Method not allowed" }
        p.error { (req.method()) " is not allowed on " (req.path()) "; use " (allow) "." }
    };
    let mut response =
        layout::response(StatusCode::METHOD_NOT_ALLOWED, "Method not allowed", &body);
    if let Ok(value) = header::HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

/// The HTML 404 for an unknown path outside the API.
#[must_use]
pub fn not_found_page(req: &HttpRequest) -> HttpResponse {
    WebError::not_found(format!("there is no page at {}", req.path())).error_response()
}
