//! `/settings` (signed in): mail preferences (turn mail, digest hour, time zone, each kind of
//! mail), vacation, API tokens and browser sessions, each listed with a way to revoke it. The
//! top of the page says plainly what is switched off. Each form posts to its own address,
//! carries the session's CSRF token, and changes only what it names (one transaction each),
//! then comes back here.

use std::collections::HashMap;

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::NaiveDateTime;
use chrono_tz::Tz;
use maud::{html, Markup};
use turnpost_shared::api::{
    CategoriesPatch, NotificationSettings, NotificationSettingsPatch, TurnMail, Vacation,
};

use super::signed_in_form::{see_other, SignedInForm};
use super::viewer::SignedIn;
use super::WebAnswer;
use super::{layout, WebError};
use crate::accounts::{self, ApiToken};
use crate::browser_sessions::{self, BrowserSession};
use crate::db::{DbConnection, DbError};
use crate::games::{vacation, GameError};
use crate::http::error::ApiError;
use crate::http::state::AppState;
use crate::preferences::{self, Category, Preferences};

/// Everything the page shows, read in one go.
struct Shown {
    notifications: NotificationSettings,
    webhooks: Vec<turnpost_shared::api::WebhookDetail>,
    push: Vec<turnpost_shared::api::PushSubscriptionView>,
    switched_off: Vec<Category>,
    vacation: Vacation,
    tokens: Vec<ApiToken>,
    sessions: Vec<BrowserSession>,
}

async fn read(state: &AppState, signed_in: &SignedIn) -> Result<Shown, WebError> {
    let account_id = signed_in.account.id;
    let actor = signed_in.actor();
    Ok(crate::http::blocking::with_conn(state, move |conn| {
        let notifications = preferences::show(conn, account_id).map_err(ApiError::from)?;
        let switched_off = Preferences::load(conn, account_id)?.switched_off();
        let vacation = vacation::show(conn, &actor)?;
        let tokens = accounts::tokens_of(conn, account_id)?;
        let sessions = browser_sessions::list(conn, account_id)?;
        let webhooks =
            crate::webhooks::endpoints::details(conn, account_id).map_err(ApiError::from)?;
        let push = crate::push::subscriptions::list(conn, account_id)
            .map_err(ApiError::from)?
            .subscriptions;
        Ok(Shown {
            notifications,
            webhooks,
            push,
            switched_off,
            vacation,
            tokens,
            sessions,
        })
    })
    .await?)
}

/// A stored time in the reader's time zone.
fn when(time: NaiveDateTime, zone: Tz) -> String {
    time.and_utc()
        .with_timezone(&zone)
        .format("%Y-%m-%d %H:%M")
        .to_string()
}

/// The switches each kind of mail has on the page: field name, label.
fn category_fields() -> [(Category, &'static str, &'static str); 6] {
    [
        (
            Category::Challenges,
            "challenges",
            "Challenges for you, tournament invitations",
        ),
        (
            Category::ChallengeReplies,
            "challenge_replies",
            "Answers to your challenges, games starting",
        ),
        (Category::GameOver, "game_over", "A game of yours ended"),
        (Category::DrawOffers, "draw_offers", "Draw offers"),
        (
            Category::Reminders,
            "reminders",
            "Deadline reminders (24 h and 2 h before you run out of time)",
        ),
        (
            Category::MailConfirmations,
            "mail_confirmations",
            "Confirmations of moves and commands you send by mail",
        ),
    ]
}

fn switched_off(shown: &Shown) -> Markup {
    html! {
        @if shown.switched_off.is_empty() {
            // "All on" must not hide that turn mail comes once a day, or not at all.
            p role="status" { (match shown.notifications.turn_mail {
                TurnMail::Immediate => "All mail is on.".to_owned(),
                TurnMail::Digest => format!(
                    "Turn mail comes as a daily digest at {:02}:00 ({}); all other mail is on.",
                    shown.notifications.digest_hour, shown.notifications.time_zone
                ),
                TurnMail::Off => "All mail is on except turn mail, which is off.".to_owned(),
            }) }
        } @else {
            p.notice role="status" { "Switched off: "
                @for (i, category) in shown.switched_off.iter().enumerate() {
                    @if i > 0 { ", " }
                    strong { (category.described()) }
                }
                "." }
        }
    }
}

