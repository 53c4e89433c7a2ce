//! `GET /games/{id}` (with `?ply=N`: the position after N moves) and `GET /games/{id}/record`.
//! The page shows the board, the players, whose turn, goals, clock, the result, the move list
//! linking every position, and, for a browser holding the seat's play cookie or signed in to
//! the seat's account, on its turn, the move form (the move list shows 200 moves around the
//! position shown, with links to the others); signed in, also the buttons to accept or
//! decline a challenge, take an open seat, and ask for a rematch of a finished game.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup, PreEscaped};
use turnpost_shared::api::GameView;
use turnpost_shared::play::GameStatus;
use turnpost_shared::{AnyGame, Seat};

use super::play_cookie::{self, Checked, CookieReading};
use super::WebAnswer;
use super::{board, conditional_panel, layout, time_text, SignedIn, WebError};
use crate::games::reads::{self, GamePage};
use crate::http::state::AppState;
use crate::notify::Reader;
use crate::play_link::PassRefused;

/// The query of a game page.
#[derive(Debug, serde::Deserialize)]
pub struct PlyQuery {
    /// The number of moves after which to show the position.
    ply: Option<String>,
    /// Set by the redirect after a move played from the page: the move's number, confirmed
    /// above the board when it is this browser's seat's.
    played: Option<String>,
    /// The prepared-answers panel's first step: the opponent's move to answer
    /// (`conditional_panel`).
    #[serde(rename = "if")]
    if_they_play: Option<String>,
    /// Set by the redirect after an edit of the prepared answers: what was done.
    prepared: Option<String>,
    /// A stored line of prepared answers to edit (its moves separated by spaces).
    edit: Option<String>,
}

/// What a page answering a form says besides the game.
#[derive(Debug, Clone)]
pub enum Note {
    /// Something happened or was refused: a sentence above the board.
    Notice(String),
    /// The move was refused: the engine's reason by the field, and the text as entered.
    Refused {
        /// The move as entered.
        entered: String,
        /// Why it was refused.
        reason: String,
    },
    /// This browser's seat played move number N (the redirect after pressing Play).
    Played(usize),
    /// The waiting player chose the opponent's move to prepare an answer to (`?if=`).
    Preparing(String),
    /// The waiting player edits a stored line (`?edit=`).
    Editing(String),
}

/// A game id from the path; anything else is a 404.
///
/// # Errors
/// 404 for a path part that is not a game id.
pub fn game_id(text: &str) -> Result<i64, WebError> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| {
            WebError::not_found(format!("there is no game {text}: a game id is a number"))
        })
}

/// `GET /games/{id}`.
///
/// # Errors
/// 404 unknown game, 400 a bad `ply`; storage failures.
pub async fn show(
    state: web::Data<AppState>,
    req: HttpRequest,
    path: web::Path<String>,
    query: web::Query<PlyQuery>,
) -> WebAnswer {
    let id = game_id(&path)?;
    let query = query.into_inner();
    let played = query
        .played
        .as_deref()
        .and_then(|text| text.parse::<usize>().ok())
        .map(Note::Played)
        .or_else(|| {
            query
                .prepared
                .as_deref()
                .and_then(conditional_panel::confirmation)
                .map(|text| Note::Notice(text.to_owned()))
        })
        .or_else(|| query.if_they_play.clone().map(Note::Preparing))
        .or_else(|| query.edit.clone().map(Note::Editing));
    let ply = match query.ply.as_deref() {
        None | Some("") => None,
        Some(text) => Some(text.parse::<usize>().map_err(|_| {
            WebError::bad_request(format!(
                "ply={text} is not a number of moves; use ?ply=0 for the start position"
            ))
        })?),
    };
    // A play cookie set aside for the signed-in player's own seat is removed, and the page
    // says why (`play_cookie`).
    let (pass, set_aside) = match play_cookie::read(&state, &req, id).await? {
        CookieReading::Absent => (None, None),
        CookieReading::Checked(checked) => (Some(checked), None),
        CookieReading::SetAside(why) => (None, Some(why)),
    };
    let note = set_aside
        .map(|why| Note::Notice(why.message().to_owned()))
        .or(played);
    let mut response = render(&state, id, ply, pass, note, StatusCode::OK).await?;
    if set_aside.is_some() {
        response
            .add_cookie(&play_cookie::removal(id))
            .map_err(|e| WebError::internal(&e))?;
    }
    Ok(response)
}

