//! Who a form of the game page (move, resign, draw, mute) acts for: the play cookie's seat, its
//! form carrying the pass's CSRF token, or without a play cookie a signed-in browser's account,
//! its form carrying the session's token. Anything else is refused (403) before the handler runs.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};

use super::game_page::game_id;
use super::play_cookie::{pass_of, Checked};
use super::WebError;
use crate::games::Actor;
use crate::http::state::AppState;
use crate::play_link;

/// A play form posted about the game its path names, and who it acts for. Extracted as the
/// state, the request, the path and the form, in that order; then the game id is read (404)
/// and the form authorised (403).
pub struct PlayForm {
    /// The application state.
    pub state: web::Data<AppState>,
    /// The game.
    pub id: i64,
    /// The form's fields.
    pub form: HashMap<String, String>,
    /// Who the form acts for.
    pub actor: Actor,
    /// The play cookie's pass, when the form came with one.
    pub pass: Option<Checked>,
}

impl FromRequest for PlayForm {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, actix_web::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let parts = <(
            web::Data<AppState>,
            HttpRequest,
            web::Path<String>,
            web::Form<HashMap<String, String>>,
        )>::from_request(req, payload);
        Box::pin(async move {
            let (state, req, path, form) = parts.await?;
            let id = game_id(&path)?;
            let form = form.into_inner();
            let (actor, pass) = authorise(&state, &req, id, &form).await?;
            Ok(Self {
                state,
                id,
                form,
                actor,
                pass,
            })
        })
    }
}

/// The cookie's pass and a matching CSRF token, or (without a play cookie) a signed-in session
/// and its token; else 403.
async fn authorise(
    state: &AppState,
    req: &HttpRequest,
    id: i64,
    form: &HashMap<String, String>,
) -> Result<(Actor, Option<Checked>), WebError> {
    let checked = match pass_of(state, req, id).await? {
        Some(Ok(checked)) => checked,
        Some(Err(refused)) => return Err(WebError::forbidden(refused.message())),
        None => {
            // No play cookie: a signed-in player acts for their own seat.
            let viewer = super::viewer::current();
            let Some(signed_in) = viewer.as_ref().and_then(super::Viewer::signed_in) else {
                return Err(WebError::forbidden(
                    "playing from this page needs your play link (open the \"Play in your browser\" \
                     link of your latest turn mail in this browser first) or signing in",
                ));
            };
            signed_in.check_csrf(form.get("csrf").map(String::as_str))?;
            return Ok((signed_in.actor(), None));
        }
    };
    let token = form.get("csrf").map(String::as_str).unwrap_or_default();
    if !play_link::csrf_matches(&state.mail.link_key, &checked.text, token) {
        return Err(WebError::forbidden(
            "this form is not from this game's page (its security token does not match); \
             reload the game page and try again",
        ));
    }
    Ok((checked.actor(), Some(checked)))
}
