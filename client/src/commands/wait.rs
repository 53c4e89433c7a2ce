use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use clap::Args;
use turnpost_shared::api::{GameSummary, GameView, StreamEventType};

use crate::clock_display::parse_time;
use crate::commands::game_actions::print_game;
use crate::commands::list::fetch;
use crate::event_stream::{Event, EventStream, Received, StreamScope};
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

/// What `wait` is waiting for, and until when.
struct Waiting {
    game: Option<i64>,
    timeout: Option<u64>,
    started: Instant,
    deadline: Option<Instant>,
    spinner: bool,
    frame: usize,
}

impl Waiting {
    fn timed_out(&self) -> Failure {
        Failure::refused(format!(
            "still not your move after {} s",
            self.timeout.unwrap_or_default()
        ))
    }

    fn past(&self) -> bool {
        self.deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
    }

    /// The game to show when the wait is over (your move in it, or for `--game` a game that
    /// ended), asked of the API: the stream only says when to ask.
    ///
    /// # Errors
    /// Refusals and network failures; past the deadline, the timeout.
    fn check(&self, session: &Session) -> Result<Option<GameView>, Failure> {
        let ready = match self.game {
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
            None => next_game(session),
        };
        match ready {
            Err(_) if self.past() => Err(self.timed_out()),
            other => other,
        }
    }

    /// Ends the wait: clears the spinner, then shows the game or says why not.
    fn end(&self, outcome: Result<GameView, Failure>, json: bool) -> Result<(), Failure> {
        if self.spinner {
            eprint!("\r\x1b[K");
        }
        print_game(&outcome?, json)
    }

    fn turn_spinner(&mut self) {
        if self.spinner {
            let frames = ['|', '/', '-', '\\'];
            eprint!(
                "\r{} waiting for your move ({} s)",
                frames
                    .get(self.frame % frames.len())
                    .copied()
                    .unwrap_or('|'),
                self.started.elapsed().as_secs()
            );
            let _ = std::io::stderr().flush();
            self.frame += 1;
        }
    }

    /// How long to wait for the stream before looking at the clock (deadline, spinner).
    fn pause(&self) -> Option<Duration> {
        let left = self
            .deadline
            .map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let tick = self.spinner.then_some(Duration::from_secs(1));
        match (left, tick) {
            (Some(left), Some(tick)) => Some(left.min(tick)),
            (left, tick) => left.or(tick),
        }
    }
}

/// Whether an event may have made the wait over, so that the game is asked for again. On the
/// account's stream: a move, a start or a departure (the turn may have passed to you; asked
/// even when the event is not marked for you: a muted game still counts). On one game's:
/// anything (its end counts too).
fn worth_checking(game: Option<i64>, event: &Event) -> bool {
    let Some(event) = &event.event else {
        // An event type this client does not know: asking once more costs little.
        return true;
    };
    game.is_some()
        || event.for_you.as_deref() == Some("turn")
        || matches!(
            event.event,
            StreamEventType::Move | StreamEventType::Started | StreamEventType::Left
        )
}

/// Runs `turnpost wait`: follows the live stream (of the game with `--game`, else of the
/// account) and asks the API for the game after each event that may end the wait, and after
/// each (re)connection; a spinner on a terminal. Against a server without streams (404), or
/// with all its streams taken (429), it polls with back-off (from 0.25 s, doubling up to 10 s).
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
    let mut waiting = Waiting {
        game: args.game,
        timeout: args.timeout,
        started,
        deadline,
        spinner: std::io::stderr().is_terminal(),
        frame: 0,
    };
    let scope = match args.game {
        Some(id) => StreamScope::Game(id),
        None => StreamScope::Account,
    };
    // The stream opens before the first look at the game, so that a move in between is
    // heard.
    let stream = EventStream::open(&session.client, scope)?;
    loop {
        let Some(received) = stream.next(waiting.pause()) else {
            if waiting.past() {
                return waiting.end(Err(waiting.timed_out()), json);
            }
            waiting.turn_spinner();
            continue;
        };
        let look = match received {
            // Events may have been missed while it was away: look whatever they were.
            Received::Connected { .. } => true,
            Received::Event(event) => worth_checking(args.game, &event),
            Received::Dropped { .. } => false,
            Received::Ended {
                no_stream: true, ..
            } => return poll(&session, &mut waiting, json),
            Received::Ended { failure, .. } => {
                let failure = if waiting.past() {
                    waiting.timed_out()
                } else {
                    failure
                };
                return waiting.end(Err(failure), json);
            }
        };
        if look {
            match waiting.check(&session) {
                Ok(Some(game)) => return waiting.end(Ok(game), json),
                Ok(None) => {}
                Err(failure) => return waiting.end(Err(failure), json),
            }
        }
        if waiting.past() {
            return waiting.end(Err(waiting.timed_out()), json);
        }
    }
}

/// `wait` without a stream: asks again and again, with back-off (from 0.25 s, doubling up to
/// 10 s).
///
/// # Errors
/// As [`run`].
fn poll(session: &Session, waiting: &mut Waiting, json: bool) -> Result<(), Failure> {
    let mut delay = Duration::from_millis(250);
    loop {
        match waiting.check(session) {
            Ok(Some(game)) => return waiting.end(Ok(game), json),
            Ok(None) => {}
            Err(failure) => return waiting.end(Err(failure), json),
        }
        if waiting.past() {
            return waiting.end(Err(waiting.timed_out()), json);
        }
        waiting.turn_spinner();
        let pause = match waiting.deadline {
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
