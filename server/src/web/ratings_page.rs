//! `GET /ratings` (the rating kinds) and `GET /ratings/{kind}`: a rating kind's leaderboard.

use actix_web::{web, HttpResponse};
use maud::html;

use super::{layout, WebError};
use crate::games::{rating, GameError};
use crate::ratings::RatingKind;
use crate::state::AppState;

/// The links to every leaderboard.
fn kind_links() -> maud::Markup {
    html! {
        nav aria-label="Rating kinds" { ul {
            @for kind in RatingKind::all() {
                li { a href={ "/ratings/" (kind) } { (kind) } }
            }
        } }
    }
}

/// `GET /ratings`.
pub async fn index() -> HttpResponse {
    let body = html! {
        h1 { "Ratings" }
        p { "One rating per kind of game; Chinese Checkers games of three to six players rate apart, in chinese-checkers-multi." }
        (kind_links())
    };
    layout::ok("Ratings", &body)
}

/// `GET /ratings/{kind}`.
///
/// # Errors
/// 404 for an unknown rating kind; storage failures.
pub async fn show(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let kind = path.into_inner();
    let asked = kind.clone();
    let board =
        crate::blocking::with_conn(&state, move |conn| match rating::leaderboard(conn, &kind) {
            Ok(board) => Ok(Some(board)),
            Err(GameError::UnknownRatingKind(_)) => Ok(None),
            Err(other) => Err(other.into()),
        })
        .await?;
    let Some(board) = board else {
        return Err(WebError::not_found(format!(
            "there is no rating kind called {asked}"
        )));
    };
    let title = format!("Ratings: {}", board.kind);
    let body = html! {
        h1 { (title) }
        @if board.players.is_empty() {
            p { "Nobody has played a rated game of this kind yet." }
        } @else {
            div.scroll tabindex="0" { table.games {
                caption { "Highest rating first; ? marks a provisional rating (deviation above 110)." }
                thead { tr { th scope="col" { "#" } th scope="col" { "Player" } th scope="col" { "Rating" } th scope="col" { "Deviation" } th scope="col" { "Games" } } }
                tbody {
                    @for entry in &board.players {
                        tr {
                            td { (entry.rank) }
                            td { a href={ "/players/" (entry.player) } { (entry.player) } @if entry.bot { " (bot)" } }
                            td { (entry.rating) @if entry.provisional { "?" } }
                            td { (entry.deviation) }
                            td { (entry.games) }
                        }
                    }
                }
            } }
        }
        h2 { "Other kinds" }
        (kind_links())
    };
    Ok(layout::ok(&title, &body))
}
