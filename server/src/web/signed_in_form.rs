//! What the handler of a signed-in browser's form takes: the state, the session, the path and
//! the form, its CSRF token already checked; and the service call most such forms make.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;

use super::viewer::SignedIn;
use super::{csrf, WebError};
use crate::db::DbConnection;
use crate::games::Actor;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// A form posted by a signed-in browser to a path with the parameters `P` (`()` for none,
/// `String` for `/…/{id}`). Extracted as the state, [`SignedIn`] (403 without a session), the
/// path and the form, in that order; then its CSRF token is checked (403) before the handler
/// runs, as every POST handler of the pages must.
pub struct SignedInForm<P = ()> {
    /// The application state.
    pub state: web::Data<AppState>,
    /// The session.
    pub signed_in: SignedIn,
    /// The path's parameters.
    pub path: P,
    /// The form's fields.
    pub form: HashMap<String, String>,
}

impl<P> SignedInForm<P> {
    /// The form's field `name`, if it has one.
    #[must_use]
    pub fn field(&self, name: &str) -> Option<&str> {
        self.form.get(name).map(String::as_str)
    }

    /// The state, the session and the form's fields, for a handler that uses them apart.
    #[must_use]
    pub fn into_parts(self) -> (web::Data<AppState>, SignedIn, HashMap<String, String>) {
        (self.state, self.signed_in, self.form)
    }

    /// Runs `service` for the signed-in account on `id` on a pooled connection on the
    /// blocking thread pool.
    ///
    /// # Errors
    /// The service's refusal as an error page; 503 without a pooled connection.
    pub async fn act<T, E, F>(&self, id: i64, service: F) -> Result<T, WebError>
    where
        T: Send + 'static,
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, &Actor, i64) -> Result<T, E> + Send + 'static,
    {
        let actor = self.signed_in.actor();
        let done = crate::http::blocking::with_conn(&self.state, move |conn| {
            Ok(service(conn, &actor, id)?)
        });
        Ok(done.await?)
    }

    /// Refuses (429) a join past the account's hourly budget, as the API's join does.
    ///
    /// # Errors
    /// 429 past the budget.
    pub fn charge_join(&self) -> Result<(), WebError> {
        let charged = self
            .state
            .limits
            .check_join(&self.signed_in.account.name_key);
        Ok(charged.map_err(ApiError::from)?)
    }
}

/// The redirect (303) to the page to see next after a form.
#[must_use]
pub fn see_other(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

impl<P: DeserializeOwned + 'static> FromRequest for SignedInForm<P> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(
            web::Data<AppState>,
            SignedIn,
            web::Path<P>,
            web::Form<HashMap<String, String>>,
        )>::from_request(req, payload);
        Box::pin(async move {
            let (state, signed_in, path, form) = parts.await?;
            let form = form.into_inner();
            signed_in
                .check_csrf(csrf::given(&form))
                .map_err(WebError::from)?;
            Ok(Self {
                state,
                signed_in,
                path: path.into_inner(),
                form,
            })
        })
    }
}
