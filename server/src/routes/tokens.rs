//! `GET /v1/tokens`, `DELETE /v1/tokens/{id}`.

use actix_web::HttpResponse;
use turnpost_shared::api::TokenList;

use crate::db::tokens;
use crate::http::error::ApiError;
use crate::http::path_call::{Call, PathCall};

/// The account's tokens, without their secrets.
///
/// # Errors
/// 401 without a valid token.
#[utoipa::path(get, path = "/v1/tokens", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = turnpost_shared::api::TokenList), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn list(call: Call) -> Result<HttpResponse, ApiError> {
    let rows = call
        .run(|conn, actor, ()| tokens::list(conn, actor.account_id()))
        .await?;
    Ok(HttpResponse::Ok().json(TokenList {
        tokens: rows.iter().map(tokens::ApiToken::to_api).collect(),
    }))
}

/// Revokes one of the account's tokens (the one in use too).
///
/// # Errors
/// 401 without a valid token, 404 if the account has no such token.
#[utoipa::path(delete, path = "/v1/tokens/{id}", tag = "accounts", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Token id")),
    responses((status = 204, description = "Revoked"), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 404, body = turnpost_shared::api::ErrorBody)))]
pub async fn revoke(call: PathCall) -> Result<HttpResponse, ApiError> {
    let token_id = call.key;
    let deleted = call
        .run(|conn, actor, id| tokens::delete(conn, actor.account_id(), id))
        .await?;
    if deleted {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(ApiError::NotFound(format!(
            "you have no token with id {token_id}"
        )))
    }
}
