//! `GET /v1/me`.

use actix_web::HttpResponse;

use crate::auth::Authenticated;

/// The account of the token used.
#[utoipa::path(get, path = "/v1/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = crate::openapi::schemas::Account), (status = 401, body = crate::openapi::schemas::ErrorBody)))]
pub async fn me(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(auth.account.to_api())
}
