use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::Args;
use turnpost_shared::api::{GameSummary, GameView};

use crate::clock_display::parse_time;
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

/// The most urgent game waiting for your move, if any: see [`most_urgent`].
///
/// # Errors
/// Refusals and network failures.
pub fn next_game(session: &Session) -> Result<Option<GameView>, Failure> {
    let games = fetch(
        session,
        Some(turnpost_shared::play::GameStatus::Active),
        true,
        100,
    )?;
    match most_urgent(&games) {
        Some(summary) => Ok(Some(session.client.get(&format!("/games/{}", summary.id))?)),
        None => Ok(None),
    }
}

/// Of games listed newest activity first, the one with the nearest deadline; among equal
/// deadlines (or none) the one waiting longest, which is the later in the list.
pub fn most_urgent(games: &[GameSummary]) -> Option<&GameSummary> {
    games
        .iter()
        .enumerate()
        .min_by_key(|(index, game)| {
            let deadline = game.deadline.as_deref().and_then(parse_time);
            (deadline.is_none(), deadline, std::cmp::Reverse(*index))
        })
        .map(|(_, game)| game)
}

/// Runs `turnpost next`: shows the game waiting for your move whose deadline is nearest (then
/// the one waiting longest).
///
/// # Errors
/// Exit 1 when no game waits for you; refusals and network failures.
pub fn next(profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    match next_game(&session)? {
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
    let mut session = Session::open(profile)?;
    let started = Instant::now();
    // The limit bounds the whole wait, requests included: a server that hangs cannot hold it.
    let deadline = args
        .timeout
        .map(|limit| started + Duration::from_secs(limit));
    if let Some(deadline) = deadline {
        session.client.set_deadline(deadline);
    }
    let timed_out = || {
        Failure::refused(format!(
            "still not your move after {} s",
            args.timeout.unwrap_or_default()
        ))
    };
    let spinner = std::io::stderr().is_terminal();
    let clear_spinner = || {
        if spinner {
            eprint!("\r\x1b[K");
        }
    };
    let mut delay = Duration::from_millis(250);
    let mut frame = 0;
    loop {
        let ready = match args.game {
            Some(id) => session
                .client
                .get::<GameView>(&format!("/games/{id}"))
                .map(|game| {
                    (game.your_turn
                        || matches!(
                            game.status,
                            turnpost_shared::play::GameStatus::Finished
                                | turnpost_shared::play::GameStatus::Cancelled
                        ))
                    .then_some(game)
                }),
            None => next_game(&session),
        };
        let past = deadline.is_some_and(|deadline| Instant::now() >= deadline);
        let ready = match ready {
            Err(_) if past => {
                clear_spinner();
                return Err(timed_out());
            }
            other => other?,
        };
        if let Some(game) = ready {
            clear_spinner();
            return print_game(&game, json);
        }
        if past {
            clear_spinner();
            return Err(timed_out());
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
        let pause = match deadline {
            Some(deadline) => delay.min(deadline.saturating_duration_since(Instant::now())),
            None => delay,
        };
        std::thread::sleep(pause);
        delay = (delay * 2).min(Duration::from_secs(10));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: i64, deadline: Option<&str>) -> GameSummary {
        GameSummary {
            id,
            kind: turnpost_shared::GameKind::Kefren,
            status: turnpost_shared::play::GameStatus::Active,
            seats: Vec::new(),
            ply: 0,
            to_move: Some(1),
            your_turn: true,
            deadline: deadline.map(str::to_string),
            result: None,
            last_activity_at: "2026-11-22T00:00:00Z".into(),
            departed: Vec::new(),
            placings: None,
            challenger: None,
        }
    }

    #[test]
    fn the_nearest_deadline_comes_first_then_the_longest_wait() {
        let games = [
            summary(1, Some("2026-11-25T00:00:00Z")),
            summary(2, Some("2026-11-23T00:00:00Z")),
            summary(3, None),
            summary(4, Some("2026-11-23T00:00:00Z")),
        ];
        // 2 and 4 share the nearest deadline; 4 is later in the list, so it waited longer.
        assert_eq!(most_urgent(&games).map(|g| g.id), Some(4));
        let undated = [summary(5, None), summary(6, None)];
        assert_eq!(most_urgent(&undated).map(|g| g.id), Some(6));
        assert_eq!(most_urgent(&[]).map(|g| g.id), None);
    }
}
