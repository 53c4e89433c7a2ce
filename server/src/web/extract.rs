//! The extractors of the pages: [`Viewer`] ("maybe signed in", never fails) and [`SignedIn`]
//! ("signed in": a GET without a session is sent to sign in and back, anything else refused
//! with 403), read from what the session middleware left in the request.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use actix_web::dev::Payload;
use actix_web::http::{header, Method, StatusCode};
use actix_web::{FromRequest, HttpMessage as _, HttpRequest, HttpResponse, ResponseError};
use percent_encoding::{utf8_percent_encode, NON_ALPHANUMERIC};

use super::viewer::{SignedIn, Viewer};
use super::WebError;

/// The sign-in page that comes back to `path` after signing in.
#[must_use]
pub fn sign_in_path(path: &str) -> String {
    format!(
        "/signin?next={}",
        utf8_percent_encode(path, NON_ALPHANUMERIC)
    )
}

/// A visitor whose forms cannot pass (no session middleware ran: not a page path).
fn nobody() -> Viewer {
    Viewer::Visitor {
        csrf: String::new(),
        used: Arc::new(AtomicBool::new(false)),
    }
}

impl FromRequest for Viewer {
    type Error = WebError;
    type Future = std::future::Ready<Result<Self, WebError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let viewer = req.extensions().get::<Self>().cloned();
        std::future::ready(Ok(viewer.unwrap_or_else(nobody)))
    }
}

/// A page that needs a signed-in browser, asked without one: a page (GET) sends the reader to
/// sign in and back; a form (POST) is refused with 403 and changes nothing.
#[derive(Debug, thiserror::Error)]
#[error("you are not signed in (or this browser was signed out); sign in and try again")]
pub struct SignInFirst {
    /// The page asked for, to come back to after signing in (GET only).
    back_to: Option<String>,
}

impl ResponseError for SignInFirst {
    fn status_code(&self) -> StatusCode {
        if self.back_to.is_some() {
            StatusCode::SEE_OTHER
        } else {
            StatusCode::FORBIDDEN
        }
    }

    fn error_response(&self) -> HttpResponse {
        match &self.back_to {
            Some(path) => HttpResponse::SeeOther()
                .insert_header((header::LOCATION, sign_in_path(path)))
                .finish(),
            None => WebError::forbidden(self.to_string()).error_response(),
        }
    }
}

impl FromRequest for SignedIn {
    type Error = SignInFirst;
    type Future = std::future::Ready<Result<Self, SignInFirst>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let signed_in = req
            .extensions()
            .get::<Viewer>()
            .and_then(Viewer::signed_in)
            .cloned();
        let back_to = (req.method() == Method::GET || req.method() == Method::HEAD).then(|| {
            req.uri()
                .path_and_query()
                .map_or_else(|| req.path().to_owned(), |p| p.as_str().to_owned())
        });
        std::future::ready(signed_in.ok_or(SignInFirst { back_to }))
    }
}