/// The page of game `id` at `ply` (None: the latest position) for a browser with `pass`.
///
/// # Errors
/// 404 unknown game or a ply past the last move; storage failures.
pub async fn render(
    state: &AppState,
    id: i64,
    ply: Option<usize>,
    pass: Option<Result<Checked, PassRefused>>,
    note: Option<Note>,
    status: StatusCode,
) -> WebAnswer {
    let session = super::viewer::current().and_then(|v| v.signed_in().cloned());
    let viewer = match (&pass, &session) {
        (Some(Ok(checked)), _) => checked.pass.account_id,
        (_, Some(signed_in)) => signed_in.account.id,
        _ => 0,
    };
    // Who acts from this page: the play cookie's seat, else the signed-in account (for its
    // own seat, known once the page is read).
    let actor = match (&pass, &session) {
        (Some(Ok(checked)), _) => Some((checked.actor(), Some(checked.pass.seat))),
        (_, Some(signed_in)) => Some((signed_in.actor(), None)),
        _ => None,
    };
    let (page, reader, seat_reads) = crate::http::blocking::with_conn(state, move |conn| {
        let page = reads::page(conn, viewer, id)?;
        let reader = time_text::reader_of(conn, (viewer > 0).then_some(viewer))?;
        // A seat's own reads in the same round trip (only on the latest position).
        let latest = ply.is_none_or(|shown| shown == page.moves.moves.len());
        let seat_reads = match actor.filter(|_| latest) {
            Some((actor, cookie_seat)) => {
                let seat = cookie_seat.or(page.view.your_seat.map(i32::from));
                seat.map(|seat| seat_reads(conn, &page.view, actor, seat))
                    .transpose()?
            }
            None => None,
        };
        Ok((page, reader, seat_reads))
    })
    .await?;
    let total = page.moves.moves.len();
    let shown = ply.unwrap_or(total);
    if shown > total {
        return Err(WebError::not_found(format!(
            "game {id} has {total} moves; there is no position after move {shown}"
        )));
    }
    let position = position_after(&page, shown)?;
    // The seat this browser plays: the play cookie's, else the signed-in account's.
    let control = match (&pass, &session) {
        (Some(Ok(checked)), _) => Some(Control {
            seat: checked.pass.seat,
            csrf: crate::play_link::csrf_token(&state.mail.link_key, &checked.text),
        }),
        (_, Some(signed_in)) => page.view.your_seat.map(|seat| Control {
            seat: i32::from(seat),
            csrf: signed_in.csrf_token().to_owned(),
        }),
        _ => None,
    };
    let form = control.as_ref().filter(|_| shown == total);
    let (stored, dropped) = seat_reads.map_or((None, None), |reads| (reads.stored, reads.dropped));
    let panel = form
        .zip(stored)
        .map(|(control, stored)| prepared_panel(stored, &position, control, note.as_ref()));
    let note = match note {
        None => dropped.map(Note::Notice),
        some => some,
    };
    let body = page_body(
        &page,
        &position,
        shown,
        form,
        pass.as_ref(),
        note.as_ref(),
        session.as_ref(),
        panel.as_ref(),
        reader,
    );
    let title = format!("{} #{id}", page.view.kind.title());
    Ok(layout::response(status, &title, &body))
}

/// What the page reads for the seat it plays, beside the game.
struct SeatReads {
    /// Its prepared answers, while it waits and may prepare them.
    stored: Option<turnpost_shared::api::ConditionalMoves>,
    /// On its turn, when the opponent's move dropped its prepared answers: what the page says.
    dropped: Option<String>,
}

