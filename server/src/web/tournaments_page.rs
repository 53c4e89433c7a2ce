//! `/tournaments` (the tournaments taking entries, running and finished, and a form to create
//! one for signed-in browsers) and `/tournaments/{id}` (settings, entrants, rounds with links
//! to their games, standings with tie-breaks, Join and Withdraw buttons). The forms carry the
//! session's CSRF token and act through the tournament service as `Actor::Account`.

use std::collections::{BTreeMap, HashMap};

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use maud::{html, Markup};
use turnpost_shared::{
    CreateTournamentRequest, GameKind, StandingView, TournamentFormat, TournamentStatus,
    TournamentSummary, TournamentView,
};

use super::{csrf, layout, SignedIn, Viewer, WebError};
use crate::state::AppState;
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

fn summaries(list: &[TournamentSummary]) -> Markup {
    html! {
        ul.tournaments {
            @for t in list {
                li {
                    a href={ "/tournaments/" (t.id) } { (t.name) }
                    " · " (t.kind.title()) " · " (format_name(t.format))
                    " · " (t.entrants) " entered"
                    @if let Some(max) = t.max_players { " of " (max) }
                    @if t.status == TournamentStatus::Entry { " · entries close " (t.entry_closes_at) }
                    @if t.status == TournamentStatus::Running { " · round " (t.current_round) }
                }
            }
        }
    }
}

fn create_form(signed_in: &SignedIn) -> Markup {
    html! {
        h2 { "Organise a tournament" }
        form.stack method="post" action="/tournaments" {
            (signed_in.csrf_field())
            label { "Name " input type="text" name="name" required maxlength="80"; }
            label { "Game " select name="kind" {
                @for k in GameKind::ALL { option value=(k.name()) { (k.title()) } }
            } }
            label { "Format " select name="format" {
                option value="swiss" { "Swiss" }
                option value="round_robin" { "Round-robin" }
                option value="tables" { "Tables (Chinese Checkers, 3–6 a table)" }
            } }
            label { "Rounds (Swiss, tables) " input type="number" name="rounds" min="1" max="50" value="5"; }
            label { "Seats a table (tables) " input type="number" name="table_seats" min="3" max="6" value="3"; }
            label { "Days per move " input type="number" name="days" min="1" max="30" value="3"; }
            label { "Days until entries close " input type="number" name="entry_days" min="1" max="90" value="7"; }
            label { "Most players (optional) " input type="number" name="max_players" min="2" max="200"; }
            button type="submit" { "Create" }
        }
    }
}

/// `GET /tournaments`.
///
/// # Errors
/// Storage failures.
pub async fn list(state: web::Data<AppState>, viewer: Viewer) -> Result<HttpResponse, WebError> {
    let lists = crate::blocking::with_conn(&state, move |conn| {
        let mut lists = Vec::new();
        for status in [
            TournamentStatus::Entry,
            TournamentStatus::Running,
            TournamentStatus::Finished,
        ] {
            lists.push((status, tournaments::list(conn, status)?));
        }
        Ok(lists)
    })
    .await?;
    let signed_in = viewer.signed_in().cloned();
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
            @if list.is_empty() { p { "None." } } @else { (summaries(list)) }
        }
        @match &signed_in {
            Some(signed_in) => (create_form(signed_in)),
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

fn view_page(view: &TournamentView, signed_in: Option<&SignedIn>) -> Markup {
    html! {
        h1 { (view.name) }
        p {
            (view.kind.title()) " · " (format_name(view.format))
            @if view.double { " (double)" }
            @if let Some(seats) = view.table_seats { " · tables of " (seats) }
            " · clock " (view.clock)
            @if !view.options.is_empty() { " · " (view.options) }
            " · organised by " a href={ "/players/" (view.organiser) } { (view.organiser) }
        }
        p {
            @match view.status {
                TournamentStatus::Entry => { "Entries close " (view.entry_closes_at) "; round 1 starts then." },
                TournamentStatus::Running => { "Round " (view.current_round) " of " (view.rounds.unwrap_or(0)) "." },
                TournamentStatus::Finished => { "Finished." },
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
            @if view.you_entered && matches!(view.status, TournamentStatus::Entry | TournamentStatus::Running) {
                form.inline method="post" action={ "/tournaments/" (view.id) "/withdraw" } {
                    (signed_in.csrf_field())
                    button type="submit" { "Withdraw" }
                }
            }
        }
        h2 { "Entrants (" (view.entrants.len()) ")" }
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
        @for round in view.round_games.iter().rev() {
            h2 { "Round " (round.round) }
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
                @if let Some(bye) = &round.bye { li { "Bye: " (bye) } }
            }
        }
    }
}

/// `GET /tournaments/{id}`.
///
/// # Errors
/// 404 for an unknown tournament; storage failures.
pub async fn show(
    state: web::Data<AppState>,
    viewer: Viewer,
    path: web::Path<String>,
) -> Result<HttpResponse, WebError> {
    let id = tournament_id(&path)?;
    let signed_in = viewer.signed_in().cloned();
    let viewer_id = signed_in.as_ref().map_or(0, |s| s.account.id);
    let view = crate::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::show(conn, viewer_id, id)?)
    })
    .await?;
    Ok(layout::ok(
        &view.name.clone(),
        &view_page(&view, signed_in.as_ref()),
    ))
}

