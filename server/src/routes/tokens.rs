//! `GET /v1/tokens`, `DELETE /v1/tokens/{id}`.

use actix_web::{web, HttpResponse};
use turnpost_shared::TokenList;

use crate::db::tokens;
use crate::http::auth::Authenticated;
use crate::http::error::ApiError;
use crate::http::state::AppState;

/// The account's tokens, without their secrets.
///
/// # Errors
/// 401 without a valid token.
#[utoipa::path(get, path = "/v1/tokens", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::TokenList), (status = 401, body = turnpost_shared::ErrorBody)))]
pub async fn list(
    state: web::Data<AppState>,
    auth: Authenticated,
) -> Result<HttpResponse, ApiError> {
    let account_id = auth.account.id;
    let rows =
        crate::http::blocking::with_conn(&state, move |conn| Ok(tokens::list(conn, account_id)?))
            .await?;
    Ok(HttpResponse::Ok().json(TokenList {
        tokens: rows
            .iter()
            .map(crate::db::models::ApiToken::to_api)
            .collect(),
    }))
}

/// Revokes one of the account's tokens (the one in use too).
///
/// # Errors
/// 401 without a valid token, 404 if the account has no such token.
#[utoipa::path(delete, path = "/v1/tokens/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Token id")),
    responses((status = 204, description = "Revoked"), (status = 401, body = turnpost_shared::ErrorBody), (status = 404, body = turnpost_shared::ErrorBody)))]
pub async fn revoke(
    state: web::Data<AppState>,
    auth: Authenticated,
    path: web::Path<i64>,
) -> Result<HttpResponse, ApiError> {
    let account_id = auth.account.id;
    let token_id = path.into_inner();
    let deleted = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(tokens::delete(conn, account_id, token_id)?)
    })
    .await?;
    if deleted {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound(format!(
            "you have no token with id {token_id}"
        )))
    }
}