/// The reads of `seat`'s page through the game service: its prepared answers while it waits,
/// or on its turn whether the opponent's move dropped them.
///
/// # Errors
/// Storage failures (a refusal, as a seat that left, reads nothing).
fn seat_reads(
    conn: &mut crate::db::DbConnection,
    view: &GameView,
    actor: crate::games::Actor,
    seat: i32,
) -> Result<SeatReads, crate::http::error::ApiError> {
    let own = u8::try_from(seat).unwrap_or(0);
    let stored = if conditional_panel::applies(view, own) {
        crate::games::conditional::get(conn, &actor, view.id).ok()
    } else {
        None
    };
    let on_turn = view.seats.len() == 2 && view.to_move == Some(own);
    let dropped = if on_turn {
        let ply = i32::try_from(view.ply).unwrap_or(i32::MAX);
        crate::games::conditional::dropped_at(conn, view.id, seat, ply)?.map(|played| {
            let opponent = view
                .seats
                .iter()
                .find(|s| s.seat != own)
                .map_or_else(|| "your opponent".to_owned(), |s| s.player.clone());
            format!("{opponent} played {played}, which none of your prepared answers expected: they are dropped.")
        })
    } else {
        None
    };
    Ok(SeatReads { stored, dropped })
}

/// The prepared-answers panel of a waiting seat's page, from its `stored` lines.
fn prepared_panel(
    stored: turnpost_shared::api::ConditionalMoves,
    position: &AnyGame,
    control: &Control,
    note: Option<&Note>,
) -> conditional_panel::Panel {
    let asked = match note {
        Some(Note::Preparing(asked)) => Some(asked.as_str()),
        _ => None,
    };
    let editing = match note {
        Some(Note::Editing(line)) => stored
            .lines
            .iter()
            .map(|kept| kept.join(" "))
            .find(|kept| kept == line.trim()),
        _ => None,
    };
    conditional_panel::Panel {
        stored,
        step: conditional_panel::step_for(position, asked),
        csrf: control.csrf.clone(),
        editing,
    }
}

/// The position after the first `shown` moves, replayed from the game's start with its full
/// options: a running dice game's public record has no seed to replay its rolls with.
fn position_after(page: &GamePage, shown: usize) -> Result<AnyGame, WebError> {
    // The latest position (what nearly every visit shows) is stored: no replay. (Before the
    // first move there is nothing to replay anyway.)
    if shown > 0 && shown == page.moves.moves.len() {
        return Ok(page.position.clone());
    }
    let moves = page.record.moves.get(..shown).unwrap_or_default();
    page.start
        .clone()
        .replay(moves)
        .map_err(|e| WebError::internal(&e))
}

/// The player holding `seat`.
fn player(view: &GameView, seat: u8) -> String {
    view.seats
        .iter()
        .find(|s| s.seat == seat)
        .map_or_else(|| format!("seat {seat}"), |s| s.player.clone())
}

/// Seconds as "2d 4h" / "3h 20m".
fn duration(seconds: u64) -> String {
    let (days, hours, minutes) = (seconds / 86_400, seconds / 3600 % 24, seconds / 60 % 60);
    if days > 0 {
        format!("{days}d {hours}h")
    } else {
        format!("{hours}h {minutes}m")
    }
}

/// The state of the game in one sentence.
fn state_line(view: &GameView) -> String {
    match view.status {
        GameStatus::Active => view.to_move.map_or_else(
            || "Being played.".to_owned(),
            |seat| format!("{} to move.", player(view, seat)),
        ),
        GameStatus::Finished => {
            let how = view
                .result_reason
                .map(|r| format!(" ({r})"))
                .unwrap_or_default();
            match &view.result {
                Some(result) if result.is_draw() => format!("Drawn{how}."),
                Some(result) => {
                    let winners: Vec<String> = result
                        .winners()
                        .iter()
                        .filter_map(|&n| u8::try_from(n).ok())
                        .map(|seat| player(view, seat))
                        .collect();
                    format!("Over: {} won{how}.", winners.join(" and "))
                }
                None => "Over.".to_owned(),
            }
        }
        GameStatus::Invited => "A challenge: waiting for the players to accept.".to_owned(),
        GameStatus::Cancelled => format!("This game is {}.", view.status),
    }
}

