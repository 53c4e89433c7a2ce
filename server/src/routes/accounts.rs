//! `POST /v1/accounts`: sign up.

use actix_web::{web, HttpRequest, HttpResponse};
use turnpost_shared::api::{CodeSent, SignUpRequest};

use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::{accounts, validate};

/// Creates an unverified account and mails it a one-time code.
///
/// An email address that already has an account gets the same 202 answer (its owner is mailed
/// that someone tried to sign up with it), so the answer never tells whether an address is
/// registered.
///
/// # Errors
/// 403 when sign-up is closed, 409 for a taken name, 422 for a bad name or email, 429 when
/// rate-limited.
#[utoipa::path(post, path = "/v1/accounts", tag = "accounts",
    request_body = turnpost_shared::api::SignUpRequest,
    responses(
        (status = 202, description = "Code mailed (also for an email address that has an account)", body = turnpost_shared::api::CodeSent),
        (status = 403, description = "Sign-up closed", body = turnpost_shared::api::ErrorBody),
        (status = 409, description = "Name taken", body = turnpost_shared::api::ErrorBody),
        (status = 422, description = "Invalid name or email", body = turnpost_shared::api::ErrorBody),
        (status = 429, description = "Rate limited", body = turnpost_shared::api::ErrorBody)))]
pub async fn create(
    state: web::Data<AppState>,
    req: HttpRequest,
    body: web::Json<SignUpRequest>,
) -> Result<HttpResponse, ApiError> {
    if !state.open_signup {
        return Err(ApiError::Forbidden {
            code: "signup_closed",
            message: "sign-up is closed on this server; ask its operator for an account".into(),
        });
    }
    let body = body.into_inner();
    let name = validate::account_name(&body.name)?;
    let email = validate::email(&body.email)?;
    validate::deliverable_email(&email, state.smtp_utf8)?;
    state
        .limits
        .check("signup", &client_address(&state, &req), &email.key)?;
    let ctx = state.mail.clone();
    crate::http::blocking::with_conn(&state, move |conn| {
        Ok(accounts::sign_up(conn, &name, &email, &ctx)?)
    })
    .await?;
    Ok(HttpResponse::Accepted().json(code_sent()))
}

pub(crate) use crate::http::auth::client_address;

pub(crate) fn code_sent() -> CodeSent {
    CodeSent {
        status: "code_sent".into(),
        expires_in_seconds: u64::try_from(accounts::CODE_VALIDITY_MINUTES * 60).unwrap_or(900),
    }
}
