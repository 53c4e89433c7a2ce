//! Who is looking at a page: a signed-in account (a live browser session) or a visitor. The
//! session middleware (`super::session_cookie`) resolves the cookies once per page request and
//! leaves the [`Viewer`] in the request's extensions, for the extractors (`super::extract`),
//! and for the duration of the request in a task local, for the layout's navigation
//! ([`current`]): so every page shows who is signed in without each handler passing it down.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::csrf::{self, CsrfRefused};
use crate::accounts::Account;
use crate::games::Actor;

tokio::task_local! {
    static VIEWER: Viewer;
}

/// A browser signed in to an account with a live session.
#[derive(Debug, Clone)]
pub struct SignedIn {
    /// The account.
    pub account: Account,
    /// Its browser session (the row in `browser_sessions`).
    pub session_id: i64,
    /// The CSRF token of this session's forms.
    csrf: String,
}

impl SignedIn {
    pub(super) fn new(account: Account, session_id: i64, csrf: String) -> Self {
        Self {
            account,
            session_id,
            csrf,
        }
    }

    /// The game service's actor for this account.
    #[must_use]
    pub fn actor(&self) -> Actor {
        Actor::Account(self.account.id)
    }

    /// The CSRF token this session's forms carry.
    #[must_use]
    pub fn csrf_token(&self) -> &str {
        &self.csrf
    }

    /// The hidden CSRF field for a form of this session.
    #[must_use]
    pub fn csrf_field(&self) -> maud::Markup {
        csrf::field(&self.csrf)
    }

    /// Checks a posted form's CSRF token (the `csrf` field).
    ///
    /// # Errors
    /// [`CsrfRefused`] (403) when it is missing or belongs to another session.
    pub fn check_csrf(&self, given: Option<&str>) -> Result<(), CsrfRefused> {
        csrf::check(&self.csrf, given)
    }
}

/// Who is looking: signed in, or a visitor (with the token of the visitor cookie, for the
/// sign-in forms).
#[derive(Debug, Clone)]
pub enum Viewer {
    /// A live session.
    SignedIn(SignedIn),
    /// Not signed in.
    Visitor {
        /// The CSRF token of the visitor cookie.
        csrf: String,
        /// Whether a page asked for the token (then the cookie is set if the browser has
        /// none yet).
        used: Arc<AtomicBool>,
    },
}

impl Viewer {
    /// The session, when signed in.
    #[must_use]
    pub fn signed_in(&self) -> Option<&SignedIn> {
        match self {
            Self::SignedIn(signed_in) => Some(signed_in),
            Self::Visitor { .. } => None,
        }
    }

    /// The CSRF token of this browser's forms.
    #[must_use]
    pub fn csrf_token(&self) -> &str {
        match self {
            Self::SignedIn(signed_in) => signed_in.csrf_token(),
            Self::Visitor { csrf, used } => {
                used.store(true, Ordering::Relaxed);
                csrf
            }
        }
    }

    /// The hidden CSRF field for a form of this browser.
    #[must_use]
    pub fn csrf_field(&self) -> maud::Markup {
        csrf::field(self.csrf_token())
    }

    /// Checks a posted form's CSRF token (the `csrf` field).
    ///
    /// # Errors
    /// [`CsrfRefused`] (403) when it is missing or belongs to another browser or session.
    pub fn check_csrf(&self, given: Option<&str>) -> Result<(), CsrfRefused> {
        let expected = match self {
            Self::SignedIn(signed_in) => signed_in.csrf_token(),
            Self::Visitor { csrf, .. } => csrf,
        };
        csrf::check(expected, given)
    }

    /// Runs `future` with this viewer as the one [`current`] answers.
    pub(super) async fn scope<F: std::future::Future>(self, future: F) -> F::Output {
        VIEWER.scope(self, future).await
    }
}

/// The viewer of the page being rendered (for the layout); `None` outside a page request.
#[must_use]
pub fn current() -> Option<Viewer> {
    VIEWER.try_with(Clone::clone).ok()
}
