//! The play cookie a browser holds for a game, checked against the game as it stands: what
//! the game page shows (the move form) and the play forms act with (`Actor::PlayLink`).

use actix_web::HttpRequest;

use super::WebError;
use crate::games::Actor;
use crate::http::state::AppState;
use crate::play_link::{self, PassRefused, PlayPass};

/// A pass that was checked against the game as it stood.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The pass.
    pub pass: PlayPass,
    /// Its text (the cookie's value; the CSRF token is derived from it).
    pub text: String,
}

impl Checked {
    /// The game service's actor for the pass's seat.
    pub fn actor(&self) -> Actor {
        Actor::PlayLink {
            account_id: self.pass.account_id,
            seat: self.pass.seat,
        }
    }
}

/// Checks the pass `text` of game `id`.
///
/// # Errors
/// Storage failures.
pub async fn check_pass(
    state: &AppState,
    id: i64,
    text: String,
) -> Result<Result<Checked, PassRefused>, WebError> {
    let key = state.mail.link_key.clone();
    let lookup = text.clone();
    let checked = crate::http::blocking::with_conn(state, move |conn| {
        Ok(play_link::verify(conn, &key, id, &lookup)?)
    })
    .await?;
    Ok(checked.map(|pass| Checked { pass, text }))
}

/// The pass of the game's cookie, if the browser has one, checked.
///
/// # Errors
/// Storage failures; an unknown game.
pub async fn pass_of(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
) -> Result<Option<Result<Checked, PassRefused>>, WebError> {
    let Some(cookie) = req.cookie(&play_link::cookie_name(id)) else {
        return Ok(None);
    };
    Ok(Some(
        check_pass(state, id, cookie.value().to_owned()).await?,
    ))
}
