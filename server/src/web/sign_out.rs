//! `POST /signout` (this browser) and `POST /signout/everywhere` (every browser of the
//! account): the sessions' rows are deleted, so their cookies sign nothing in any more.

use actix_web::http::header;
use actix_web::HttpResponse;

use super::session_cookie;
use super::signed_in_form::SignedInForm;
use super::WebAnswer;
use crate::browser_sessions;
use crate::http::state::AppState;

/// Signed out: the session cookie removed, and on to the home page.
pub(super) fn signed_out(state: &AppState) -> HttpResponse {
    HttpResponse::SeeOther()
        .cookie(session_cookie::session_removal(state))
        .insert_header((header::LOCATION, "/"))
        .finish()
}

/// `POST /signout`: `csrf`.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn sign_out(posted: SignedInForm) -> WebAnswer {
    let (account_id, session_id) = (posted.signed_in.account.id, posted.signed_in.session_id);
    crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(browser_sessions::revoke(conn, account_id, session_id)?)
    })
    .await?;
    Ok(signed_out(&posted.state))
}

/// `POST /signout/everywhere`: `csrf`. Signs out every browser of the account, this one too.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn sign_out_everywhere(posted: SignedInForm) -> WebAnswer {
    let account_id = posted.signed_in.account.id;
    let count = crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(browser_sessions::revoke_all(conn, account_id)?)
    })
    .await?;
    tracing::info!(account_id, count, "signed out everywhere");
    Ok(signed_out(&posted.state))
}
