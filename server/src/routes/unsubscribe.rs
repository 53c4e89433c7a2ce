//! `/v1/unsubscribe`: the signed links in every mail's `List-Unsubscribe` header. No login:
//! the signature is the permission. `GET` (a person clicking) shows a page with a button;
//! `POST` (the button, or a mail client's RFC 8058 one-click request) switches the category off
//! and answers with a page that offers to undo it (`crate::web::unsubscribe_page`).

use actix_web::{web, HttpResponse};

use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::preferences::unsubscribe::{self, LinkQuery};

/// The confirmation page of an unsubscribe link.
///
/// # Errors
/// 403 `bad_unsubscribe_link` for a forged or damaged link.
#[utoipa::path(get, path = "/v1/unsubscribe", tag = "notifications",
    params(("a" = i64, Query, description = "Account id"), ("c" = String, Query, description = "Category"), ("s" = String, Query, description = "Signature")),
    responses((status = 200, description = "An HTML page with a confirm button"), (status = 403, body = turnpost_shared::api::ErrorBody)))]
pub async fn page_handler(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let (_, category) = unsubscribe::verify(&state.mail.link_key, &query)?;
    Ok(crate::web::unsubscribe_page::confirm(&query, category))
}

/// Switches the link's category off (RFC 8058 one-click; the body is ignored).
///
/// # Errors
/// 403 `bad_unsubscribe_link`; storage failures.
#[utoipa::path(post, path = "/v1/unsubscribe", tag = "notifications",
    params(("a" = i64, Query, description = "Account id"), ("c" = String, Query, description = "Category"), ("s" = String, Query, description = "Signature")),
    responses((status = 200, description = "Unsubscribed (an HTML page)"), (status = 403, body = turnpost_shared::api::ErrorBody)))]
pub async fn one_click(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let (account_id, category) = unsubscribe::verify(&state.mail.link_key, &query)?;
    let before = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(unsubscribe::apply(conn, account_id, category)?)
    })
    .await?;
    tracing::info!(
        account_id,
        category = category.as_str(),
        "unsubscribed by link"
    );
    Ok(crate::web::unsubscribe_page::done(
        &state.mail.link_key,
        &query,
        category,
        &before,
    ))
}
