//! The play cookie a browser holds for a game, checked against the game as it stands: what
//! the game page shows (the move form) and the play forms act with (`Actor::PlayLink`).
//!
//! A browser signed in to an account that holds a seat of the game plays that seat, whatever
//! play cookie it also holds: a cookie of another account (a link someone else sent, followed
//! while signed in) or one that no longer works (revoked with the account's tokens or by
//! signing out everywhere) is set aside, and the game page removes it. Otherwise such a
//! cookie would outrank the session and refuse the player's own moves for its 90 days.

use actix_web::cookie::Cookie;
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

/// What became of the game's play cookie on a request.
#[derive(Debug, Clone)]
pub enum CookieReading {
    /// The browser has none.
    Absent,
    /// Checked against the game.
    Checked(Result<Checked, PassRefused>),
    /// Set aside: the browser is signed in to a seat of the game, and the cookie is another
    /// account's or no longer works. The session plays; the cookie should be removed.
    SetAside(SetAside),
}

/// Why a play cookie was set aside ([`CookieReading::SetAside`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetAside {
    /// It plays another account's seat.
    OtherAccount,
    /// It is the signed-in account's own, but refused (revoked, or the game is over).
    Refused,
}

impl SetAside {
    /// A sentence for the game page that removes the cookie.
    #[must_use]
    pub fn message(self) -> &'static str {
        match self {
            Self::OtherAccount => {
                "This browser held a play link for another player's seat in this game. You are \
                 signed in to your own seat, so it was set aside and removed: here you play as \
                 yourself."
            }
            Self::Refused => {
                "This browser's play link for this game no longer works, so it was removed: you \
                 are signed in, and here you play your seat."
            }
        }
    }
}

/// The cookie that removes game `id`'s play cookie from the browser (same name and path).
#[must_use]
pub fn removal(id: i64) -> Cookie<'static> {
    let mut cookie = Cookie::build(play_link::cookie_name(id), "")
        .path(format!("/games/{id}"))
        .finish();
    cookie.make_removal();
    cookie
}

/// Reads game `id`'s play cookie, if the browser has one, and checks it; sets it aside
/// ([`CookieReading::SetAside`]) when the browser is signed in to an account holding a seat
/// of the game and the cookie is not that account's working pass.
///
/// # Errors
/// Storage failures; an unknown game.
pub async fn read(state: &AppState, req: &HttpRequest, id: i64) -> Result<CookieReading, WebError> {
    let Some(cookie) = req.cookie(&play_link::cookie_name(id)) else {
        return Ok(CookieReading::Absent);
    };
    let text = cookie.value().to_owned();
    let signed_in = super::viewer::current()
        .and_then(|viewer| viewer.signed_in().map(|signed_in| signed_in.account.id));
    let key = state.mail.link_key.clone();
    let lookup = text.clone();
    let (checked, set_aside) = crate::http::blocking::with_conn(state, move |conn| {
        let loaded = crate::games::reads::loaded(conn, id)?;
        let pass = play_link::parse(&lookup);
        let checked = pass
            .clone()
            .ok_or(PassRefused::Invalid)
            .and_then(|pass| play_link::check(&key, &loaded, &pass).map(|()| pass));
        let seated = signed_in
            .filter(|account| loaded.seats.iter().any(|(_, holder)| holder.id == *account));
        let set_aside = seated.and_then(|account| match &pass {
            Some(pass) if pass.account_id != account => Some(SetAside::OtherAccount),
            _ if checked.is_err() => Some(SetAside::Refused),
            _ => None,
        });
        Ok((checked, set_aside))
    })
    .await?;
    Ok(match set_aside {
        Some(why) => CookieReading::SetAside(why),
        None => CookieReading::Checked(checked.map(|pass| Checked { pass, text })),
    })
}

/// The pass of the game's cookie, if the browser has one and it is not set aside
/// ([`read`]), checked.
///
/// # Errors
/// Storage failures; an unknown game.
pub async fn pass_of(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
) -> Result<Option<Result<Checked, PassRefused>>, WebError> {
    Ok(match read(state, req, id).await? {
        CookieReading::Checked(checked) => Some(checked),
        CookieReading::Absent | CookieReading::SetAside(_) => None,
    })
}