/// A seat's goal: addressed to "you" only in the row of the seat this browser plays, said of
/// the seat everywhere else (spectators are nobody's "you").
fn goal_line(position: &AnyGame, seat: u8, own_seat: Option<u8>) -> String {
    Seat::new(seat).map_or_else(String::new, |s| {
        if own_seat == Some(seat) {
            position.goal(s)
        } else {
            position.public_goal(s)
        }
    })
}

/// The seat a browser plays from the page, and its forms' CSRF token.
struct Control {
    seat: i32,
    csrf: String,
}

/// The challenge buttons of a signed-in browser: accept or decline its invitation, take an
/// open seat, ask for a rematch of a finished game it played.
fn session_actions(view: &GameView, signed_in: &SignedIn) -> Markup {
    let id = view.id;
    let mine = view
        .your_seat
        .and_then(|own| view.seats.iter().find(|s| s.seat == own));
    let button = |action: String, label: &str| {
        html! {
            form.inline method="post" action=(action) {
                (signed_in.csrf_field())
                button type="submit" { (label) }
            }
        }
    };
    html! {
        @match (view.status, mine) {
            (GameStatus::Invited, Some(seat)) if !seat.accepted => div.actions {
                @if let Some(changes) = view.rating_changes {
                    p.rating-changes { "Rated: your rating changes by " (format!("{:+}", changes.win)) " for a win, "
                        (format!("{:+}", changes.draw)) " for a draw, " (format!("{:+}", changes.loss)) " for a loss." }
                }
                (button(format!("/games/{id}/accept"), "Accept"))
                (button(format!("/games/{id}/decline"), "Decline"))
            },
            (GameStatus::Invited, Some(_)) => div.actions {
                @if view.seats.iter().any(|s| s.open) { p { "Waiting for players to take the open seats." } }
                (button(format!("/games/{id}/decline"), "Withdraw"))
            },
            (GameStatus::Invited, None) if view.seats.iter().any(|s| s.open) => div.actions {
                (button(format!("/challenges/{id}/join"), "Join this game"))
            },
            (GameStatus::Finished, Some(_)) => div.actions {
                (button(format!("/games/{id}/rematch"), "Rematch"))
            },
            _ => {},
        }
    }
}

