//! `POST /v1/sessions` (ask for a code) and `POST /v1/sessions/verify` (code → token).

use actix_web::{web, HttpRequest, HttpResponse};
use turnpost_shared::api::{NewToken, SignInRequest, VerifyRequest};

use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::{accounts, validate};

/// Mails a one-time code if an account has this email. Answers the same either way.
///
/// # Errors
/// 422 for a malformed email, 429 when rate-limited.
#[utoipa::path(post, path = "/v1/sessions", tag = "accounts",
    request_body = turnpost_shared::api::SignInRequest,
    responses(
        (status = 202, description = "Code mailed if the address has an account", body = turnpost_shared::api::CodeSent),
        (status = 422, body = turnpost_shared::api::ErrorBody),
        (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    state: web::Data<AppState>,
    body: web::Json<SignInRequest>,
) -> Result<HttpResponse, ApiError> {
    let email = validate::email(&body.email)?;
    state.limits.check_email("signin", &email.key)?;
    let ctx = state.mail.clone();
    crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::sign_in(conn, &email, &ctx)?)
    })
    .await?;
    Ok(HttpResponse::Accepted().json(super::accounts::code_sent()))
}

/// Trades a one-time code for a personal API token.
///
/// # Errors
/// 401 for a wrong, expired or locked code; 422 for a malformed email or label; 429 when
/// rate-limited.
#[utoipa::path(post, path = "/v1/sessions/verify", tag = "accounts",
    request_body = turnpost_shared::api::VerifyRequest,
    responses(
        (status = 201, description = "A new token (shown once)", body = turnpost_shared::api::NewToken),
        (status = 401, description = "Wrong, expired or locked code", body = turnpost_shared::api::ErrorBody),
        (status = 422, body = turnpost_shared::api::ErrorBody),
        (status = 429, body = turnpost_shared::api::ErrorBody)))]
pub async fn verify(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<VerifyRequest>,
) -> Result<HttpResponse, ApiError> {
    let body = body.into_inner();
    let email = validate::email(&body.email)?;
    let label = validate::token_label(body.label.as_deref())?;
    if body.code.chars().count() > 64 {
        return Err(ApiError::invalid("invalid_code", "a code has 8 characters"));
    }
    state.limits.check(
        "verify",
        &super::accounts::client_address(&state, &req),
        &email.key,
    )?;
    let code = body.code;
    let (secret, token, account) = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::verify(conn, &email, &code, &label)?)
    })
    .await?;
    Ok(HttpResponse::Created().json(NewToken {
        token: secret,
        info: token.to_api(),
        account: account.to_api(),
    }))
}
