//! `GET /me` (and `/` when signed in): my games. First the games where it is my turn (the
//! nearest deadline first, in words in my time zone: "Sat 5 Dec, 21:56 (in 2 days)"), then those waiting for others, the invitations
//! with Accept / Decline buttons, my challenges still waiting for players (open seats too),
//! and the games that finished lately, each with a Rematch button.

use actix_web::web;
use maud::{html, Markup};
use turnpost_shared::api::GameSummary;
use turnpost_shared::play::GameStatus;

use super::WebAnswer;
use super::{layout, time_text, SignedIn, WebError};
use crate::games::reads::{self, ListFilter};
use crate::http::state::AppState;

/// How many games of each status the page lists.
const PER_STATUS: i64 = 50;
/// How many finished games it lists.
const FINISHED: i64 = 10;

fn players(game: &GameSummary) -> String {
    game.seats
        .iter()
        .map(|seat| seat.player.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn title(game: &GameSummary) -> Markup {
    html! { a href={ "/games/" (game.id) } { (game.kind.title()) " #" (game.id) } }
}

/// A form with one button posting to `action`.
fn button(signed_in: &SignedIn, action: &str, label: &str) -> Markup {
    html! {
        form.inline method="post" action=(action) {
            (signed_in.csrf_field())
            button type="submit" { (label) }
        }
    }
}

/// Whether `name` accepted its seat of `game`.
fn accepted(game: &GameSummary, name: &str) -> bool {
    game.seats
        .iter()
        .any(|seat| seat.player == name && seat.accepted)
}

/// The page body for `signed_in`.
///
/// # Errors
/// Storage failures.
pub async fn body(state: &AppState, signed_in: &SignedIn) -> Result<Markup, WebError> {
    let actor = signed_in.actor();
    let account = signed_in.account.id;
    let lists = crate::http::blocking::with_conn(state, move |conn| {
        let list = |conn: &mut crate::db::DbConnection, status, limit| {
            let filter = ListFilter {
                status: Some(status),
                my_turn: false,
                before: None,
                limit,
            };
            reads::list(conn, &actor, &filter).map(|list| list.games)
        };
        Ok((
            list(conn, GameStatus::Active, PER_STATUS)?,
            list(conn, GameStatus::Invited, PER_STATUS)?,
            list(conn, GameStatus::Finished, FINISHED)?,
            time_text::reader_of(conn, Some(account))?,
        ))
    })
    .await?;
    let (active, invited, finished, reader) = lists;
    let me = signed_in.account.name.as_str();
    let mut my_turn: Vec<&GameSummary> = active.iter().filter(|g| g.your_turn).collect();
    // The nearest deadline first; games without one last.
    my_turn.sort_by(|a, b| {
        (a.deadline.is_none(), &a.deadline).cmp(&(b.deadline.is_none(), &b.deadline))
    });
    let waiting: Vec<&GameSummary> = active.iter().filter(|g| !g.your_turn).collect();
    let (mine, invitations): (Vec<&GameSummary>, Vec<&GameSummary>) =
        invited.iter().partition(|g| accepted(g, me));
    Ok(html! {
        h1 { "Your games" }
        p.links { a href="/new" { "New game" } " · " a href="/challenges" { "Open challenges" } }
        // What the page's script says when one of these games changes while the page is open.
        div #live-news aria-live="polite" {}
        // The lists, which the script swaps for a newer copy on each event of the account's
        // stream. Not indented, to keep the history of the lines inside readable.
        div #live-region data-live="games" data-stream="/v1/stream" {
        section aria-labelledby="turn-h" {
            h2 #turn-h { "Your turn (" (my_turn.len()) ")" }
            @if my_turn.is_empty() { p { "No game is waiting for your move." } }
            ul.my-games { @for game in &my_turn {
                li { (title(game)) " · " (players(game)) " · move " (game.ply + 1)
                    @if let Some(deadline) = &game.deadline {
                        " · deadline " (time_text::time(deadline, reader))
                    }
                    " " a.button href={ "/games/" (game.id) } { "Play" } }
            } }
        }
        section aria-labelledby="waiting-h" {
            h2 #waiting-h { "Waiting for others (" (waiting.len()) ")" }
            @if waiting.is_empty() { p { "None." } }
            ul.my-games { @for game in &waiting {
                li { (title(game)) " · " (players(game)) " · " (super::game_list::outcome(game)) }
            } }
        }
        section aria-labelledby="invitations-h" {
            h2 #invitations-h { "Invitations (" (invitations.len()) ")" }
            @if invitations.is_empty() { p { "No challenge waits for your answer." } }
            ul.my-games { @for game in &invitations {
                li { (title(game)) " · " (players(game)) " "
                    (button(signed_in, &format!("/games/{}/accept", game.id), "Accept"))
                    (button(signed_in, &format!("/games/{}/decline", game.id), "Decline")) }
            } }
        }
        section aria-labelledby="posted-h" {
            h2 #posted-h { "Your challenges waiting for players (" (mine.len()) ")" }
            @if mine.is_empty() { p { "None. " a href="/new" { "Start a game" } " or " a href="/challenges" { "join one" } "." } }
            ul.my-games { @for game in &mine {
                li { (title(game)) " · " (players(game)) " "
                    (button(signed_in, &format!("/games/{}/decline", game.id), "Withdraw")) }
            } }
        }
        section aria-labelledby="finished-h" {
            h2 #finished-h { "Finished lately" }
            @if finished.is_empty() { p { "None yet." } }
            ul.my-games { @for game in &finished {
                li { (title(game)) " · " (players(game)) " · " (super::game_list::outcome(game)) " "
                    (button(signed_in, &format!("/games/{}/rematch", game.id), "Rematch")) }
            } }
        }
        }
    })
}

/// `GET /me`.
///
/// # Errors
/// Storage failures (a browser that is not signed in is sent to sign in).
pub async fn show(state: web::Data<AppState>, signed_in: SignedIn) -> WebAnswer {
    let body = body(&state, &signed_in).await?;
    Ok(layout::ok("Your games", &body))
}