fn mail_form(signed_in: &SignedIn, shown: &Shown) -> Markup {
    let n = &shown.notifications;
    html! {
        h2 #mail { "Mail" }
        (switched_off(shown))
        form.stack method="post" action="/settings/notifications" {
            (signed_in.csrf_field())
            fieldset {
                legend { "Your turn" }
                @for (value, label) in [
                    (TurnMail::Immediate, "A turn card after each move"),
                    (TurnMail::Digest, "One mail a day listing every game waiting for you"),
                    (TurnMail::Off, "Off: no turn mail"),
                ] {
                    label.choice {
                        input type="radio" name="turn_mail" value=(value.as_str())
                            checked[n.turn_mail == value];
                        " " (label)
                    }
                }
            }
            label for="digest_hour" { "Hour of the daily mail" }
            select #digest_hour name="digest_hour" {
                @for hour in 0u8..24 {
                    option value=(hour) selected[n.digest_hour == hour] { (format!("{hour:02}:00")) }
                }
            }
            label for="time_zone" { "Time zone (deadlines in mail and the digest hour use it)" }
            input #time_zone type="text" name="time_zone" value=(n.time_zone) required
                autocapitalize="none" spellcheck="false";
            fieldset {
                legend { "Other mail" }
                @for (category, field, label) in category_fields() {
                    label.choice {
                        input type="checkbox" name=(field) value="on"
                            checked[!shown.switched_off.contains(&category)];
                        " " (label)
                    }
                }
            }
            @if !n.muted_games.is_empty() {
                p { "Muted games (no turn mail, reminders or draw offers): "
                    @for (i, id) in n.muted_games.iter().enumerate() {
                        @if i > 0 { ", " }
                        a href={ "/games/" (id) } { "#" (id) }
                    }
                }
            }
            button type="submit" { "Save mail settings" }
        }
    }
}

fn vacation_form(signed_in: &SignedIn, shown: &Shown, zone: Tz) -> Markup {
    let v = &shown.vacation;
    let until = v.until.as_deref().map(|until| {
        chrono::DateTime::parse_from_rfc3339(until).map_or_else(
            |_| until.to_owned(),
            |t| t.with_timezone(&zone).format("%Y-%m-%d %H:%M").to_string(),
        )
    });
    html! {
        h2 #vacation { "Vacation" }
        p { "All your clocks pause during a vacation. " (v.days_used) " of "
            (vacation::DAYS_PER_YEAR) " days used in " (v.year) "; " (v.days_left) " left." }
        @if let Some(until) = until {
            p.notice { "On vacation until " (until) " (" (zone.name()) ")." }
        }
        @if v.days_left > 0 {
            form.inline-form method="post" action="/settings/vacation" {
                (signed_in.csrf_field())
                label for="days" { "Days to take now" }
                input #days type="number" name="days" min="1" max=(v.days_left) value="1" required;
                button type="submit" { "Take vacation" }
            }
        }
    }
}

fn tokens_list(signed_in: &SignedIn, shown: &Shown, zone: Tz) -> Markup {
    html! {
        h2 #tokens { "API tokens" }
        p { "Tokens let the command-line client and your programs act for you. Revoking one "
            "also stops the play links of your turn mails sent so far." }
        @if shown.tokens.is_empty() {
            p { "No tokens." }
        } @else {
            ul.rows {
                @for token in &shown.tokens {
                    li {
                        span { strong { (token.label) } " · made " (when(token.created_at, zone))
                            " · " @match token.last_used_at {
                                Some(at) => { "last used " (when(at, zone)) }
                                None => { "never used" }
                            } }
                        form.inline method="post" action={ "/settings/tokens/" (token.id) "/revoke" } {
                            (signed_in.csrf_field())
                            button type="submit" aria-label={ "Revoke token " (token.label) } { "Revoke" }
                        }
                    }
                }
            }
        }
    }
}