#[allow(
    clippy::too_many_arguments,
    reason = "the parts of one page, each read once by render"
)]
fn page_body(
    page: &GamePage,
    position: &AnyGame,
    shown: usize,
    form: Option<&Control>,
    pass: Option<&Result<Checked, PassRefused>>,
    note: Option<&Note>,
    session: Option<&SignedIn>,
    panel: Option<&conditional_panel::Panel>,
    reader: Reader,
) -> Markup {
    let view = &page.view;
    let id = view.id;
    let total = page.moves.moves.len();
    // The moves since the seat to move last moved, each in its mover's colour.
    let before = page.moves.moves.get(..shown).unwrap_or_default();
    let mut marked: Vec<(u8, String)> =
        turnpost_shared::render::moves_to_mark(before, position.seat_count())
            .iter()
            .map(|mv| (mv.seat, mv.notation.clone()))
            .collect();
    // While an answer is prepared, the board shows the position after the opponent's move
    // chosen, that move marked: the answer is tapped on it.
    let position = match panel.and_then(conditional_panel::Panel::hypothetical) {
        Some((after, theirs)) => {
            marked = view
                .to_move
                .map(|seat| vec![(seat, theirs.to_owned())])
                .unwrap_or_default();
            after
        }
        None => position,
    };
    let board_view = board::view_with_moves(position, &marked);
    let title = if shown == total {
        let moves = if shown == 1 { "move" } else { "moves" };
        format!(
            "{} #{id}: the board after {shown} {moves}",
            view.kind.title()
        )
    } else {
        format!(
            "{} #{id}: the board after move {shown} of {total}",
            view.kind.title()
        )
    };
    let url = |ply: usize| format!("/games/{id}?ply={ply}");
    let departed = &view.departed;
    // The viewer's own seat (play link or signed in): only its row says "you".
    let own_seat = view.your_seat;
    html! {
        h1 { (view.kind.title()) " #" (id) }
        @if let Some(Note::Notice(text)) = note { p.notice role="status" { (text) } }
        @let played = note.and_then(|note| played_by(page, note, form));
        @if let Some(played) = &played { p.notice.played role="status" { (played) } }
        @if let Some(Err(refused)) = pass { p.notice { (refused.message()) } }
        // What the page's script says when the game changes while the page is open.
        div #live-news aria-live="polite" {}
        // The part of the page the script swaps for a newer copy when the game changes (the
        // notices above stay: they answer what this browser did). Not indented, to keep the
        // history of the lines inside readable.
        div #live-region data-live="game" data-game=(id) data-ply=(total)
            data-version=(live_version(page)) data-stream=[live_stream(view)] {
        // Said once: the confirmation of the move that brought the answer says it already.
        @if let Some(prepared) = prepared_notice(view, &page.moves.moves).filter(|_| played.is_none()) { p.notice.prepared role="status" { (prepared) } }
        p.state { (state_line(view)) }
        @if let Some(control) = form {
            p.you { "In this browser you play " (player(view, u8::try_from(control.seat).unwrap_or(0))) "'s seat." }
        }
        @if let Some(signed_in) = session { (session_actions(view, signed_in)) }
        div.game {
            div.board-col {
                // Focusable so that a board wider than the screen scrolls from the keyboard too;
                // turned for a player whose pieces start at the top (issue 47).
                figure.board tabindex="0" { (board::svg(&board_view, &title, board::Turn::for_seat(&page.start, own_seat))) }
                nav.plies aria-label="Positions" {
                    @if shown > 0 {
                        a rel="first" href=(url(0)) { "« Start" }
                        a rel="prev" href=(url(shown - 1)) { "← Previous" }
                    } @else {
                        span.off { "« Start" } span.off { "← Previous" }
                    }
                    span.at { "Move " (shown) " of " (total) }
                    @if shown < total {
                        a rel="next" href=(url(shown + 1)) { "Next →" }
                        a rel="last" href={ "/games/" (id) } { "Latest »" }
                    } @else {
                        span.off { "Next →" } span.off { "Latest »" }
                    }
                }
                (board::text(&board_view))
                @if let Some(control) = form {
                    (play_controls(view, position, &board_view, control, note, panel))
                }
            }
            div.info-col {
                h2 { "Players" }
                div.scroll tabindex="0" { table.players {
                    thead { tr { th { "Seat" } th { "Player" } th { "Goal" } } }
                    tbody {
                        @for seat in &view.seats {
                            @let colour = Seat::new(seat.seat).map(|s| position.seat_colour(s));
                            tr.to-move[view.to_move == Some(seat.seat)] {
                                td { span class={ "swatch " (colour.map_or("", board::colour_class)) } {} " " (seat.seat_name)
                                     @if view.to_move == Some(seat.seat) { " — to move" }
                                     @if departed.contains(&seat.seat) { " — left" } }
                                td { @if seat.open { "open seat" } @else { a href={ "/players/" (seat.player) } { (seat.player) } }
                                     @if seat.engine { " (engine)" }
                                     @if let Some(rating) = seat.rating { " (" (rating) ")" }
                                     @if let Some(bot) = &seat.played_by { " — played on by " a href={ "/players/" (bot) } { (bot) } }
                                     @if let Some(bank) = seat.bank_seconds { " (" (duration(bank)) " left)" } }
                                td { (goal_line(position, seat.seat, own_seat)) }
                            }
                        }
                    }
                } }
                dl.facts {
                    @if let Some(clock) = &view.clock { dt { "Clock" } dd { (clock) " (" (view.timeout.to_string()) " on timeout)" } }
                    @if let Some(deadline) = &view.deadline { dt { "Deadline" } dd { (time_text::time(deadline, reader)) } }
                    @if let Some(seat) = view.draw_offered_by { dt { "Draw" } dd { (player(view, seat)) " offers a draw" } }
                    dt { "Started" } dd { @if let Some(started) = &view.started_at { (time_text::time(started, reader)) } @else { "not yet" } }
                    @if let Some(finished) = &view.finished_at { dt { "Finished" } dd { (time_text::time(finished, reader)) } }
                }
                h2 { "Moves" }
                @if page.moves.moves.is_empty() {
                    p { "No moves yet." }
                } @else {
                    @let listed = listed_moves(total, shown);
                    @if listed.start > 0 {
                        p.more { a href=(url(listed.start)) { "← Earlier moves (1 to " (listed.start) ")" } }
                    }
                    ol.moves start=(listed.start + 1) {
                        @for (i, mv) in page.moves.moves.iter().enumerate().skip(listed.start).take(listed.len()) {
                            li {
                                a href=(url(i + 1)) aria-current=[(i + 1 == shown).then_some("step")] { (mv.notation) }
                                " " span.by { (player(view, mv.seat)) }
                                @if mv.prepared {
                                    " " small.prepared { abbr title={ (player(view, mv.seat)) "'s prepared answer, played by the server the moment the move before it came" } { "prepared" } }
                                }
                            }
                        }
                    }
                    @if listed.end < total {
                        p.more { a href=(url(listed.end + 1)) { "Later moves (" (listed.end + 1) " to " (total) ") →" } }
                    }
                }
                @if !page.moves.messages.is_empty() {
                    (messages_section(page, form))
                }
                p.links {
                    a href={ "/games/" (id) "/record" } download { "Download the record (text)" }
                    " · " a href={ "/rules/" (view.kind.name()) } { "The rules of " (view.kind.title()) }
                }
            }
        }
        }
    }
}

