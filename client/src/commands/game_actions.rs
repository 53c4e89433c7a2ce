//! Commands that act on one game and print it afterwards: show, accept, decline, resign, draw.

use std::io::{BufRead, IsTerminal, Write};

use clap::ValueEnum;
use turnpost_shared::{DrawAction, DrawRequest, GameView};

use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json};
use crate::session::Session;

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
    print_game(&game, json)
}

/// What to do to a game with no further arguments.
#[derive(Clone, Copy, Debug)]
pub enum Action {
    Accept,
    Decline,
    Resign,
}

/// Runs `turnpost accept|decline|resign ID`.
///
/// # Errors
/// Refusals and network failures.
pub fn act(action: Action, id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let verb = match action {
        Action::Accept => "accept",
        Action::Decline => "decline",
        Action::Resign => "resign",
    };
    let game: GameView = session.client.post_empty(&format!("/games/{id}/{verb}"))?;
    print_game(&game, json)
}

/// Runs `turnpost resign ID`: on a terminal, only after the player confirms (or with `--yes`).
///
/// # Errors
/// A refusal when the player does not confirm; refusals and network failures.
pub fn resign(id: i64, yes: bool, profile: Option<&str>, json: bool) -> Result<(), Failure> {
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
    act(Action::Resign, id, profile, json)
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
pub fn draw(choice: DrawChoice, id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let action = match choice {
        DrawChoice::Offer => DrawAction::Offer,
        DrawChoice::Accept => DrawAction::Accept,
        DrawChoice::Decline => DrawAction::Decline,
    };
    let game: GameView = session
        .client
        .post(&format!("/games/{id}/draw"), &DrawRequest { action })?;
    print_game(&game, json)
}
