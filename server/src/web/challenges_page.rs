//! `GET /challenges`: the open challenges, seats anyone signed in may take, filtered by kind;
//! a Join button on each (a Leave button where the browser's account took a seat).

use actix_web::web;
use maud::html;
use turnpost_shared::api::GameView;
use turnpost_shared::GameKind;

use super::game_settings_fields;
use super::WebAnswer;
use super::{layout, Viewer, WebError};
use crate::games::open_seats;
use crate::http::state::AppState;

fn seats(game: &GameView) -> String {
    game.seats
        .iter()
        .map(|seat| {
            if seat.open {
                format!("{}: open", seat.seat_name)
            } else {
                format!("{}: {}", seat.seat_name, seat.player)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The page's query: a kind, and where the page starts (a page of 50, newest first).
#[derive(Debug, serde::Deserialize)]
pub struct LobbyQuery {
    /// A kind name.
    kind: Option<String>,
    /// Only challenges older than this one.
    before: Option<String>,
}

/// The page.
///
/// # Errors
/// 400 for an unknown kind or a `before` that is not a challenge id; storage failures.
pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    query: web::Query<LobbyQuery>,
) -> WebAnswer {
    let kind = game_settings_fields::kind_named(query.kind.as_deref())?;
    let before = match query.before.as_deref() {
        None | Some("") => None,
        Some(text) => Some(
            text.parse::<i64>()
                .ok()
                .filter(|id| *id > 0)
                .ok_or_else(|| {
                    WebError::bad_request(format!(
                        "before={text} is not a challenge id: a positive number is expected"
                    ))
                })?,
        ),
    };
    let signed_in = viewer.signed_in().cloned();
    let account_id = signed_in.as_ref().map_or(0, |s| s.account.id);
    let page = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(open_seats::list(conn, account_id, kind, before)?)
    })
    .await?;
    let challenges = page.challenges;
    let older = page.next_before.map(|id| match kind {
        Some(kind) => format!("/challenges?kind={}&before={id}", kind.name()),
        None => format!("/challenges?before={id}"),
    });
    let body = html! {
        h1 { "Open challenges" }
        p { "Each has a seat anyone may take. The game starts when every seat is taken; "
            "a challenge nobody joins lapses after seven days." }
        form.filter method="get" action="/challenges" {
            label { "Game " select name="kind" {
                option value="" { "any" }
                @for k in GameKind::ALL {
                    option value=(k.name()) selected[kind == Some(k)] { (k.title()) }
                }
            } }
            " " button type="submit" { "Show" }
        }
        @match &signed_in {
            Some(_) => p { a href="/new" { "Post your own" } " (leave a seat open)." },
            None => p { a href="/signup" { "Sign up" } " or " a href="/signin" { "sign in" } " to join one." },
        }
        @if challenges.is_empty() {
            p { "No open challenges right now." }
        } @else {
            ul.challenges {
                @for game in &challenges {
                    li {
                        a href={ "/games/" (game.id) } { (game.kind.title()) " #" (game.id) }
                        " · " (seats(game))
                        @if let Some(clock) = &game.clock { " · clock " (clock) }
                        @if let Some(signed_in) = &signed_in {
                            " "
                            @if game.your_seat.is_some() {
                                form.inline method="post" action={ "/challenges/" (game.id) "/leave" } {
                                    (signed_in.csrf_field())
                                    button type="submit" { "Leave" }
                                }
                            } @else {
                                form.inline method="post" action={ "/challenges/" (game.id) "/join" } {
                                    (signed_in.csrf_field())
                                    button type="submit" aria-label={ "Join " (game.kind.title()) " #" (game.id) } { "Join" }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if before.is_some() || older.is_some() {
            nav.pages aria-label="Pages of challenges" {
                @if before.is_some() {
                    a href={ "/challenges" @if let Some(kind) = kind { "?kind=" (kind.name()) } } { "« Newest" }
                }
                @if let Some(older) = &older { a rel="next" href=(older) { "Older challenges →" } }
            }
        }
    };
    Ok(layout::ok("Open challenges", &body))
}