/// How many moves the page lists: a long game's page stays small (the other moves are a link
/// away, and in the record).
const LISTED_MOVES: usize = 200;

/// The moves listed (0-based indexes) with the position after move `shown` of `total`: up to
/// [`LISTED_MOVES`] around it, the last ones for the latest position.
fn listed_moves(total: usize, shown: usize) -> std::ops::Range<usize> {
    let end = (shown + LISTED_MOVES / 2).max(LISTED_MOVES).min(total);
    end.saturating_sub(LISTED_MOVES)..end
}

/// What the page shows of the game's state, as one string: the page's script swaps in a newer
/// copy only when it differs, so an answer shown by the move field (a refused move) stays
/// until the game really changes.
fn live_version(page: &GamePage) -> String {
    let view = &page.view;
    let seats: Vec<String> = view
        .seats
        .iter()
        .map(|s| format!("{}:{}:{}:{:?}", s.player, s.accepted, s.open, s.played_by))
        .collect();
    format!(
        "{}|{}|{:?}|{:?}|{}|{:?}|{}",
        page.moves.moves.len(),
        view.status,
        view.to_move,
        view.draw_offered_by,
        seats.join(","),
        view.departed,
        page.moves.messages.len()
    )
}

/// The game's live stream, for a page whose game can still change (a challenge or a game
/// being played).
fn live_stream(view: &GameView) -> Option<String> {
    matches!(view.status, GameStatus::Invited | GameStatus::Active)
        .then(|| format!("/v1/games/{}/stream", view.id))
}

/// The field for a word with an action (issue 28): labelled with what it goes with (`with`:
/// "your move", so that a page's fields read apart, issue 47), at most 500 characters; `id`
/// tells the fields of one page apart.
#[must_use]
pub fn message_input(id: &str, with: &str) -> Markup {
    html! {
        label for=(id) { "A message with " (with) " (optional)" }
        textarea id=(id) name="message" rows="2" maxlength=(turnpost_shared::play::MAX_MESSAGE_CHARS) {}
    }
}

