//! `/v1/unsubscribe`: the signed links in every mail's `List-Unsubscribe` header. No login:
//! the signature is the permission. `GET` (a person clicking) shows a page with a button;
//! `POST` (the button, or a mail client's RFC 8058 one-click request) switches the category off
//! and answers with a page that offers to undo it (`crate::web::unsubscribe_page`).

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest, HttpResponse};

use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::preferences::unsubscribe::{self, LinkQuery};
use crate::preferences::Category;

/// The confirmation page of an unsubscribe link.
///
/// # Errors
/// 403 `bad_unsubscribe_link` for a forged or damaged link.
#[utoipa::path(get, path = "/v1/unsubscribe", tag = "notifications",
    params(("a" = i64, Query, description = "Account id"), ("c" = String, Query, description = "Category"), ("s" = String, Query, description = "Signature")),
    responses((status = 200, description = "An HTML page with a confirm button"), (status = 403, body = turnpost_shared::api::ErrorBody)))]
pub async fn page_handler(link: SignedLink) -> Result<HttpResponse, ApiError> {
    Ok(crate::web::unsubscribe_page::confirm(
        &link.query,
        link.category,
    ))
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
    link: SignedLink,
) -> Result<HttpResponse, ApiError> {
    let SignedLink {
        query,
        account_id,
        category,
    } = link;
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

/// An unsubscribe link's query, its account and its category: extracted only once its
/// signature is checked (403 `bad_unsubscribe_link` otherwise).
pub struct SignedLink {
    query: LinkQuery,
    account_id: i64,
    category: Category,
}

impl FromRequest for SignedLink {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        // Read as the routes read them: a query that cannot be read is the API's 400.
        let parts = <(web::Data<AppState>, web::Query<LinkQuery>)>::from_request(req, payload);
        Box::pin(async move {
            let (state, query) = parts.await?;
            let query = query.into_inner();
            let (account_id, category) =
                unsubscribe::verify(&state.mail.link_key, &query).map_err(ApiError::from)?;
            Ok(Self {
                query,
                account_id,
                category,
            })
        })
    }
}
