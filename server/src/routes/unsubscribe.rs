//! `/v1/unsubscribe`: the signed links in every mail's `List-Unsubscribe` header. No login:
//! the signature is the permission. `GET` (a person clicking) shows a page with a button;
//! `POST` (the button, or a mail client's RFC 8058 one-click request) switches the category off.

use actix_web::http::header::ContentType;
use actix_web::{web, HttpResponse};

use crate::error::ApiError;
use crate::preferences::unsubscribe::{self, LinkQuery};
use crate::state::AppState;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn page(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{title}</title>\
         <meta name=\"viewport\" content=\"width=device-width\"></head>\
         <body style=\"font-family:sans-serif;max-width:32em;margin:3em auto\"><h1>{title}</h1>{body}</body></html>"
    )
}

/// The confirmation page of an unsubscribe link.
///
/// # Errors
/// 403 `bad_unsubscribe_link` for a forged or damaged link.
#[utoipa::path(get, path = "/v1/unsubscribe", tag = "notifications",
    params(("a" = i64, Query, description = "Account id"), ("c" = String, Query, description = "Category"), ("s" = String, Query, description = "Signature")),
    responses((status = 200, description = "An HTML page with a confirm button"), (status = 403, body = turnpost_shared::ErrorBody)))]
pub async fn page_handler(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = query.into_inner();
    let (_, category) = unsubscribe::verify(&state.mail.link_key, &query)?;
    let action = format!(
        "/v1/unsubscribe?a={}&c={}&s={}",
        escape(query.a.as_deref().unwrap_or_default()),
        escape(category.name()),
        escape(query.s.as_deref().unwrap_or_default())
    );
    let html = page(
        "Unsubscribe",
        &format!(
            "<p>Stop {} from this turnpost server?</p>\
             <form method=\"post\" action=\"{action}\">\
             <input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\
             <button type=\"submit\">Unsubscribe</button></form>\
             <p>You can switch it on again with <code>turnpost notifications</code>.</p>",
            category.described()
        ),
    );
    Ok(HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(html))
}

/// Switches the link's category off (RFC 8058 one-click; the body is ignored).
///
/// # Errors
/// 403 `bad_unsubscribe_link`; storage failures.
#[utoipa::path(post, path = "/v1/unsubscribe", tag = "notifications",
    params(("a" = i64, Query, description = "Account id"), ("c" = String, Query, description = "Category"), ("s" = String, Query, description = "Signature")),
    responses((status = 200, description = "Unsubscribed (an HTML page)"), (status = 403, body = turnpost_shared::ErrorBody)))]
pub async fn one_click(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
) -> Result<HttpResponse, ApiError> {
    let (account_id, category) = unsubscribe::verify(&state.mail.link_key, &query.into_inner())?;
    crate::blocking::with_conn(&state, move |conn| {
        Ok(unsubscribe::apply(conn, account_id, category)?)
    })
    .await?;
    tracing::info!(
        account_id,
        category = category.name(),
        "unsubscribed by link"
    );
    Ok(HttpResponse::Ok()
        .content_type(ContentType::html())
        .body(page(
            "Unsubscribed",
            &format!(
            "<p>Done: no more {}. Switch it on again with <code>turnpost notifications</code>.</p>",
            category.described()
        ),
        )))
}
