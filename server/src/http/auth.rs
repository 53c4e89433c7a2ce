//! Bearer-token authentication as an actix extractor.

use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};

use crate::db::accounts::Account;
use crate::db::{self, tokens};
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::secrets;

/// The account behind a valid `Authorization: Bearer tp_…` header.
///
/// A handler's extractors run together, so a body refused at once could answer before the
/// token's look-up fails: handlers that read a body take it as `Result<…>` and refuse it only
/// after this passed (401 before 400/422, on every backend).
#[derive(Debug, Clone)]
pub struct Authenticated {
    /// The account.
    pub account: Account,
    /// The token used.
    pub token_id: i64,
}

impl Authenticated {
    /// The game service's actor for this account.
    #[must_use]
    pub fn actor(&self) -> crate::games::Actor {
        crate::games::Actor::Account(self.account.id)
    }
}

fn unauthorized(message: &str) -> ApiError {
    ApiError::Unauthorized {
        code: "unauthorized",
        message: message.to_owned(),
    }
}

/// The bearer token a request carries, read from its `Authorization` header but not yet looked
/// up. The hot routes (a move) resolve it on the connection that then acts, so one request
/// takes one pooled connection and one trip to the blocking pool, not two.
#[derive(Debug, Clone)]
pub struct BearerToken {
    /// SHA-256 of the token, as stored.
    hash: String,
}

impl BearerToken {
    /// Reads the token from a request's headers.
    ///
    /// # Errors
    /// 401 when the header is missing, unreadable, not `Bearer …` or not a turnpost token.
    fn of_request(req: &HttpRequest) -> Result<Self, ApiError> {
        let value = match req.headers().get(header::AUTHORIZATION).map(|v| v.to_str()) {
            None => {
                return Err(unauthorized(
                    "send an API token: Authorization: Bearer tp_…",
                ))
            }
            Some(Err(_)) => {
                return Err(unauthorized(
                    "the Authorization header is not readable text",
                ))
            }
            Some(Ok(v)) => v,
        };
        let token = value
            .strip_prefix("Bearer ")
            .or_else(|| value.strip_prefix("bearer "))
            .map(str::trim)
            .ok_or_else(|| unauthorized("the Authorization header must be: Bearer tp_…"))?;
        if !token.starts_with(secrets::TOKEN_PREFIX) || token.len() > 100 {
            return Err(unauthorized("that is not a turnpost API token"));
        }
        Ok(Self {
            hash: secrets::sha256_hex(token),
        })
    }

    /// Looks the token up on `conn` (noting its use at most once a minute).
    ///
    /// # Errors
    /// 401 for an unknown or revoked token; storage failures.
    pub fn authenticate(&self, conn: &mut db::DbConnection) -> Result<Authenticated, ApiError> {
        let found = tokens::by_hash(conn, &self.hash)?;
        let Some((token, account)) = found else {
            return Err(unauthorized("this token is unknown or was revoked"));
        };
        let now = db::now();
        let stale = token
            .last_used_at
            .is_none_or(|at| now.signed_duration_since(at) > chrono::Duration::minutes(1));
        if stale {
            tokens::touch(conn, token.id, now)?;
        }
        Ok(Authenticated {
            account,
            token_id: token.id,
        })
    }
}

impl FromRequest for BearerToken {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        std::future::ready(Self::of_request(req))
    }
}

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let bearer = BearerToken::of_request(req);
        Box::pin(async move {
            let state =
                state.ok_or_else(|| ApiError::Internal("application state missing".into()))?;
            let bearer = bearer?;
            crate::http::blocking::with_conn(&state, move |conn| bearer.authenticate(conn)).await
        })
    }
}

/// The address a request comes from, as the rate limits count it.
#[must_use]
pub fn client_address(state: &AppState, req: &HttpRequest) -> String {
    let forwarded: Vec<&str> = req
        .headers()
        .get_all(state.limits.proxy_header().name())
        .filter_map(|value| value.to_str().ok())
        .collect();
    state
        .limits
        .client_address(req.peer_addr().map(|peer| peer.ip()), &forwarded)
}
