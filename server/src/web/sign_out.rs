//! `POST /signout` (this browser) and `POST /signout/everywhere` (every browser of the
//! account): the sessions' rows are deleted, so their cookies sign nothing in any more.

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use super::viewer::SignedIn;
use super::{csrf, session_cookie, WebError};
use crate::browser_sessions;
use crate::http::state::AppState;

fn signed_out(state: &AppState) -> HttpResponse {
    HttpResponse::SeeOther()
        .cookie(session_cookie::session_removal(state))
        .insert_header((header::LOCATION, "/"))
        .finish()
}

/// `POST /signout`: `csrf`.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn sign_out(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    let (account_id, session_id) = (signed_in.account.id, signed_in.session_id);
    crate::http::blocking::with_conn(&state, move |conn| {
        Ok(browser_sessions::revoke(conn, account_id, session_id)?)
    })
    .await?;
    Ok(signed_out(&state))
}

/// `POST /signout/everywhere`: `csrf`. Signs out every browser of the account, this one too.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn sign_out_everywhere(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    let account_id = signed_in.account.id;
    let count = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(browser_sessions::revoke_all(conn, account_id)?)
    })
    .await?;
    tracing::info!(account_id, count, "signed out everywhere");
    Ok(signed_out(&state))
}
