//! `/tournaments` (the tournaments taking entries, running and finished, and for signed-in
//! browsers a link to the form that organises one, `super::tournament_form`) and
//! `/tournaments/{id}` (settings, entrants, rounds with links to their games, standings with
//! tie-breaks, Join and Withdraw buttons). The forms carry the session's CSRF token and act
//! through the tournament service as `Actor::Account`.

use actix_web::web;
use maud::{html, Markup};
use turnpost_shared::api::{
    StandingView, TournamentFormat, TournamentStatus, TournamentSummary, TournamentView,
};

use super::signed_in_form::{see_other, SignedInForm};
use super::time_text::{reader_of, time};
use super::WebAnswer;
use super::{layout, SignedIn, Viewer, WebError};
use crate::http::state::AppState;
use crate::notify::Reader;
use crate::tournaments;

fn tournament_id(text: &str) -> Result<i64, WebError> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| {
            WebError::not_found(format!(
                "there is no tournament {text}: a tournament id is a number"
            ))
        })
}

fn format_name(format: TournamentFormat) -> &'static str {
    match format {
        TournamentFormat::RoundRobin => "round-robin",
        TournamentFormat::Swiss => "Swiss",
        TournamentFormat::Tables => "tables",
    }
}

fn summaries(list: &[TournamentSummary], reader: Reader) -> Markup {
    html! {
        ul.tournaments {
            @for t in list {
                li {
                    a href={ "/tournaments/" (t.id) } { (t.name) }
                    " · " (t.kind.title()) " · " (format_name(t.format))
                    " · " (t.entrants) " entered"
                    @if let Some(max) = t.max_players { " of " (max) }
                    @if t.status == TournamentStatus::Entry { " · entries close " (time(&t.entry_closes_at, reader)) }
                    @if t.status == TournamentStatus::Running { " · round " (t.current_round) }
                }
            }
        }
    }
}

/// `GET /tournaments`.
///
/// # Errors
/// Storage failures.
pub async fn list(state: web::Data<AppState>, viewer: Viewer) -> WebAnswer {
    let signed_in = viewer.signed_in().cloned();
    let account = signed_in.as_ref().map(|s| s.account.id);
    let (lists, reader) = crate::http::blocking::with_conn(&state, move |conn| {
        let mut lists = Vec::new();
        for status in [
            TournamentStatus::Entry,
            TournamentStatus::Running,
            TournamentStatus::Finished,
        ] {
            lists.push((status, tournaments::list(conn, status)?));
        }
        let reader = reader_of(conn, account)?;
        Ok((lists, reader))
    })
    .await?;
    let body = html! {
        h1 { "Tournaments" }
        p { "Round-robin and Swiss tournaments for the two-player games, and table tournaments "
            "for Chinese Checkers. The server pairs each round when the last one has ended and "
            "mails every player their games." }
        @for (status, list) in &lists {
            h2 { (match status {
                TournamentStatus::Entry => "Taking entries",
                TournamentStatus::Running => "Running",
                _ => "Finished",
            }) }
            @if list.is_empty() { p { "None." } } @else { (summaries(list, reader)) }
        }
        @if reader == Reader::Anonymous { p { small { "Times are in UTC; sign in to read them in your time zone." } } }
        @match &signed_in {
            Some(_) => p { a href="/tournaments/new" { "Organise a tournament" } },
            None => p { a href="/signin" { "Sign in" } " to enter or organise one." },
        }
    };
    Ok(layout::ok("Tournaments", &body))
}

fn standings_table(standings: &[StandingView]) -> Markup {
    html! {
        div.scroll {
            table.standings {
                caption { "Standings: points, then Buchholz, then Sonneborn–Berger" }
                thead { tr {
                    th scope="col" { "#" } th scope="col" { "Player" } th scope="col" { "Points" }
                    th scope="col" { abbr title="Buchholz: the points of every opponent met" { "Bh" } }
                    th scope="col" { abbr title="Sonneborn–Berger: result against each opponent times their points" { "SB" } }
                    th scope="col" { abbr title="won, drawn, lost, byes" { "W-D-L-B" } }
                } }
                tbody {
                    @for s in standings {
                        tr {
                            td { (s.rank) }
                            td { a href={ "/players/" (s.player) } { (s.player) } }
                            td { (s.points) } td { (s.buchholz) } td { (s.sonneborn_berger) }
                            td { (s.wins) "-" (s.draws) "-" (s.losses) "-" (s.byes) }
                        }
                    }
                }
            }
        }
    }
}

