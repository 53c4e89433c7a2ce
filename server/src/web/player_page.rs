//! `GET /players/{name}`: a player's ratings (each kind's rating with an SVG graph of its
//! history), games and results (their name only, never their address).

use actix_web::web;
use maud::html;
use turnpost_shared::play::GameStatus;

use super::WebAnswer;
use super::{game_list, layout, rating_graph, WebError};
use crate::games::reads::{self, PublicFilter};
use crate::http::state::AppState;
use crate::ratings::RatingKind;

/// A player's page.
///
/// # Errors
/// 404 for an unknown player; storage failures.
pub async fn show(state: web::Data<AppState>, path: web::Path<String>) -> WebAnswer {
    let asked = path.into_inner();
    let lookup = asked.clone();
    let found = crate::http::blocking::with_conn(&state, move |conn| {
        let Some(name) = reads::player_name(conn, &lookup)? else {
            return Ok(None);
        };
        let games = reads::public_list(
            conn,
            &PublicFilter {
                kind: None,
                player: Some(name.clone()),
                limit: 100,
            },
        )?;
        let profile = crate::games::rating::profile(conn, &name)?;
        Ok(Some((name, games, profile)))
    })
    .await?;
    let Some((name, games, profile)) = found else {
        return Err(WebError::not_found(format!(
            "there is no player called {asked}"
        )));
    };
    let finished: Vec<_> = games
        .iter()
        .filter(|g| g.status == GameStatus::Finished)
        .collect();
    let won = finished
        .iter()
        .filter(|g| {
            let seat = g.seats.iter().find(|s| s.player == name).map(|s| s.seat);
            seat.and_then(|seat| usize::from(seat).checked_sub(1))
                .and_then(|i| g.placings.as_ref().and_then(|p| p.get(i)))
                == Some(&1)
        })
        .count();
    let body = html! {
        h1 { (name) @if profile.engine { " (engine)" } }
        @if profile.engine {
            p.engine { "An engine account: an outside program plays its moves." }
        }
        p { (games.len()) " games shown; " (finished.len()) " finished, " (won) " of them won (first place)." }
        h2 { "Ratings" }
        @if profile.ratings.is_empty() {
            p { "No rated games yet." }
        } @else {
            @for (i, kind) in profile.ratings.iter().enumerate() {
                // The kind as players say it ("Chinese Checkers, 3 or more players"), not its
                // URL name (issue 47).
                @let name = kind.kind.parse::<RatingKind>().map_or_else(|_| kind.kind.clone(), RatingKind::title);
                section.rating aria-labelledby={ "rating-" (i) } {
                    h3 #{ "rating-" (i) } { a href={ "/ratings/" (kind.kind) } { (name) } }
                    p {
                        "Rating " strong { (kind.rating) @if kind.provisional { "?" } }
                        " (deviation " (kind.deviation) @if kind.provisional { ", provisional" } "), "
                        (turnpost_shared::render::counted(kind.games, "rated game", "rated games")) "."
                    }
                    (rating_graph::graph(kind, &name, &format!("graph-{i}")))
                }
            }
        }
        h2 { "Games" }
        (game_list::table(&games))
    };
    Ok(layout::ok(&name, &body))
}
