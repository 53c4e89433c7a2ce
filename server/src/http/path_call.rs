//! The shell most API routes share: an authenticated caller acts on (or reads) the one game,
//! challenge, tournament or player its path names, or their own settings, through a service
//! call on the blocking pool, and is answered with the result as JSON. [`PathCall`] gathers
//! what such a handler takes, so that the handler says only which service it calls.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use turnpost_shared::api::ActionMessage;

use crate::db::DbConnection;
use crate::games::Actor;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::json_object::OptionalJson;
use crate::http::state::AppState;
use crate::mail_context::MailContext;

/// The optional body `{message}` of an action that carries a word for the other players. A
/// handler takes it as a `Result` and refuses a bad one only once the token passed (see
/// [`Authenticated`]).
pub type MessageBody = Result<OptionalJson<ActionMessage>, actix_web::Error>;

/// An authenticated caller's request on the thing its path names: the application state, the
/// caller and the path's key `K` (a game, challenge or tournament id; a player's name).
///
/// Extracted exactly as the three extractors it stands for, in the same order (state, token,
/// path), so a refusal answers as it did when handlers took them one by one.
pub struct PathCall<K = i64> {
    state: web::Data<AppState>,
    /// The caller.
    pub auth: Authenticated,
    /// The path's key.
    pub key: K,
}

/// An authenticated caller's request whose path names nothing (`/v1/me/…`, `/v1/tokens`).
pub type Call = PathCall<()>;

impl<K: Send + 'static> PathCall<K> {
    /// The application state.
    #[must_use]
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// What a service that queues mail itself needs (tournaments, accounts): the game service
    /// needs none.
    #[must_use]
    pub fn mail(&self) -> MailContext {
        self.state.mail.clone()
    }

    /// Runs `service` for the caller on the path's key on a pooled connection on the blocking
    /// thread pool.
    ///
    /// # Errors
    /// The service's refusal as an HTTP answer; 503 without a pooled connection; 500 if the
    /// blocking task fails.
    pub async fn run<T, E, F>(self, service: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, &Actor, K) -> Result<T, E> + Send + 'static,
    {
        let actor = self.auth.actor();
        let key = self.key;
        crate::http::blocking::with_conn(&self.state, move |conn| Ok(service(conn, &actor, key)?))
            .await
    }

    /// [`run`](Self::run), answered with its result as JSON (200).
    ///
    /// # Errors
    /// As [`run`](Self::run).
    pub async fn answer<T, E, F>(self, service: F) -> Result<HttpResponse, ApiError>
    where
        T: Serialize + Send + 'static,
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, &Actor, K) -> Result<T, E> + Send + 'static,
    {
        let value = self.run(service).await?;
        Ok(HttpResponse::Ok().json(value))
    }

    /// [`run`](Self::run), answered with its result as a document of `content_type` (200).
    ///
    /// # Errors
    /// As [`run`](Self::run).
    pub async fn answer_as<E, F>(
        self,
        content_type: &'static str,
        service: F,
    ) -> Result<HttpResponse, ApiError>
    where
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, &Actor, K) -> Result<String, E> + Send + 'static,
    {
        let body = self.run(service).await?;
        Ok(HttpResponse::Ok().content_type(content_type).body(body))
    }

    /// [`answer`](Self::answer) for an action that carries an optional message.
    ///
    /// # Errors
    /// The body's refusal (400, 413, 415, 422); then as [`run`](Self::run).
    pub async fn answer_with_message<T, E, F>(
        self,
        body: MessageBody,
        service: F,
    ) -> Result<HttpResponse, actix_web::Error>
    where
        T: Serialize + Send + 'static,
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, &Actor, K, Option<&str>) -> Result<T, E> + Send + 'static,
    {
        let message = body?.into_inner().message;
        let answer =
            self.answer(move |conn, actor, key| service(conn, actor, key, message.as_deref()));
        Ok(answer.await?)
    }
}

impl Call {
    /// [`answer`](PathCall::answer) for a read of the caller's own things (devices, webhooks,
    /// mutes, settings): `service` takes the caller's account id.
    ///
    /// # Errors
    /// As [`run`](PathCall::run).
    pub async fn answer_own<T, E, F>(self, service: F) -> Result<HttpResponse, ApiError>
    where
        T: Serialize + Send + 'static,
        ApiError: From<E>,
        F: FnOnce(&mut DbConnection, i64) -> Result<T, E> + Send + 'static,
    {
        self.answer(move |conn, actor, ()| service(conn, actor.account_id()))
            .await
    }
}

impl<K: DeserializeOwned + 'static> FromRequest for PathCall<K> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts =
            <(web::Data<AppState>, Authenticated, web::Path<K>)>::from_request(req, payload);
        Box::pin(async move {
            let (state, auth, path) = parts.await?;
            Ok(Self {
                state,
                auth,
                key: path.into_inner(),
            })
        })
    }
}
