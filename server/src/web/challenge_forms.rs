//! The buttons a signed-in browser answers challenges with: accept, decline (or withdraw),
//! join and leave an open seat, rematch a finished game. Each is a form with the session's
//! CSRF token, acts through the game service as `Actor::Account` with the API's guarantees
//! (the same rate limits), and redirects (303) to the page to see next.

use std::collections::HashMap;

use actix_web::http::header;
use actix_web::{web, HttpResponse};

use super::csrf;
use super::game_page::game_id;
use super::{SignedIn, WebError};
use crate::games::rematch::{self, Rematch};
use crate::games::{challenge, open_seats};
use crate::http::state::AppState;

fn see(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

fn checked(
    signed_in: &SignedIn,
    form: &HashMap<String, String>,
    path: &str,
) -> Result<i64, WebError> {
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    game_id(path)
}

/// `POST /games/{id}/accept`, with an optional `message` for the other players.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 no longer a challenge.
pub async fn accept(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let id = checked(&signed_in, &form, &path)?;
    let actor = signed_in.actor();
    let message = form.get("message").cloned();
    crate::http::blocking::with_games(&state, move |conn, ctx| {
        challenge::accept(conn, ctx, &actor, id, message.as_deref())
    })
    .await?;
    Ok(see(format!("/games/{id}")))
}

/// `POST /games/{id}/decline`: declines an invitation, or withdraws one's own challenge.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 no longer a challenge.
pub async fn decline(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let id = checked(&signed_in, &form, &path)?;
    let actor = signed_in.actor();
    crate::http::blocking::with_games(&state, move |conn, ctx| {
        challenge::decline(conn, ctx, &actor, id)
    })
    .await?;
    Ok(see("/me".to_owned()))
}

/// `POST /challenges/{id}/join`: takes an open seat (rate-limited like the API's join).
///
/// # Errors
/// 403 without a session or its token; 409 already seated, no open seat, not a challenge;
/// 429 past the hourly budget.
pub async fn join(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let id = checked(&signed_in, &form, &path)?;
    state
        .limits
        .check_join(&signed_in.account.name_key)
        .map_err(crate::http::error::ApiError::from)?;
    let actor = signed_in.actor();
    crate::http::blocking::with_games(&state, move |conn, ctx| {
        open_seats::join(conn, ctx, &actor, id)
    })
    .await?;
    Ok(see(format!("/games/{id}")))
}

/// `POST /challenges/{id}/leave`: gives up an open seat taken.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 a seat one was named for, or
/// no longer a challenge.
pub async fn leave(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let id = checked(&signed_in, &form, &path)?;
    let actor = signed_in.actor();
    crate::http::blocking::with_games(&state, move |conn, ctx| {
        open_seats::leave(conn, ctx, &actor, id)
    })
    .await?;
    Ok(see("/challenges".to_owned()))
}

/// `POST /games/{id}/rematch`: the rematch challenge of a finished game (made once; charged to
/// the challenge limits like the API's), then its page.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 not finished; 429 past the
/// hourly challenge budget.
pub async fn rematch(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    let id = checked(&signed_in, &form, &path)?;
    let actor = signed_in.actor();
    let limits = state.clone();
    let ctx = state.mail.clone();
    let cap = state.bot_games_cap;
    let view = crate::http::blocking::with_conn(&state, move |conn| {
        match rematch::check(conn, &actor, id, cap)? {
            Rematch::Made(view) => Ok(*view),
            Rematch::ToMake(checked) => {
                let charge = limits
                    .limits
                    .charge_challenge(checked.challenger(), checked.recipients())?;
                let view = rematch::make(conn, &ctx, &actor, &checked, id)?;
                charge.keep();
                Ok(view)
            }
        }
    })
    .await?;
    Ok(see(format!("/games/{}", view.id)))
}
