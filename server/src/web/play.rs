//! Playing from the page: following a play link (sets the game's cookie, redirects to the page),
//! and the forms it shows (move, resign with a confirmation, draw). Every form carries the CSRF
//! token of the cookie's pass and every write goes through the game service as an
//! `Actor::PlayLink` for the pass's seat; without a play cookie, a signed-in browser's forms
//! carry its session's token and act as `Actor::Account` (the same ply guard and idempotent
//! retry). Without either, posting is refused (403).

use std::collections::HashMap;

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse, ResponseError as _};
use maud::html;
use turnpost_shared::api::{ConditionalMoves, DrawAction, PlayMoveRequest};

use super::game_page::{self, game_id, Note};
use super::play_cookie::{check_pass, pass_of, Checked};
use super::play_form::PlayForm;
use super::signed_in_form::see_other;
use super::WebAnswer;
use super::{layout, WebError};
use crate::db::DbConnection;
use crate::games::conditional::{self, Edit};
use crate::games::{ending, messages, moving, Actor, GameError};
use crate::http::state::AppState;
use crate::play_link;

/// `GET /games/{id}/play/{pass}`: the link of a turn card. Sets the game's cookie and redirects
/// to the game page.
///
/// # Errors
/// 404 unknown game; 403 a forged, revoked or finished game's link.
pub async fn follow_link(
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
) -> WebAnswer {
    let (id, text) = path.into_inner();
    let id = game_id(&id)?;
    let checked = check_pass(&state, id, text).await?;
    let checked = checked.map_err(|refused| WebError::forbidden(refused.message()))?;
    let secure = state.mail.public_url.starts_with("https://");
    let cookie = Cookie::build(play_link::cookie_name(id), checked.text)
        .path(format!("/games/{id}"))
        .http_only(true)
        .same_site(SameSite::Lax)
        .secure(secure)
        .max_age(actix_web::cookie::time::Duration::days(90))
        .finish();
    Ok(HttpResponse::SeeOther()
        .cookie(cookie)
        .insert_header((header::LOCATION, format!("/games/{id}")))
        .insert_header(("Referrer-Policy", "no-referrer"))
        .finish())
}

/// The form's field `name`, or a 400 naming it.
fn field<'a>(form: &'a HashMap<String, String>, name: &str) -> Result<&'a str, WebError> {
    form.get(name)
        .map(String::as_str)
        .ok_or_else(|| WebError::bad_request(format!("the form has no {name} field")))
}

fn see_game(id: i64) -> HttpResponse {
    see_other(format!("/games/{id}"))
}

