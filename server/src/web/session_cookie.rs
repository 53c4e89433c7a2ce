//! The session cookie and the visitor cookie, and the middleware that reads them on every page
//! request. The session cookie `tp_session` holds the secret of a browser session
//! (`crate::browser_sessions`): HttpOnly (no script reads it), SameSite=Lax (another site's
//! forms do not carry it), Secure when the public URL is https, Path=/. A cookie whose session
//! was signed out or revoked is cleared on the next page. The visitor cookie `tp_visitor`
//! holds a random value that the sign-in forms' CSRF token is made from; it is set only by a
//! page that shows such a form.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::cookie::{Cookie, SameSite};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{web, HttpMessage as _};

use super::csrf;
use super::viewer::{SignedIn, Viewer};
use crate::browser_sessions;
use crate::http::state::AppState;

/// The name of the session cookie.
pub const SESSION_COOKIE: &str = "tp_session";
/// The name of the visitor cookie.
pub const VISITOR_COOKIE: &str = "tp_visitor";

/// Characters of a visitor cookie's value.
const VISITOR_LENGTH: usize = 32;

fn secure(state: &AppState) -> bool {
    state.mail.public_url.starts_with("https://")
}

/// The session cookie holding `secret`.
#[must_use]
pub fn session(state: &AppState, secret: String) -> Cookie<'static> {
    Cookie::build(SESSION_COOKIE, secret)
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(state))
        .max_age(actix_web::cookie::time::Duration::days(
            browser_sessions::IDLE_DAYS,
        ))
        .finish()
}

/// The header value that removes the cookie `name`.
fn removal(state: &AppState, name: &'static str) -> Cookie<'static> {
    let mut cookie = Cookie::build(name, "")
        .path("/")
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure(state))
        .finish();
    cookie.make_removal();
    cookie
}

/// The cookie that removes the session cookie (sign-out).
#[must_use]
pub fn session_removal(state: &AppState) -> Cookie<'static> {
    removal(state, SESSION_COOKIE)
}

/// Whether the middleware looks at this path: pages (the unsubscribe page too), not the API
/// or the static assets.
fn is_page(path: &str) -> bool {
    path == "/v1/unsubscribe" || !(path.starts_with("/v1/") || path.starts_with("/assets/"))
}

/// What the cookies of one request come to.
struct Resolved {
    viewer: Viewer,
    /// A new visitor value to set if a page used its token.
    new_visitor: Option<String>,
    /// The session cookie named no live session: clear it.
    clear_session: bool,
}

async fn resolve(state: &AppState, request: &ServiceRequest) -> Result<Resolved, actix_web::Error> {
    let key = &state.mail.link_key;
    let session_secret = request.cookie(SESSION_COOKIE).map(|c| c.value().to_owned());
    let mut clear_session = false;
    if let Some(secret) = session_secret {
        let lookup = secret.clone();
        let found = crate::http::blocking::with_conn(state, move |conn| {
            Ok(browser_sessions::resolve(conn, &lookup)?)
        })
        .await?;
        match found {
            Some((session, account)) => {
                let token = csrf::token(key, "session", &secret);
                return Ok(Resolved {
                    viewer: Viewer::SignedIn(SignedIn::new(account, session.id, token)),
                    new_visitor: None,
                    clear_session: false,
                });
            }
            None => clear_session = true,
        }
    }
    let existing = request
        .cookie(VISITOR_COOKIE)
        .map(|c| c.value().to_owned())
        .filter(|v| v.len() == VISITOR_LENGTH && v.bytes().all(|b| b.is_ascii_alphanumeric()));
    let (visitor, new_visitor) = match existing {
        Some(value) => (value, None),
        None => {
            let value = crate::secrets::random_string(VISITOR_LENGTH, crate::secrets::ALNUM);
            (value.clone(), Some(value))
        }
    };
    Ok(Resolved {
        viewer: Viewer::Visitor {
            csrf: csrf::token(key, "visitor", &visitor),
            used: Arc::new(AtomicBool::new(false)),
        },
        new_visitor,
        clear_session,
    })
}

fn add_cookie(response: &mut ServiceResponse<BoxBody>, cookie: &Cookie<'_>) {
    if let Ok(value) = HeaderValue::from_str(&cookie.to_string()) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
}

/// The middleware (for `actix_web::middleware::from_fn`): resolves the viewer of a page
/// request, runs the page with it, and sets or clears the cookies it needs.
///
/// # Errors
/// Storage failures looking the session up; whatever the wrapped service returns.
pub async fn resolve_viewer(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let state = request.app_data::<web::Data<AppState>>().cloned();
    let Some(state) = state.filter(|_| is_page(request.path())) else {
        return Ok(next.call(request).await?.map_into_boxed_body());
    };
    let resolved = resolve(&state, &request).await?;
    let viewer = resolved.viewer.clone();
    request.extensions_mut().insert(viewer.clone());
    let mut response = viewer
        .clone()
        .scope(next.call(request))
        .await?
        .map_into_boxed_body();
    if resolved.clear_session {
        add_cookie(&mut response, &session_removal(&state));
    }
    if let (Some(value), Viewer::Visitor { used, .. }) = (resolved.new_visitor, &viewer) {
        if used.load(Ordering::Relaxed) {
            let cookie = Cookie::build(VISITOR_COOKIE, value)
                .path("/")
                .http_only(true)
                .same_site(SameSite::Lax)
                .secure(secure(&state))
                .finish();
            add_cookie(&mut response, &cookie);
            // A page that sets a visitor's cookie is that visitor's alone.
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        }
    }
    Ok(response)
}
