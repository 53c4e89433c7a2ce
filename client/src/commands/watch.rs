//! `turnpost watch [ID]`: the live events of the account's games, or of one game, one line
//! each as they happen (`--json`: the server's JSON object, one a line).

use std::collections::HashMap;

use clap::Args;
use turnpost_shared::api::{GameView, StreamEvent, StreamEventType};
use turnpost_shared::play::GameStatus;

use crate::event_stream::{EventStream, Received, StreamScope};
use crate::failure::Failure;
use crate::game_display::result_words;
use crate::interrupt::exit_quietly_on_interrupt;
use crate::output::print;
use crate::session::Session;
use crate::terminal_text::escape_controls;

/// The help below the options of `turnpost watch`.
pub const AFTER_HELP: &str = "\
Examples:
  turnpost watch                 everything that happens in your games
  turnpost watch 12 --json       game 12's events, one JSON object a line (NDJSON)

A line for people reads `#12 kefren: anna played A2-A3 — your turn`. With --json each line is
the server's event object unchanged: id, type (challenge, accepted, started, declined, move,
draw_offer, left, game_over, lapsed), game, kind, ply, status, to_move, to_move_name, by, seat,
last_move, prepared (true when the server played last_move from by's conditional moves), result,
reason, at, and for_you (`turn` when it is now your move).

A dropped connection is resumed from the last event seen, so no event is lost or printed twice
(it says \"reconnecting…\" on stderr, and tries again after 1 s, 2 s, … up to every 10 s). When
the server no longer keeps the events missed meanwhile, it says so on stderr and goes on.

Exit codes:
  0  ended by Ctrl-C, or (with ID) the game is over
  1  refused: no such game, not signed in, too many streams open
  2  usage or configuration error (no profile)
  3  the server cannot be reached at first, has no event streams, or sent something else";

/// Print the live events of your games, or of one game, as they happen.
#[derive(Args, Debug)]
pub struct WatchArgs {
    /// Only this game's events (anyone may watch a game; ends when the game is over).
    pub id: Option<i64>,
}

/// Runs `turnpost watch`: prints each event as it comes until Ctrl-C (or, for one game, its
/// end), reconnecting after a drop without losing an event.
///
/// # Errors
/// Refusals (unknown game, exit 1); network failures at the first connection or a server
/// without streams (exit 3); output errors.
pub fn run(args: &WatchArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    exit_quietly_on_interrupt();
    let scope = match args.id {
        Some(id) => StreamScope::Game(id),
        None => StreamScope::Account,
    };
    let stream = EventStream::open(&session.client, scope)?;
    let mut words = EventWords::default();
    let mut dropped = false;
    loop {
        let Some(received) = stream.next(None) else {
            continue;
        };
        match received {
            Received::Connected { gap } => {
                if gap {
                    eprintln!(
                        "turnpost: reconnected, but the server no longer keeps the events since \
                         the connection dropped: some may be missing (`turnpost games` and \
                         `turnpost show ID` show where things stand)"
                    );
                } else if dropped {
                    eprintln!("turnpost: reconnected");
                }
                dropped = false;
            }
            Received::Event(event) => {
                let line = if json {
                    event.line.clone()
                } else {
                    match &event.event {
                        Some(known) => words.line(known, &session),
                        None => unknown_line(&event.line),
                    }
                };
                print(&format!("{line}\n"))?;
                let over = event.event.as_ref().is_some_and(|known| {
                    matches!(known.status, GameStatus::Finished | GameStatus::Cancelled)
                });
                if args.id.is_some() && over {
                    return Ok(());
                }
            }
            Received::Dropped { reason, retry_in } => {
                dropped = true;
                eprintln!(
                    "turnpost: {reason}; reconnecting… (in {} s)",
                    retry_in.as_secs().max(1)
                );
            }
            Received::Ended { failure, .. } => return Err(failure),
        }
    }
}

/// An event of a type this client does not know, for people: its game and type.
fn unknown_line(line: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    let text = |key: &str| {
        value
            .get(key)
            .map(|field| match field {
                serde_json::Value::String(text) => escape_controls(text, false),
                other => other.to_string(),
            })
            .unwrap_or_else(|| "?".to_string())
    };
    format!("#{}: {}", text("game"), text("type"))
}

/// Puts events into words, remembering who was to move in each game (the event of a move
/// does not name its player: the one to move before it did).
#[derive(Default)]
struct EventWords {
    /// Per game: the ply and the name of the player to move at it.
    to_move: HashMap<i64, (i32, String)>,
}

impl EventWords {
    /// One event in words: `#12 kefren: anna played A2-A3 — your turn`.
    fn line(&mut self, event: &StreamEvent, session: &Session) -> String {
        let name = |text: &Option<String>| {
            text.as_deref().map_or_else(
                || "someone".to_string(),
                |text| escape_controls(text, false),
            )
        };
        let by = name(&event.by);
        let mover = self
            .to_move
            .get(&event.game)
            .filter(|(ply, _)| *ply + 1 == event.ply)
            .map(|(_, name)| name.clone());
        let played = |mv: &str| match &mover {
            // A prepared answer comes in the same moment as the move before it: `by` names
            // its player (the mover remembered is the one before).
            _ if event.prepared => format!("{by} played {mv} (prepared answer)"),
            Some(mover) => format!("{mover} played {mv}"),
            None => format!("{mv} played"),
        };
        let what = match event.event {
            StreamEventType::Challenge if event.for_you.as_deref() == Some("challenges") => {
                format!("{by} challenges you")
            }
            StreamEventType::Challenge => format!("challenge by {by}"),
            StreamEventType::Accepted => format!("{by} accepted"),
            StreamEventType::Started => "the game started".to_string(),
            StreamEventType::Declined => format!("{by} declined: the challenge is cancelled"),
            StreamEventType::Move => match &event.last_move {
                Some(mv) => played(&escape_controls(mv, false)),
                None => format!("move {}", event.ply),
            },
            StreamEventType::DrawOffer => format!("{by} offers a draw"),
            StreamEventType::DrawDeclined => format!("{by} declined the draw offer"),
            StreamEventType::Left => {
                let seat = event
                    .seat
                    .map_or_else(|| "a player".to_string(), |seat| format!("seat {seat}"));
                match &event.by {
                    Some(_) => format!("{seat} left; {by} plays on"),
                    None => format!("{seat} left"),
                }
            }
            StreamEventType::GameOver => {
                let over = format!("game over: {}", self.result(event, session));
                match &event.last_move {
                    Some(mv) => format!("{}; {over}", played(&escape_controls(mv, false))),
                    None => over,
                }
            }
            StreamEventType::Lapsed => "the open challenge lapsed".to_string(),
        };
        let next = match (&event.status, &event.to_move_name) {
            (GameStatus::Active, _) if event.for_you.as_deref() == Some("turn") => {
                " — your turn".to_string()
            }
            (GameStatus::Active, Some(next)) => {
                format!(" — {} to move", escape_controls(next, false))
            }
            _ => String::new(),
        };
        match (&event.status, &event.to_move_name) {
            (GameStatus::Active, Some(next)) => {
                self.to_move.insert(event.game, (event.ply, next.clone()));
            }
            _ => {
                self.to_move.remove(&event.game);
            }
        }
        let mut line = format!("#{} {}: {what}{next}", event.game, event.kind);
        // A message stays on its own indented line, quoted, so it cannot pass for an event.
        for message in &event.messages {
            line.push_str(&format!(
                "\n    {} wrote: \"{}\"",
                escape_controls(&message.player, false),
                escape_controls(&message.text, false)
            ));
        }
        line
    }

    /// A game's result in words, its players named (asked of the API; by seat when it does
    /// not answer).
    fn result(&self, event: &StreamEvent, session: &Session) -> String {
        let game = session
            .client
            .get::<GameView>(&format!("/games/{}", event.game));
        match game {
            Ok(game) => result_words(game.result.as_ref(), game.result_reason, &game.seats),
            Err(_) => {
                let result = event.result.as_deref().and_then(|text| text.parse().ok());
                result_words(result.as_ref(), event.reason, &[])
            }
        }
    }
}