fn sessions_list(signed_in: &SignedIn, shown: &Shown, zone: Tz) -> Markup {
    html! {
        h2 #sessions { "Signed-in browsers" }
        ul.rows {
            @for session in &shown.sessions {
                li {
                    span { strong { (session.label) }
                        @if session.id == signed_in.session_id { " (this browser)" }
                        " · signed in " (when(session.created_at, zone))
                        " · last used " (when(session.last_used_at, zone)) }
                    form.inline method="post" action={ "/settings/sessions/" (session.id) "/revoke" } {
                        (signed_in.csrf_field())
                        button type="submit" aria-label={ "Sign out " (session.label) " signed in " (when(session.created_at, zone)) } { "Sign out" }
                    }
                }
            }
        }
        form method="post" action="/signout/everywhere" {
            (signed_in.csrf_field())
            button.danger type="submit" { "Sign out everywhere" }
        }
    }
}

pub(super) async fn render(
    state: &AppState,
    signed_in: &SignedIn,
    note: Option<Result<&str, &str>>,
    status: StatusCode,
) -> WebAnswer {
    let shown = read(state, signed_in).await?;
    let zone: Tz = shown.notifications.time_zone.parse().unwrap_or(Tz::UTC);
    let body = html! {
        h1 { "Settings" }
        p { "Signed in as " strong { (signed_in.account.name) } "." }
        @match note {
            Some(Ok(done)) => { p.notice role="status" { (done) } }
            Some(Err(refused)) => { p.error role="alert" { (refused) } }
            None => {}
        }
        (mail_form(signed_in, &shown))
        (vacation_form(signed_in, &shown, zone))
        (tokens_list(signed_in, &shown, zone))
        (sessions_list(signed_in, &shown, zone))
        (super::webhooks_section::section(signed_in, &shown.webhooks, &shown.notifications.webhooks))
        (super::push_section::section(signed_in, &shown.push, &shown.notifications.push, state.vapid.public_key()))
    };
    Ok(layout::response(status, "Settings", &body))
}

/// Query of `/settings`: what was just done.
#[derive(Debug, serde::Deserialize)]
pub struct DoneQuery {
    done: Option<String>,
}

/// `GET /settings`.
///
/// # Errors
/// Storage failures.
pub async fn show(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    query: web::Query<DoneQuery>,
) -> WebAnswer {
    let done = match query.done.as_deref() {
        Some("mail") => Some(Ok("Mail settings saved.")),
        Some("vacation") => Some(Ok("Vacation taken.")),
        Some("token") => Some(Ok("Token revoked.")),
        Some("session") => Some(Ok("That browser is signed out.")),
        Some("webhook_removed") => Some(Ok("Webhook removed.")),
        Some("webhook_test") => Some(Ok(
            "A test delivery is on its way; its result shows under the webhook.",
        )),
        Some("webhook_switches") => Some(Ok("Webhook switches saved.")),
        Some("push_on") => Some(Ok("Notifications are on in this browser.")),
        Some("push_removed") => Some(Ok("That device gets no more notifications.")),
        Some("push_switches") => Some(Ok("Notification switches saved.")),
        _ => None,
    };
    render(&state, &signed_in, done, StatusCode::OK).await
}

fn back(done: &str) -> HttpResponse {
    see_other(format!("/settings?done={done}"))
}

/// The patch a mail form asks for: every field of the form (an unticked box is off).
fn mail_patch(form: &HashMap<String, String>) -> Result<NotificationSettingsPatch, String> {
    let turn_mail = form
        .get("turn_mail")
        .map(String::as_str)
        .unwrap_or_default();
    let turn_mail = turn_mail.parse::<TurnMail>().map_err(|_| {
        format!("turn_mail={turn_mail} is not a choice; choose immediate, digest or off")
    })?;
    let hour = form
        .get("digest_hour")
        .map(String::as_str)
        .unwrap_or_default();
    let digest_hour = hour
        .parse::<u8>()
        .ok()
        .filter(|h| *h < 24)
        .ok_or_else(|| format!("digest_hour={hour} is not an hour from 0 to 23"))?;
    let on = |field: &str| Some(form.contains_key(field));
    Ok(NotificationSettingsPatch {
        time_zone: form.get("time_zone").cloned(),
        turn_mail: Some(turn_mail),
        digest_hour: Some(digest_hour),
        categories: Some(CategoriesPatch {
            challenges: on("challenges"),
            challenge_replies: on("challenge_replies"),
            game_over: on("game_over"),
            draw_offers: on("draw_offers"),
            reminders: on("reminders"),
            mail_confirmations: on("mail_confirmations"),
        }),
        mute: Vec::new(),
        unmute: Vec::new(),
        webhooks: None,
        push: None,
    })
}

