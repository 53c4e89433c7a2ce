//! `GET /ratings` (the rating kinds) and `GET /ratings/{kind}`: a rating kind's leaderboard,
//! a page at a time (`?page=N`, 50 players a page unless `limit` says otherwise).

use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use turnpost_shared::api::Leaderboard;

use super::WebAnswer;
use super::{layout, WebError};
use crate::games::rating::{self, LeaderboardPage};
use crate::games::GameError;
use crate::http::page_size::{page_size, DEFAULT_PAGE_SIZE};
use crate::http::state::AppState;
use crate::ratings::RatingKind;

/// The links to every leaderboard but `current`'s, by their names for people.
fn kind_links(current: Option<&str>) -> maud::Markup {
    html! {
        nav aria-label="Rating kinds" { ul {
            @for kind in RatingKind::all() {
                @if current != Some(kind.to_string().as_str()) {
                    li { a href={ "/ratings/" (kind) } { (kind.title()) } }
                }
            }
        } }
    }
}

/// `GET /ratings`.
pub async fn index() -> HttpResponse {
    let body = html! {
        h1 { "Ratings" }
        p { "One rating per kind of game; Chinese Checkers games of three to six players rate apart." }
        (kind_links(None))
    };
    layout::ok("Ratings", &body)
}

/// The page asked for.
#[derive(Debug, serde::Deserialize)]
pub struct PageQuery {
    /// 1 for the first page.
    page: Option<String>,
    /// Players a page, 1–100 (default 50).
    limit: Option<String>,
}

/// The ranks `query` asks for (page numbers count from 1).
fn page_of(query: &PageQuery) -> Result<(u32, LeaderboardPage), WebError> {
    // A form's empty field is no limit.
    let limit = query.limit.as_deref().filter(|text| !text.is_empty());
    let limit = page_size(limit).map_err(WebError::bad_request)?;
    let page = match query.page.as_deref() {
        None | Some("") => 1,
        Some(text) => text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                WebError::bad_request(format!("page={text}: expected a page number, 1 or more"))
            })?,
    };
    let offset = (page - 1).saturating_mul(limit);
    Ok((page, LeaderboardPage { offset, limit }))
}

/// Links to the previous and next pages, and where this one is.
fn page_links(board: &Leaderboard, page: u32, limit: u32, default_limit: bool) -> Markup {
    let pages = board.total.div_ceil(limit).max(1);
    let href = |to: u32| {
        if default_limit {
            format!("/ratings/{}?page={to}", board.kind)
        } else {
            format!("/ratings/{}?page={to}&limit={limit}", board.kind)
        }
    };
    html! {
        nav.pages aria-label="Leaderboard pages" {
            @if page > 1 {
                a rel="prev" href=(href(page.saturating_sub(1).min(pages))) { "← Higher ratings" }
                " "
            }
            span { "Page " (page) " of " (pages) " (" (board.total) " players)" }
            @if board.next_offset.is_some() {
                " "
                a rel="next" href=(href(page + 1)) { "Lower ratings →" }
            }
        }
    }
}

/// `GET /ratings/{kind}`.
///
/// # Errors
/// 400 for a bad page or limit; 404 for an unknown rating kind; storage failures.
pub async fn show(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<PageQuery>,
) -> WebAnswer {
    let (page, asked_page) = page_of(&query)?;
    let default_limit = asked_page.limit == DEFAULT_PAGE_SIZE;
    let kind = path.into_inner();
    let asked = kind.clone();
    let board = crate::http::blocking::with_conn(&state, move |conn| {
        match rating::leaderboard(conn, &kind, asked_page) {
            Ok(board) => Ok(Some(board)),
            Err(GameError::UnknownRatingKind(_)) => Ok(None),
            Err(other) => Err(other.into()),
        }
    })
    .await?;
    let Some(board) = board else {
        return Err(WebError::not_found(format!(
            "there is no rating kind called {asked}"
        )));
    };
    let title = format!(
        "Ratings: {}",
        board
            .kind
            .parse::<RatingKind>()
            .map_or_else(|_| board.kind.clone(), RatingKind::title)
    );
    let body = html! {
        h1 { (title) }
        @if board.total == 0 {
            p { "Nobody has played a rated game of this kind yet." }
        } @else if board.players.is_empty() {
            p { "There are " (board.total) " players ranked; page " (page) " is past the last. "
                a href={ "/ratings/" (board.kind) } { "First page" } }
        } @else {
            div.scroll tabindex="0" { table.games {
                caption { "Highest rating first; ? marks a provisional rating (deviation above 110)." }
                thead { tr { th scope="col" { "#" } th scope="col" { "Player" } th scope="col" { "Rating" } th scope="col" { "Deviation" } th scope="col" { "Games" } } }
                tbody {
                    @for entry in &board.players {
                        tr {
                            td { (entry.rank) }
                            td { a href={ "/players/" (entry.player) } { (entry.player) } @if entry.bot { " (bot)" } @if entry.engine { " (engine)" } }
                            td { (entry.rating) @if entry.provisional { "?" } }
                            td { (entry.deviation) }
                            td { (entry.games) }
                        }
                    }
                }
            } }
            (page_links(&board, page, asked_page.limit, default_limit))
        }
        h2 { "Other kinds" }
        (kind_links(Some(&board.kind)))
    };
    Ok(layout::ok(&title, &body))
}
