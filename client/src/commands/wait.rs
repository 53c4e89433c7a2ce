use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::Args;
use turnpost_shared::GameView;

use crate::commands::game_actions::print_game;
use crate::commands::list::fetch;
use crate::failure::Failure;
use crate::session::Session;

/// Wait until it is your move (in one game or any), then show that game. With a finished
/// game it returns at once.
#[derive(Args, Debug)]
pub struct WaitArgs {
    /// Wait for this game only.
    #[arg(long)]
    pub game: Option<i64>,
    /// Give up after this many seconds (exit 1); default: wait for ever.
    #[arg(long)]
    pub timeout: Option<u64>,
}

/// The game waiting longest for your move, if any.
///
/// # Errors
/// Refusals and network failures.
pub fn longest_waiting(session: &Session) -> Result<Option<GameView>, Failure> {
    let games = fetch(session, Some("active"), true, 100)?;
    // The list is newest activity first: the last one has waited longest.
    match games.last() {
        Some(summary) => Ok(Some(session.client.get(&format!("/games/{}", summary.id))?)),
        None => Ok(None),
    }
}

/// Runs `turnpost next`: shows the game waiting longest for your move.
///
/// # Errors
/// Exit 1 when no game waits for you; refusals and network failures.
pub fn next(profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    match longest_waiting(&session)? {
        Some(game) => print_game(&game, json),
        None => Err(Failure::refused("no game is waiting for your move")),
    }
}

/// Runs `turnpost wait`: polls with back-off (from 0.25 s, doubling up to 10 s); a spinner on a
/// terminal.
///
/// # Errors
/// Exit 1 on timeout; refusals and network failures.
pub fn run(args: WaitArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let started = Instant::now();
    let spinner = std::io::stderr().is_terminal();
    let mut delay = Duration::from_millis(250);
    let mut frame = 0;
    loop {
        let ready = match args.game {
            Some(id) => {
                let game: GameView = session.client.get(&format!("/games/{id}"))?;
                (game.your_turn || game.status == "finished" || game.status == "cancelled")
                    .then_some(game)
            }
            None => longest_waiting(&session)?,
        };
        if let Some(game) = ready {
            if spinner {
                eprint!("\r\x1b[K");
            }
            return print_game(&game, json);
        }
        if let Some(limit) = args.timeout {
            if started.elapsed() >= Duration::from_secs(limit) {
                if spinner {
                    eprint!("\r\x1b[K");
                }
                return Err(Failure::refused(format!(
                    "still not your move after {limit} s"
                )));
            }
        }
        if spinner {
            let frames = ['|', '/', '-', '\\'];
            eprint!(
                "\r{} waiting for your move ({} s)",
                frames.get(frame % frames.len()).copied().unwrap_or('|'),
                started.elapsed().as_secs()
            );
            let _ = std::io::stderr().flush();
            frame += 1;
        }
        std::thread::sleep(delay);
        delay = (delay * 2).min(Duration::from_secs(10));
    }
}
