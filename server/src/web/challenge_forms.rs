//! The buttons a signed-in browser answers challenges with: accept, decline (or withdraw),
//! join and leave an open seat, rematch a finished game. Each is a form with the session's
//! CSRF token, acts through the game service as `Actor::Account` with the API's guarantees
//! (the same rate limits), and redirects (303) to the page to see next.

use super::game_page::game_id;
use super::signed_in_form::{see_other, SignedInForm};
use super::WebAnswer;
use crate::db::DbConnection;
use crate::games::{challenge, open_seats, Actor};
use crate::http::budgeted_challenge;
use crate::http::error::ApiError;

/// `POST /games/{id}/accept`, with an optional `message` for the other players.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 no longer a challenge.
pub async fn accept(posted: SignedInForm<String>) -> WebAnswer {
    let message = posted.field("message").map(str::to_owned);
    let accept =
        move |conn: &mut _, actor: &_, id| challenge::accept(conn, actor, id, message.as_deref());
    act_then_see(posted, accept, |id| format!("/games/{id}")).await
}

/// `POST /games/{id}/decline`: declines an invitation, or withdraws one's own challenge.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 no longer a challenge.
pub async fn decline(posted: SignedInForm<String>) -> WebAnswer {
    act_then_see(posted, challenge::decline, |_| "/me".to_owned()).await
}

/// `POST /challenges/{id}/join`: takes an open seat (rate-limited like the API's join).
///
/// # Errors
/// 403 without a session or its token; 409 already seated, no open seat, not a challenge;
/// 429 past the hourly budget.
pub async fn join(posted: SignedInForm<String>) -> WebAnswer {
    let id = game_id(&posted.path)?;
    posted.charge_join()?;
    let cap = posted.state.bot_games_cap;
    posted
        .act(id, move |conn, actor, id| {
            open_seats::join(conn, actor, id, cap)
        })
        .await?;
    Ok(see_other(format!("/games/{id}")))
}

/// `POST /challenges/{id}/leave`: gives up an open seat taken.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 a seat one was named for, or
/// no longer a challenge.
pub async fn leave(posted: SignedInForm<String>) -> WebAnswer {
    act_then_see(posted, open_seats::leave, |_| "/challenges".to_owned()).await
}

/// `POST /games/{id}/rematch`: the rematch challenge of a finished game (made once; charged to
/// the challenge limits like the API's), then its page.
///
/// # Errors
/// 403 without a session or its token, or without a seat; 409 not finished; 429 past the
/// hourly challenge budget.
pub async fn rematch(posted: SignedInForm<String>) -> WebAnswer {
    let id = game_id(&posted.path)?;
    let actor = posted.signed_in.actor();
    let (view, _) = budgeted_challenge::rematch(&posted.state, actor, id).await?;
    Ok(see_other(format!("/games/{}", view.id)))
}

/// Runs `service` for the signed-in account on the game the form's path names, then sends the
/// browser to `next` (given the game's id).
async fn act_then_see<T, E, F>(
    posted: SignedInForm<String>,
    service: F,
    next: impl FnOnce(i64) -> String,
) -> WebAnswer
where
    T: Send + 'static,
    ApiError: From<E>,
    F: FnOnce(&mut DbConnection, &Actor, i64) -> Result<T, E> + Send + 'static,
{
    let id = game_id(&posted.path)?;
    posted.act(id, service).await?;
    Ok(see_other(next(id)))
}