/// `POST /settings/notifications`: the mail form.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn save_notifications(posted: SignedInForm) -> WebAnswer {
    let (state, signed_in, form) = posted.into_parts();
    let patch = match mail_patch(&form) {
        Ok(patch) => patch,
        Err(refused) => {
            return render(
                &state,
                &signed_in,
                Some(Err(&refused)),
                StatusCode::UNPROCESSABLE_ENTITY,
            )
            .await
        }
    };
    let account_id = signed_in.account.id;
    let outcome = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(preferences::update(conn, account_id, &patch))
    })
    .await?;
    match outcome {
        Ok(_) => Ok(back("mail")),
        Err(error) => {
            let error = WebError::from(ApiError::from(error));
            if error.status.is_server_error() {
                return Err(error);
            }
            render(&state, &signed_in, Some(Err(&error.message)), error.status).await
        }
    }
}

/// `POST /settings/vacation`: `days`.
///
/// # Errors
/// 403 when not signed in or without the session's token; storage failures.
pub async fn take_vacation(posted: SignedInForm) -> WebAnswer {
    let (state, signed_in, form) = posted.into_parts();
    let text = form.get("days").map(String::as_str).unwrap_or_default();
    let Ok(days) = text.trim().parse::<u32>() else {
        let refused = format!("days={text} is not a number of days");
        return render(
            &state,
            &signed_in,
            Some(Err(&refused)),
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
    };
    let actor = signed_in.actor();
    let outcome = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(vacation::take(conn, &actor, days, crate::db::now()))
    })
    .await?;
    match outcome {
        Ok(_) => Ok(back("vacation")),
        Err(GameError::Storage(cause)) => Err(WebError::internal(&cause)),
        Err(error) => {
            let error = WebError::from(error);
            render(&state, &signed_in, Some(Err(&error.message)), error.status).await
        }
    }
}

/// `POST /settings/tokens/{id}/revoke`.
///
/// # Errors
/// 403 when not signed in or without the session's token; 404 for no such token of yours;
/// storage failures.
pub async fn revoke_token(posted: SignedInForm<i64>) -> WebAnswer {
    revoke_own(&posted, "token", accounts::revoke_token).await?;
    Ok(back("token"))
}

/// `POST /settings/sessions/{id}/revoke`: signs one browser out (this one too, if named).
///
/// # Errors
/// 403 when not signed in or without the session's token; 404 for no such session of yours;
/// storage failures.
pub async fn revoke_session(posted: SignedInForm<i64>) -> WebAnswer {
    revoke_own(&posted, "signed-in browser", browser_sessions::revoke).await?;
    if posted.path == posted.signed_in.session_id {
        return Ok(super::sign_out::signed_out(&posted.state));
    }
    Ok(back("session"))
}

/// Deletes the account's own `what` (a token, a browser session) with the path's id; 404 when
/// it has none with that id.
async fn revoke_own(
    posted: &SignedInForm<i64>,
    what: &str,
    revoke: fn(&mut DbConnection, i64, i64) -> Result<bool, DbError>,
) -> Result<(), WebError> {
    let (account_id, id) = (posted.signed_in.account.id, posted.path);
    let deleted = crate::http::blocking::with_conn(&posted.state, move |conn| {
        Ok(revoke(conn, account_id, id)?)
    })
    .await?;
    if !deleted {
        return Err(WebError::not_found(format!(
            "you have no {what} with id {id}"
        )));
    }
    Ok(())
}