/// The players' messages (shown only to the game's players: `page` holds none for anyone
/// else), as plain text: maud escapes it and no link is made of it; and, for the seat this
/// browser plays, the buttons to mute or unmute them.
fn messages_section(page: &GamePage, form: Option<&Control>) -> Markup {
    let id = page.view.id;
    let own = form.and_then(|control| u8::try_from(control.seat).ok());
    // Like the other forms, only for a seat still playing (a departed seat's link acts no more).
    let form = form.filter(|_| {
        page.view.status == GameStatus::Active
            && own.is_some_and(|s| !page.view.departed.contains(&s))
    });
    let others: Vec<&str> = page
        .view
        .seats
        .iter()
        .filter(|seat| Some(seat.seat) != own && !seat.open)
        .map(|seat| seat.player.as_str())
        .collect();
    html! {
        h2 { "Messages" }
        @if page.moves.messages.is_empty() {
            p { "No messages to show." }
        } @else {
            ul.messages {
                @for message in &page.moves.messages {
                    li {
                        span.by { (message.player) }
                        @match message.action {
                            turnpost_shared::api::MessageAction::Move => { ", with move " (message.ply + 1) ": " },
                            other => { ", with their " (other.describe()) ": " },
                        }
                        span.text style="white-space:pre-wrap" { (message.text) }
                    }
                }
            }
        }
        @if let Some(control) = form {
            form.mute method="post" action={ "/games/" (id) "/mute" } {
                input type="hidden" name="csrf" value=(control.csrf);
                button type="submit" name="action" value="mute-game" { "Mute this game's messages" }
                " "
                button type="submit" name="action" value="unmute-game" { "Show this game's messages" }
                @for name in &others {
                    " "
                    button type="submit" name="player" value=(name) { "Mute or unmute " (name) }
                }
            }
        }
    }
}

/// The confirmation of a move this browser's seat played: "You played F3-E4 (move 4).", and
/// the opponent's prepared answers it brought at once: "You played H18-H17 (move 10). bert's
/// prepared answer D3-D4 was played."
fn played_by(page: &GamePage, note: &Note, form: Option<&Control>) -> Option<String> {
    let Note::Played(number) = note else {
        return None;
    };
    // A reload after the game moved on must not keep "You played …" on top (issue 47); the
    // answers played in the move's own transaction (and the passes between them) are not the
    // game moving on.
    let after = page.moves.moves.get(*number..)?;
    let answered =
        after.iter().any(|mv| mv.prepared) && after.iter().all(|mv| mv.prepared || mv.automatic);
    if !after.is_empty() && !answered {
        return None;
    }
    let mv = page.moves.moves.get(number.checked_sub(1)?)?;
    let seat = i32::from(mv.seat);
    if form?.seat != seat {
        return None;
    }
    let mut said = format!("You played {} (move {number}).", mv.notation);
    for answer in after.iter().filter(|mv| mv.prepared) {
        said.push_str(&format!(
            " {}'s prepared answer {} was played.",
            player(&page.view, answer.seat),
            answer.notation
        ));
    }
    Some(said)
}

/// While the newest move a player made is a prepared answer (played by the server from their
/// conditional moves), what every reader of the page is told: "bert's prepared answer D3-D4
/// was played (move 11)." ("Your prepared answer …" on its own player's page).
fn prepared_notice(view: &GameView, moves: &[turnpost_shared::api::MoveView]) -> Option<String> {
    let mv = moves.iter().rev().find(|mv| !mv.automatic)?;
    if !mv.prepared {
        return None;
    }
    let whose = if view.your_seat == Some(mv.seat) {
        "Your".to_owned()
    } else {
        format!("{}'s", player(view, mv.seat))
    };
    Some(format!(
        "{whose} prepared answer {} was played (move {}).",
        mv.notation,
        mv.ply + 1
    ))
}

