//! Bearer-token authentication as an actix extractor.

use std::future::Future;
use std::pin::Pin;

use actix_web::{dev::Payload, http::header, web, FromRequest, HttpRequest};

use crate::db::models::Account;
use crate::db::{self, tokens};
use crate::error::ApiError;
use crate::secrets;
use crate::state::AppState;

/// The account behind a valid `Authorization: Bearer tp_…` header.
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

impl FromRequest for Authenticated {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _payload: &mut Payload) -> Self::Future {
        let state = req.app_data::<web::Data<AppState>>().cloned();
        let header_value = req
            .headers()
            .get(header::AUTHORIZATION)
            .map(|v| v.to_str().map(str::to_owned));
        Box::pin(async move {
            let state =
                state.ok_or_else(|| ApiError::Internal("application state missing".into()))?;
            let value = match header_value {
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
            let hash = secrets::sha256_hex(token);
            let pool = state.pool.clone();
            let found = web::block(move || -> Result<_, db::DbError> {
                let mut conn = pool.get()?;
                let found = tokens::by_hash(&mut conn, &hash)?;
                if let Some((token, _)) = &found {
                    let now = db::now();
                    let stale = token.last_used_at.is_none_or(|at| {
                        now.signed_duration_since(at) > chrono::Duration::minutes(1)
                    });
                    if stale {
                        tokens::touch(&mut conn, token.id, now)?;
                    }
                }
                Ok(found)
            })
            .await??;
            match found {
                Some((token, account)) => Ok(Self {
                    account,
                    token_id: token.id,
                }),
                None => Err(unauthorized("this token is unknown or was revoked")),
            }
        })
    }
}
