//! The pages of an unsubscribe link (`/v1/unsubscribe`, answered by `crate::routes`): the
//! confirmation with its button, and the answer that says what stopped, offers to undo it (a
//! form, no script) and links to the settings page. The undo form (`POST /unsubscribe/undo`)
//! carries the link's own query, whose signature is the permission as for the link itself,
//! and a CSRF token made from it.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use turnpost_shared::api::TurnMail;

use super::WebAnswer;
use super::{csrf, layout, WebError};
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::preferences::unsubscribe::{self, LinkQuery};
use crate::preferences::{Category, Preferences};

/// The query of a link, written back into a form's address.
fn query_string(query: &LinkQuery, category: Category) -> String {
    let part = |text: &Option<String>| {
        percent_encoding::utf8_percent_encode(
            text.as_deref().unwrap_or_default(),
            percent_encoding::NON_ALPHANUMERIC,
        )
        .to_string()
    };
    format!(
        "a={}&c={}&s={}",
        part(&query.a),
        category.as_str(),
        part(&query.s)
    )
}

/// The CSRF token of the undo form of a link.
fn undo_token(key: &[u8], query: &LinkQuery, category: Category) -> String {
    csrf::token(key, "unsubscribe-undo", &query_string(query, category))
}

fn settings_link() -> Markup {
    html! {
        p { "Every kind of mail can be switched on and off on your "
            a href="/settings" { "settings page" } " (sign in first)." }
    }
}

/// The confirmation page of a link: a button that switches the category off.
#[must_use]
pub fn confirm(query: &LinkQuery, category: Category) -> HttpResponse {
    let body = html! {
        h1 { "Unsubscribe" }
        p { "Stop " strong { (category.described()) } " from this turnpost server?" }
        @if category == Category::Turn {
            p { "Deadline reminders are a separate switch and keep coming." }
        }
        form method="post" action={ "/v1/unsubscribe?" (query_string(query, category)) } {
            input type="hidden" name="List-Unsubscribe" value="One-Click";
            button type="submit" { "Unsubscribe" }
        }
        (settings_link())
    };
    layout::ok("Unsubscribe", &body)
}

/// The answer after a link switched `category` off: what stopped, undo, settings.
#[must_use]
pub fn done(
    key: &[u8],
    query: &LinkQuery,
    category: Category,
    before: &Preferences,
) -> HttpResponse {
    let was = match before.turn_mail {
        TurnMail::Digest => "digest",
        TurnMail::Immediate | TurnMail::Off => "immediate",
    };
    let body = html! {
        h1 { "Unsubscribed" }
        p role="status" { "Done: no more " strong { (category.described()) } " from this server." }
        @if category == Category::Turn {
            p { "Deadline reminders are a separate switch and still come"
                @if !before.wants(Category::Reminders) { " (they were switched off before)" } "." }
        }
        form method="post" action={ "/unsubscribe/undo?" (query_string(query, category)) } {
            (csrf::field(&undo_token(key, query, category)))
            input type="hidden" name="was" value=(was);
            button type="submit" { "Undo: switch " (category.described()) " on again" }
        }
        (settings_link())
    };
    layout::ok("Unsubscribed", &body)
}

/// `POST /unsubscribe/undo?a=…&c=…&s=…`: `csrf`, `was`. Switches the link's category on again.
///
/// # Errors
/// 403 for a forged link or a missing or wrong token; storage failures.
pub async fn undo(
    state: web::Data<AppState>,
    query: web::Query<LinkQuery>,
    form: web::Form<HashMap<String, String>>,
) -> WebAnswer {
    let query = query.into_inner();
    let key = &state.mail.link_key;
    let (account_id, category) =
        unsubscribe::verify(key, &query).map_err(|e| WebError::from(ApiError::from(e)))?;
    csrf::check(&undo_token(key, &query, category), csrf::given(&form))?;
    let turn_mail = match form.get("was").map(String::as_str) {
        Some("digest") => TurnMail::Digest,
        _ => TurnMail::Immediate,
    };
    crate::http::blocking::with_conn(&state, move |conn| {
        Ok(unsubscribe::undo(conn, account_id, category, turn_mail)?)
    })
    .await?;
    tracing::info!(
        account_id,
        category = category.as_str(),
        "unsubscribe undone"
    );
    let body = html! {
        h1 { "Switched on again" }
        p role="status" { "You get " strong { (category.described()) } " again." }
        (settings_link())
    };
    Ok(layout::response(StatusCode::OK, "Switched on again", &body))
}
