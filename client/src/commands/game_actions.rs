//! Commands that act on one game and print it afterwards: show, accept, decline, resign, draw.

use std::io::{BufRead, IsTerminal, Write};

use clap::ValueEnum;
use turnpost_shared::api::{
    ActionMessage, DrawAction, DrawRequest, GameView, MessageAction, MessageView, MoveList,
};

use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json, print_json_with};
use crate::session::Session;
use crate::terminal_text::escape_controls;

/// Prints a game for people or scripts.
///
/// # Errors
/// Output errors.
pub fn print_game(game: &GameView, json: bool) -> Result<(), Failure> {
    if json {
        Ok(print_json("game", game)?)
    } else {
        Ok(print(&describe(game))?)
    }
}

/// Runs `turnpost show ID`.
///
/// # Errors
/// Refusals (unknown game) and network failures.
pub fn show(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let game: GameView = session.client.get(&format!("/games/{id}"))?;
    // The players' messages come with the move list, for the game's players only.
    let messages = if game.your_seat.is_some() {
        session
            .client
            .get::<MoveList>(&format!("/games/{id}/moves"))?
            .messages
    } else {
        Vec::new()
    };
    if json {
        return Ok(print_json_with("game", &game, "messages", &messages)?);
    }
    print(&describe(&game))?;
    Ok(print(&messages_text(&messages))?)
}

/// The messages for people: "Messages:" and one line each, "bob (move 7): good luck";
/// nothing without any. Control characters are shown escaped (the server drops them anyway).
fn messages_text(messages: &[MessageView]) -> String {
    if messages.is_empty() {
        return String::new();
    }
    let mut text = String::from("\nMessages:\n");
    for message in messages {
        let with = match message.action {
            MessageAction::Move => format!("move {}", message.ply + 1),
            other => other.describe().to_owned(),
        };
        let body = escape_controls(&message.text, true).replace('\n', "\n    ");
        text.push_str(&format!(
            "  {} ({with}): {body}\n",
            escape_controls(&message.player, false)
        ));
    }
    text
}

/// What to do to a game with no further arguments.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    Accept,
    Decline,
    Resign,
}

/// Runs `turnpost accept|decline|resign ID`, with a `message` for the other players (accept
/// and resign).
///
/// # Errors
/// Refusals and network failures.
pub fn act(
    action: Action,
    id: i64,
    message: Option<&str>,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let verb = match action {
        Action::Accept => "accept",
        Action::Decline => "decline",
        Action::Resign => "resign",
    };
    let path = format!("/games/{id}/{verb}");
    let game: GameView = match message {
        Some(message) => session.client.post(
            &path,
            &ActionMessage {
                message: Some(message.to_owned()),
            },
        )?,
        None => session.client.post_empty(&path)?,
    };
    print_game(&game, json)
}

/// Runs `turnpost resign ID`: on a terminal, only after the player confirms (or with `--yes`).
///
/// # Errors
/// A refusal when the player does not confirm; refusals and network failures.
pub fn resign(
    id: i64,
    yes: bool,
    message: Option<&str>,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let stdin = std::io::stdin();
    if !yes && stdin.is_terminal() {
        let session = Session::open(profile)?;
        let game: GameView = session.client.get(&format!("/games/{id}"))?;
        let opponents: Vec<&str> = game
            .seats
            .iter()
            .filter(|seat| Some(seat.seat) != game.your_seat)
            .map(|seat| seat.player.as_str())
            .collect();
        eprint!(
            "Resign {} #{} against {}? You lose the game. [y/N] ",
            game.kind,
            game.id,
            opponents.join(", ")
        );
        std::io::stderr().flush()?;
        let mut answer = String::new();
        stdin.lock().read_line(&mut answer)?;
        if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
            return Err(Failure::refused(format!(
                "not resigned: game #{id} goes on"
            )));
        }
    }
    act(Action::Resign, id, message, profile, json)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum DrawChoice {
    Offer,
    Accept,
    Decline,
}

/// Runs `turnpost draw offer|accept|decline ID`.
///
/// # Errors
/// Refusals and network failures.
pub fn draw(
    choice: DrawChoice,
    id: i64,
    message: Option<&str>,
    profile: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let action = match choice {
        DrawChoice::Offer => DrawAction::Offer,
        DrawChoice::Accept => DrawAction::Accept,
        DrawChoice::Decline => DrawAction::Decline,
    };
    let game: GameView = session.client.post(
        &format!("/games/{id}/draw"),
        &DrawRequest {
            action,
            message: message.map(str::to_owned),
        },
    )?;
    print_game(&game, json)
}
