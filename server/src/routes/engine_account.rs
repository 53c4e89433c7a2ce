//! `GET`/`PUT /v1/me/engine`: whether the caller's account is an engine account, one whose
//! moves an outside program makes (`turnpost bot run`). The owner says so before an engine
//! plays for it, so that the people it meets know whom they play against.

use actix_web::HttpResponse;
use serde::{Deserialize, Serialize};

use crate::db::accounts;
use crate::http::auth::Authenticated;
use crate::http::json_object::JsonObject;
use crate::http::path_call::Call;

/// Whether an account is an engine account (the body of the request and of the answer).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EngineSetting {
    /// `true`: an outside program plays the account's moves, and its pages say so.
    pub engine: bool,
}

/// Whether the caller's account is an engine account.
#[utoipa::path(get, path = "/v1/me/engine", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = EngineSetting), (status = 401, body = turnpost_shared::api::ErrorBody)))]
pub async fn show(auth: Authenticated) -> HttpResponse {
    HttpResponse::Ok().json(EngineSetting {
        engine: auth.account.engine,
    })
}

/// Marks the caller's account as an engine account (`{"engine": true}`), or as a person's
/// again (`false`); answers the setting now. Setting it again changes nothing.
///
/// # Errors
/// 401; 400, 413, 415, 422 for a body that is not `{"engine": BOOL}`; storage failures.
#[utoipa::path(put, path = "/v1/me/engine", tag = "accounts", security(("bearer" = [])),
    request_body = EngineSetting,
    responses((status = 200, description = "The setting now", body = EngineSetting), (status = 401, body = turnpost_shared::api::ErrorBody), (status = 422, body = turnpost_shared::api::ErrorBody)))]
pub async fn set(
    call: Call,
    body: Result<JsonObject<EngineSetting>, actix_web::Error>,
) -> Result<HttpResponse, actix_web::Error> {
    // Refused only once the token passed (see `crate::http::auth`).
    let setting = body?.into_inner();
    let answer = call.answer(move |conn, actor, ()| {
        accounts::set_engine(conn, actor.account_id(), setting.engine).map(|()| setting)
    });
    Ok(answer.await?)
}