/// What a refused game action shows: the game as it stands now with a note, and the status.
pub(super) fn refusal(error: GameError, entered: &str) -> Result<(Note, StatusCode), WebError> {
    Ok(match error {
        GameError::StalePly { current, .. } | GameError::MoveTaken { current, .. } => (
            Note::Notice(format!(
                "The game moved on while you were looking (it is at move {} now): here is the \
                 new position; your move was not played.",
                current + 1
            )),
            StatusCode::CONFLICT,
        ),
        GameError::Illegal(reason) => (
            Note::Refused {
                entered: entered.to_owned(),
                reason: reason.for_player(entered, None),
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        GameError::NotFound { game_id } => {
            return Err(WebError::not_found(format!("there is no game {game_id}")))
        }
        GameError::Storage(cause) => return Err(WebError::internal(&cause)),
        other => {
            let message = other.to_string();
            let status = crate::http::error::ApiError::from(other).status_code();
            (Note::Notice(message), status)
        }
    })
}

/// The answer to a form: back to the game page after a done action (POST, redirect, GET), or
/// the page with the refusal (`entered`: the move as typed, kept in the field).
async fn answer<T>(
    state: &AppState,
    id: i64,
    pass: Option<Checked>,
    outcome: Result<T, GameError>,
    entered: &str,
) -> WebAnswer {
    answer_then(state, id, pass, outcome, entered, see_game).await
}

/// [`answer`], with `done` making the redirect after a done action.
pub(super) async fn answer_then<T>(
    state: &AppState,
    id: i64,
    pass: Option<Checked>,
    outcome: Result<T, GameError>,
    entered: &str,
    done: impl FnOnce(i64) -> HttpResponse,
) -> WebAnswer {
    match outcome {
        Ok(_) => Ok(done(id)),
        Err(error) => {
            let (note, status) = refusal(error, entered)?;
            game_page::render(state, id, None, pass.map(Ok), Some(note), status).await
        }
    }
}

/// `POST /games/{id}/move`: `move`, `ply`, `csrf`, and an optional `message`.
///
/// # Errors
/// 403 without the cookie or with a bad token; 400 a form without its fields.
pub async fn play_move(play: PlayForm) -> WebAnswer {
    let (state, id, form, actor, pass) = (play.state, play.id, play.form, play.actor, play.pass);
    let text = field(&form, "move")?.trim().to_owned();
    let ply_text = field(&form, "ply")?;
    let ply = ply_text
        .parse::<u32>()
        .map_err(|_| WebError::bad_request(format!("ply={ply_text} is not a number of moves")))?;
    if text.is_empty() {
        return game_page::render(
            &state,
            id,
            None,
            pass.map(Ok),
            Some(Note::Refused {
                entered: String::new(),
                reason: "type a move or click its cells on the board".to_owned(),
            }),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    }
    let request = PlayMoveRequest {
        notation: text.clone(),
        ply,
        message: message_field(&form),
    };
    let line = conditional_line(&form)?;
    let outcome = with_service(&state, move |conn| {
        let view = moving::play(conn, &actor, id, &request)?;
        // The line answers the position the move made; set in its own transaction after the
        // move, so a refused line leaves the move played and says why.
        let set = line.map(|line| {
            let request = ConditionalMoves {
                ply: view.ply,
                lines: vec![line],
            };
            conditional::set(conn, &actor, id, &request, Edit::Add)
        });
        Ok((view, set))
    })
    .await?;
    match outcome {
        Ok((_, Some(Err(error)))) => {
            let (note, status) = refusal(error, "")?;
            let note = match note {
                Note::Notice(reason) | Note::Refused { reason, .. } => Note::Notice(format!(
                    "Your move {text} was played; the conditional move was not set: {reason}"
                )),
                other @ (Note::Played(_) | Note::Preparing(_) | Note::Editing(_)) => other,
            };
            game_page::render(&state, id, None, pass.map(Ok), Some(note), status).await
        }
        other => {
            // The page after the move confirms it: `played` is the number of the move just
            // played.
            let played = ply + 1;
            answer_then(&state, id, pass, other, &text, |id| {
                see_other(format!("/games/{id}?played={played}"))
            })
            .await
        }
    }
}

/// The form's message field (issue 28), if it has one; the service cleans and checks it.
fn message_field(form: &HashMap<String, String>) -> Option<String> {
    form.get("message").cloned()
}

/// The conditional line of the move form ("if they play … I play …"): none when both fields
/// are empty; a 400 when only one is filled.
fn conditional_line(form: &HashMap<String, String>) -> Result<Option<Vec<String>>, WebError> {
    let theirs = form.get("if_theirs").map_or("", |t| t.trim());
    let mine = form.get("if_mine").map_or("", |t| t.trim());
    match (theirs.is_empty(), mine.is_empty()) {
        (true, true) => Ok(None),
        (false, false) => Ok(Some(vec![theirs.to_owned(), mine.to_owned()])),
        _ => Err(WebError::bad_request(
            "a conditional move needs both fields: the move they may play and your answer",
        )),
    }
}

/// Runs a game service call; its refusal comes back as a value, storage failures as errors.
pub(super) async fn with_service<T, F>(
    state: &AppState,
    f: F,
) -> Result<Result<T, GameError>, WebError>
where
    T: Send + 'static,
    F: FnOnce(&mut crate::db::DbConnection) -> Result<T, GameError> + Send + 'static,
{
    Ok(crate::http::blocking::with_conn(state, move |conn| Ok(f(conn))).await?)
}

/// `GET /games/{id}/resign`: the confirmation step.
///
/// # Errors
/// 403 without the cookie.
pub async fn resign_page(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
) -> WebAnswer {
    let id = game_id(&path)?;
    let csrf = match pass_of(&state, &req, id).await? {
        Some(Ok(checked)) => play_link::csrf_token(&state.mail.link_key, &checked.text),
        Some(Err(refused)) => return Err(WebError::forbidden(refused.message())),
        None => match super::viewer::current().and_then(|v| v.signed_in().cloned()) {
            Some(signed_in) => signed_in.csrf_token().to_owned(),
            None => {
                return Err(WebError::forbidden(
                    "resigning from this page needs your play link (open it from your turn \
                     mail first) or signing in",
                ))
            }
        },
    };
    let body = html! {
        h1 { "Resign game #" (id) "?" }
        p { "Resigning ends your part in the game for good. In a game of two it ends the game; "
            "with more players the game goes on without you." }
        form method="post" action={ "/games/" (id) "/resign" } {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="confirm" value="yes";
            (game_page::message_input("resign-message", "your resignation"))
            button.danger type="submit" { "Yes, resign" }
            " "
            a href={ "/games/" (id) } { "No, back to the game" }
        }
    };
    Ok(layout::ok("Resign?", &body))
}

/// `POST /games/{id}/resign` (from the confirmation page).
///
/// # Errors
/// 403 without the cookie or with a bad token; 400 without the confirmation.
pub async fn resign(play: PlayForm) -> WebAnswer {
    if field(&play.form, "confirm")? != "yes" {
        return Err(WebError::bad_request(
            "confirm=yes is needed to resign (the confirmation page sends it)",
        ));
    }
    let message = message_field(&play.form);
    act(play, move |conn, actor, id| {
        ending::resign(conn, actor, id, message.as_deref())
    })
    .await
}

/// `POST /games/{id}/draw`: `action` = `offer`, `accept` or `decline`.
///
/// # Errors
/// 403 without the cookie or with a bad token; 400 an unknown action.
pub async fn draw(play: PlayForm) -> WebAnswer {
    let action = match field(&play.form, "action")? {
        "offer" => DrawAction::Offer,
        "accept" => DrawAction::Accept,
        "decline" => DrawAction::Decline,
        other => {
            return Err(WebError::bad_request(format!(
                "action={other} is not a draw action; use offer, accept or decline"
            )))
        }
    };
    let message = message_field(&play.form);
    act(play, move |conn, actor, id| {
        ending::draw(conn, actor, id, action, message.as_deref())
    })
    .await
}

/// `POST /games/{id}/mute`: `action` = `mute-game` or `unmute-game` (the game's messages), or
/// `player` = a name (mutes that player's messages in every game, or shows them again when
/// they are muted).
///
/// # Errors
/// 403 without the cookie or with a bad token; 400 a form that says neither.
pub async fn mute(play: PlayForm) -> WebAnswer {
    let action = play.form.get("action").map(String::as_str);
    match (action, play.form.get("player").cloned()) {
        (Some(action @ ("mute-game" | "unmute-game")), _) => {
            let on = action == "mute-game";
            act(play, move |conn, actor, id| {
                messages::mute_game(conn, actor, id, on)
            })
            .await
        }
        (_, Some(name)) => {
            act(play, move |conn, actor, _| {
                let muted = messages::mutes(conn, actor.account_id())?
                    .players
                    .iter()
                    .any(|p| p.eq_ignore_ascii_case(name.trim()));
                messages::mute_person(conn, actor, &name, !muted)
            })
            .await
        }
        _ => Err(WebError::bad_request(
            "the form says neither action=mute-game|unmute-game nor player=NAME",
        )),
    }
}

/// Runs `service` as the form's actor on its game; the answer: back to the game page once
/// done, or the page with the refusal.
async fn act<T, F>(play: PlayForm, service: F) -> WebAnswer
where
    T: Send + 'static,
    F: FnOnce(&mut DbConnection, &Actor, i64) -> Result<T, GameError> + Send + 'static,
{
    let (actor, id) = (play.actor, play.id);
    let outcome = with_service(&play.state, move |conn| service(conn, &actor, id)).await?;
    answer(&play.state, id, play.pass, outcome, "").await
}