/// The move form and the other actions of the seat this browser plays.
fn play_controls(
    view: &GameView,
    position: &AnyGame,
    board_view: &turnpost_shared::render::BoardView,
    control: &Control,
    note: Option<&Note>,
    panel: Option<&conditional_panel::Panel>,
) -> Markup {
    let id = view.id;
    let csrf = control.csrf.as_str();
    let own = u8::try_from(control.seat).unwrap_or(0);
    let active = view.status == GameStatus::Active && !view.departed.contains(&own);
    let your_turn = active && view.to_move == Some(own);
    let legal = if your_turn {
        position.legal_moves()
    } else {
        Vec::new()
    };
    let legal_json = board::legal_moves_json(position, board_view, &legal);
    let (entered, reason) = match note {
        Some(Note::Refused { entered, reason }) => (Some(entered.as_str()), Some(reason.as_str())),
        _ => (None, None),
    };
    html! {
        @if your_turn {
            form #move-form method="post" action={ "/games/" (id) "/move" } {
                input type="hidden" name="csrf" value=(csrf);
                input type="hidden" name="ply" value=(view.ply);
                label for="move" { "Your move" }
                div.move-row {
                    input #move type="text" name="move" list="legal-list" autocomplete="off"
                        autocapitalize="characters" spellcheck="false" required
                        value=[entered] aria-invalid=[reason.map(|_| "true")]
                        aria-describedby="move-help";
                    button #play type="submit" { "Play" }
                    button #clear-pick type="button" hidden { "Clear" }
                }
                @if view.seats.len() == 2 {
                    fieldset.conditional {
                        legend { "After my move (optional): a conditional move" }
                        label for="if-theirs" { "if they play" }
                        " "
                        input #if-theirs type="text" name="if_theirs" autocomplete="off"
                            autocapitalize="characters" spellcheck="false";
                        " "
                        label for="if-mine" { "I play" }
                        " "
                        input #if-mine type="text" name="if_mine" autocomplete="off"
                            autocapitalize="characters" spellcheck="false";
                    }
                }
                (message_input("move-message", "your move"))
                @if let Some(reason) = reason { p #move-error .error role="alert" { (reason) } }
                p #move-help aria-live="polite" {
                    (legal.len()) " legal moves. Type one, or tap the cells of your move on the board."
                }
                div #move-choices role="group" aria-labelledby="move-help" hidden {}
                datalist #legal-list { @for mv in &legal { option value=(mv) {} } }
            }
            script #legal-moves type="application/json" { (PreEscaped(legal_json)) }
        } @else if active {
            p { "It is not your turn; this page shows the form when it is." }
            @if let Some(panel) = panel {
                @let opponent = view.to_move.map_or_else(|| "they".to_owned(), |seat| player(view, seat));
                (conditional_panel::panel(panel, view, position, board_view, &opponent))
            }
        }
        @if active {
            div.actions {
                @match view.draw_offered_by {
                    None => form method="post" action={ "/games/" (id) "/draw" } {
                        input type="hidden" name="csrf" value=(csrf);
                        (message_input("draw-message", "your draw offer"))
                        button type="submit" name="action" value="offer" { "Offer a draw" }
                    },
                    Some(by) if by != own => form method="post" action={ "/games/" (id) "/draw" } {
                        input type="hidden" name="csrf" value=(csrf);
                        (message_input("draw-message", "your answer"))
                        button type="submit" name="action" value="accept" { "Accept the draw" }
                        " "
                        button type="submit" name="action" value="decline" { "Decline the draw" }
                    },
                    Some(_) => p { "You offered a draw." },
                }
                a.resign href={ "/games/" (id) "/resign" } { "Resign…" }
            }
        }
    }
}

/// `GET /games/{id}/record`: the record as a text file.
///
/// # Errors
/// 404 unknown game; storage failures.
pub async fn record(state: web::Data<AppState>, path: web::Path<String>) -> WebAnswer {
    let id = game_id(&path)?;
    let record =
        crate::http::blocking::with_conn(&state, move |conn| Ok(reads::record(conn, id)?)).await?;
    Ok(HttpResponse::Ok()
        .content_type("text/plain; charset=utf-8")
        .insert_header((
            "Content-Disposition",
            format!("attachment; filename=\"turnpost-game-{id}.txt\""),
        ))
        .body(record.to_text()))
}
