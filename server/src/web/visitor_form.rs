//! What the handler of a sign-up or sign-in form takes: the state, the viewer (a visitor, or
//! a session) and the form, its CSRF token already checked against the viewer's.

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::{FutureExt, LocalBoxFuture};

use super::game_settings_fields::FormValues;
use super::viewer::Viewer;
use super::{csrf, WebError};
use crate::http::state::AppState;

/// A form posted by anyone (the sign-in forms come before a session). Extracted as the state,
/// the [`Viewer`] and the form, in that order; then its CSRF token is checked (403) before
/// the handler runs.
pub struct VisitorForm {
    /// The application state.
    pub state: web::Data<AppState>,
    /// Who posted it.
    pub viewer: Viewer,
    /// The form's fields.
    pub form: FormValues,
}

impl VisitorForm {
    /// The state, the viewer and the form's fields, for a handler that uses them apart.
    #[must_use]
    pub fn into_parts(self) -> (web::Data<AppState>, Viewer, FormValues) {
        (self.state, self.viewer, self.form)
    }
}

impl FromRequest for VisitorForm {
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<Self, actix_web::Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts =
            <(web::Data<AppState>, Viewer, web::Form<FormValues>)>::from_request(req, payload);
        parts
            .map(|parts| {
                let (state, viewer, web::Form(form)) = parts?;
                match viewer.check_csrf(csrf::given(&form)) {
                    Ok(()) => Ok(Self {
                        state,
                        viewer,
                        form,
                    }),
                    Err(refused) => Err(WebError::from(refused).into()),
                }
            })
            .boxed_local()
    }
}