fn see(location: String) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location))
        .finish()
}

fn number<T: std::str::FromStr>(
    form: &HashMap<String, String>,
    key: &str,
) -> Result<Option<T>, WebError> {
    match form.get(key).map(|v| v.trim()).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(text) => text
            .parse()
            .map(Some)
            .map_err(|_| WebError::bad_request(format!("{key}: `{text}` is not a whole number"))),
    }
}

/// `POST /tournaments`: the create form.
///
/// # Errors
/// 403 without a session or its token; 400 for a form that cannot be read; 422 refusals of
/// the service; 429 past the hourly budget.
pub async fn create(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    state
        .limits
        .check_join(&signed_in.account.name_key)
        .map_err(crate::error::ApiError::from)?;
    let kind: GameKind = form
        .get("kind")
        .map(String::as_str)
        .unwrap_or_default()
        .parse()
        .map_err(|e| WebError::bad_request(format!("kind: {e}")))?;
    let format = form
        .get("format")
        .and_then(|f| TournamentFormat::from_name(f))
        .ok_or_else(|| WebError::bad_request("format: expected swiss, round_robin or tables"))?;
    let entry_days: i64 = number(&form, "entry_days")?.unwrap_or(7);
    let closes = crate::db::now() + chrono::Duration::days(entry_days);
    let request = CreateTournamentRequest {
        name: form.get("name").cloned().unwrap_or_default(),
        kind,
        options: BTreeMap::new(),
        clock: number::<u32>(&form, "days")?.map(|d| format!("{d}d")),
        timeout: None,
        format,
        double: false,
        all_at_once: false,
        table_seats: if format == TournamentFormat::Tables {
            number(&form, "table_seats")?
        } else {
            None
        },
        rounds: if format == TournamentFormat::RoundRobin {
            None
        } else {
            number(&form, "rounds")?
        },
        entry_closes_at: crate::db::rfc3339(closes),
        max_players: number(&form, "max_players")?,
        invite: Vec::new(),
    };
    let actor = signed_in.actor();
    let ctx = state.mail.clone();
    let view = crate::blocking::with_conn(&state, move |conn| {
        Ok(tournaments::create(conn, &ctx, &actor, &request)?)
    })
    .await?;
    Ok(see(format!("/tournaments/{}", view.id)))
}

async fn act(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
    join: bool,
) -> Result<HttpResponse, WebError> {
    signed_in.check_csrf(form.get(csrf::FIELD).map(String::as_str))?;
    let id = tournament_id(&path)?;
    if join {
        state
            .limits
            .check_join(&signed_in.account.name_key)
            .map_err(crate::error::ApiError::from)?;
    }
    let actor = signed_in.actor();
    let ctx = state.mail.clone();
    crate::blocking::with_conn(&state, move |conn| {
        Ok(if join {
            tournaments::join(conn, &ctx, &actor, id)?
        } else {
            tournaments::withdraw(conn, &ctx, &actor, id)?
        })
    })
    .await?;
    Ok(see(format!("/tournaments/{id}")))
}

/// `POST /tournaments/{id}/join`.
///
/// # Errors
/// 403 without a session or its token; 404; 409 closed, full or entered; 429.
pub async fn join(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    act(state, signed_in, path, form, true).await
}

/// `POST /tournaments/{id}/withdraw`.
///
/// # Errors
/// 403 without a session or its token; 404; 409 not entered or over.
pub async fn withdraw(
    state: web::Data<AppState>,
    signed_in: SignedIn,
    path: web::Path<String>,
    form: web::Form<HashMap<String, String>>,
) -> Result<HttpResponse, WebError> {
    act(state, signed_in, path, form, false).await
}