fn view_page(view: &TournamentView, signed_in: Option<&SignedIn>, reader: Reader) -> Markup {
    html! {
        h1 { (view.name) }
        p {
            (view.kind.title()) " · " (format_name(view.format))
            @if view.double { " (double)" }
            @if view.all_at_once { ", every round at once" }
            @if let Some(seats) = view.table_seats { " · tables of " (seats) }
            " · clock " (view.clock)
            @if !view.options.is_empty() { " · " (view.options) }
            " · organised by " a href={ "/players/" (view.organiser) } { (view.organiser) }
        }
        p {
            @match view.status {
                TournamentStatus::Entry => {
                    "Entries close " (time(&view.entry_closes_at, reader)) "; round 1 starts then"
                    @if view.start_when_full { @if let Some(max) = view.max_players { ", or as soon as " (max) " have entered" } }
                    "."
                },
                TournamentStatus::Running => {
                    "Round " (view.current_round) " of " (view.rounds.unwrap_or(0))
                    @if let Some(started) = &view.started_at { "; started " (time(started, reader)) }
                    "."
                },
                TournamentStatus::Finished => {
                    "Finished"
                    @if let Some(finished) = &view.finished_at { " " (time(finished, reader)) }
                    "."
                },
                TournamentStatus::Cancelled => { "Cancelled: too few players entered." },
            }
        }
        @if let Some(signed_in) = signed_in {
            @if view.status == TournamentStatus::Entry && !view.you_entered {
                form.inline method="post" action={ "/tournaments/" (view.id) "/join" } {
                    (signed_in.csrf_field())
                    button type="submit" { "Join" }
                }
            }
            @if view.status == TournamentStatus::Entry && signed_in.account.name == view.organiser {
                form.inline method="post" action={ "/tournaments/" (view.id) "/start" } {
                    (signed_in.csrf_field())
                    button type="submit" { "Start now" }
                }
            }
            @if view.you_entered && matches!(view.status, TournamentStatus::Entry | TournamentStatus::Running) {
                form.inline method="post" action={ "/tournaments/" (view.id) "/withdraw" } {
                    (signed_in.csrf_field())
                    button type="submit" { "Withdraw" }
                }
            }
        }
        @if reader == Reader::Anonymous { p { small { "Times are in UTC; sign in to read them in your time zone." } } }
        h2 { "Entrants (" (view.entrants.len()) @if let Some(max) = view.max_players { " of at most " (max) } ")" }
        @if view.entrants.is_empty() { p { "Nobody yet." } } @else {
            ol {
                @for e in &view.entrants {
                    li {
                        a href={ "/players/" (e.player) } { (e.player) }
                        @if let (Some(why), Some(round)) = (&e.left_reason, e.left_before_round) {
                            " (" (why) ", out from round " (round) ")"
                        }
                    }
                }
            }
        }
        @if !view.standings.is_empty() {
            h2 { "Standings" }
            (standings_table(&view.standings))
        }
        @if view.round_games.iter().any(|r| !r.listed) {
            nav.rounds aria-label="Rounds" {
                p {
                    "Rounds (" (view.round_games.iter().map(|r| r.game_count).sum::<u32>()) " games): "
                    @for r in &view.round_games {
                        @if r.listed {
                            strong aria-current="page" { (r.round) }
                        } @else {
                            a href={ "/tournaments/" (view.id) "?round=" (r.round) } title={ (r.ended_count) " of " (r.game_count) " ended" } { (r.round) }
                        }
                        " "
                    }
                }
            }
        }
        @for round in view.round_games.iter().rev().filter(|r| r.listed) {
            h2 { "Round " (round.round) }
            p { small { (round.ended_count) " of " (round.game_count) " games ended." } }
            ul {
                @for game in &round.games {
                    li {
                        a href={ "/games/" (game.id) } { "#" (game.id) }
                        " " (game.players.join(" – "))
                        @match &game.placings {
                            Some(places) => { " · places " (places.iter().map(u32::to_string).collect::<Vec<_>>().join("-")) },
                            None => { " · playing" },
                        }
                    }
                }
                @if let Some(waiting) = round.game_count.checked_sub(u32::try_from(round.games.len()).unwrap_or(u32::MAX)).filter(|n| *n > 0) {
                    li { (waiting) " more " @if waiting == 1 { "game is" } @else { "games are" } " being made: they appear in a moment." }
                }
                @if let Some(bye) = &round.bye { li { "Bye: " (bye) } }
            }
        }
    }
}

/// The query of `GET /tournaments/{id}`: the round whose games to list (a tournament of
/// more than `tournaments::LISTED_GAMES` games lists one round a page).
#[derive(Debug, serde::Deserialize)]
pub struct RoundQuery {
    round: Option<String>,
}

/// `GET /tournaments/{id}`.
///
/// # Errors
/// 404 for an unknown tournament or a round not paired; 400 for a round that is no number;
/// storage failures.
pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
    query: web::Query<RoundQuery>,
) -> WebAnswer {
    let id = tournament_id(&path)?;
    let round = match query.round.as_deref() {
        None => None,
        Some(text) => Some(text.parse::<u32>().map_err(|_| {
            WebError::bad_request(format!("round={text}: expected a round number (1 or more)"))
        })?),
    };
    let signed_in = viewer.signed_in().cloned();
    let viewer_id = signed_in.as_ref().map_or(0, |s| s.account.id);
    let account = signed_in.as_ref().map(|s| s.account.id);
    let (view, reader) = crate::http::blocking::with_conn(&state, move |conn| {
        let view = tournaments::show(conn, viewer_id, id, round)?;
        Ok((view, reader_of(conn, account)?))
    })
    .await?;
    Ok(layout::ok(
        &view.name.clone(),
        &view_page(&view, signed_in.as_ref(), reader),
    ))
}

/// `POST /tournaments/{id}/join`.
///
/// # Errors
/// 403 without a session or its token; 404; 409 closed, full or entered; 429.
pub async fn join(posted: SignedInForm<String>) -> WebAnswer {
    let id = tournament_id(&posted.path)?;
    posted.charge_join()?;
    posted.act(id, tournaments::join).await?;
    Ok(see_other(format!("/tournaments/{id}")))
}

/// `POST /tournaments/{id}/withdraw`.
///
/// # Errors
/// 403 without a session or its token; 404; 409 not entered or over.
pub async fn withdraw(posted: SignedInForm<String>) -> WebAnswer {
    let id = tournament_id(&posted.path)?;
    posted.act(id, tournaments::withdraw).await?;
    Ok(see_other(format!("/tournaments/{id}")))
}

/// `POST /tournaments/{id}/start`: the organiser starts it now.
///
/// # Errors
/// 403 without a session or its token, or for anyone but the organiser; 404; 409 started
/// already or too few entrants.
pub async fn start(posted: SignedInForm<String>) -> WebAnswer {
    let id = tournament_id(&posted.path)?;
    posted.act(id, tournaments::start_now).await?;
    Ok(see_other(format!("/tournaments/{id}")))
}
