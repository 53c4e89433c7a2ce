//! `GET /games`: recent active and finished games, filtered by kind and player; the same table
//! shows a player's games on their page.

use actix_web::web;
use maud::{html, Markup};
use turnpost_shared::api::GameSummary;
use turnpost_shared::GameKind;

use super::WebAnswer;
use super::{game_settings_fields, layout};
use crate::games::reads::{self, PublicFilter};
use crate::http::state::AppState;

/// Games a listing shows.
const PAGE: i64 = 50;

/// The listing's query.
#[derive(Debug, serde::Deserialize)]
pub struct ListQuery {
    /// Kind name.
    kind: Option<String>,
    /// Player name.
    player: Option<String>,
}

/// The result of a listed game in words.
pub(super) fn outcome(game: &GameSummary) -> String {
    let name = |seat: u8| {
        game.seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| format!("seat {seat}"), |s| s.player.clone())
    };
    match (&game.result, game.to_move) {
        (_, Some(seat)) => format!("{} to move", name(seat)),
        (Some(result), _) if result.is_draw() => "draw".to_owned(),
        (Some(result), _) => {
            let winners: Vec<String> = result
                .winners()
                .iter()
                .filter_map(|&n| u8::try_from(n).ok())
                .map(name)
                .collect();
            if winners.is_empty() {
                result.to_string()
            } else {
                format!("{} won", winners.join(", "))
            }
        }
        (None, None) => game.status.to_string(),
    }
}

/// A table of games.
#[must_use]
pub fn table(games: &[GameSummary]) -> Markup {
    html! {
        @if games.is_empty() {
            p { "No games here yet." }
        } @else {
            div.scroll tabindex="0" { table.games {
                thead { tr { th { "Game" } th { "Players" } th { "Moves" } th { "State" } th { "Last activity" } } }
                tbody {
                    @for game in games {
                        tr {
                            td { a href={ "/games/" (game.id) } { (game.kind.title()) " #" (game.id) } }
                            td { @for (i, seat) in game.seats.iter().enumerate() {
                                @if i > 0 { ", " }
                                @if seat.open { "open seat" } @else { a href={ "/players/" (seat.player) } { (seat.player) } }
                            } }
                            td { (game.ply) }
                            td { (outcome(game)) }
                            td { (game.last_activity_at.get(..10).unwrap_or(&game.last_activity_at)) }
                        }
                    }
                }
            } }
        }
    }
}

/// The listing.
///
/// # Errors
/// 400 for an unknown kind; storage failures.
pub async fn list(state: web::Data<AppState>, query: web::Query<ListQuery>) -> WebAnswer {
    let query = query.into_inner();
    let kind = game_settings_fields::kind_named(query.kind.as_deref())?;
    let player = query.player.filter(|p| !p.trim().is_empty());
    let filter = PublicFilter {
        kind,
        player: player.clone(),
        limit: PAGE,
    };
    let games = crate::http::blocking::with_conn(&state, move |conn| {
        Ok(reads::public_list(conn, &filter)?)
    })
    .await?;
    let body = html! {
        h1 { "Games" }
        form.filter method="get" action="/games" {
            label { "Game " select name="kind" {
                option value="" { "any" }
                @for k in GameKind::ALL {
                    option value=(k.name()) selected[kind == Some(k)] { (k.title()) }
                }
            } }
            " "
            label { "Player " input type="text" name="player" value=[player.as_deref()] size="12"; }
            " "
            button type="submit" { "Show" }
        }
        (table(&games))
    };
    Ok(layout::ok("Games", &body))
}
