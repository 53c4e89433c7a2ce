//! `turnpost bot run --engine CMD`: an outside engine plays every game of the signed-in engine
//! account. It follows the account's live stream; when the turn comes to the account (and at
//! start, and after each reconnection, for every game already waiting) it reads the game, asks
//! the engine (`super::bot_engine`) and plays its answer at the game's ply, and it answers
//! challenges by the policy (`super::bot_policy`).
//!
//! A turn is never played twice: each move is sent with the ply it was chosen at, so the
//! server refuses it once the game has moved on (409), and a turn played is remembered.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::{Duration, Instant};

use clap::Args;
use turnpost_shared::api::{Account, GameView, PlayMoveRequest, StreamEvent, StreamEventType};
use turnpost_shared::play::GameStatus;
use turnpost_shared::GameKind;

use super::account::engine_setting;
use super::bot_ccp;
use super::bot_engine::{Engine, Protocol};
use super::bot_policy::{Policy, Verdict};
use crate::event_stream::{EventStream, Received, StreamScope};
use crate::failure::{Failure, FailureKind};
use crate::game_display::{engine_game, result_words};
use crate::interrupt::exit_quietly_on_interrupt;
use crate::output::print;
use crate::session::Session;
use crate::terminal_text::escape_controls;

/// The help below the options of `turnpost bot run`.
pub const AFTER_HELP: &str = "\
Examples:
  turnpost account engine on
  turnpost bot run --engine 'python3 examples/engine.py' --accept kefren,sanqi --max-games 4

The engine is started once (through the shell) and spoken to over its stdin and stdout, one
line each:
  turnpost 1                        once, when it starts
  game <id> <kind> <k=v,k=v|->      the game asked about and its options
  position <position text>          as `turnpost engine show` prints it
  moves <move> <move> …             every legal move (an engine need not know the rules)
  go <movetime-ms>                  answer with one line: move <notation>
  quit                              the end (on Ctrl-C: the end of its input)
Other lines from the engine are ignored; what it writes to stderr is shown. An engine that
gives no move within the movetime and 3 s more is stopped, and started again for the next try
(at the next event, or after 10 s).

With --protocol ccp the engine speaks CCP, the protocol of the CCERL Chinese Checkers
benchmark (ccp, isready, position cells ... player ... ply ..., go movetime MS, bestmove
4-15-28), and plays 2-player Chinese Checkers only (short jumps, no inert pegs, no swaps):
  turnpost bot run --engine './my-ccp-engine' --protocol ccp --accept chinese-checkers

Exit codes:
  0  ended by Ctrl-C
  1  refused: the account is not an engine account, or the token is not valid
  2  usage or configuration error (no profile)
  3  the server cannot be reached at first, or has no event streams";

/// Play your games with an outside engine when it is your turn.
#[derive(Args, Debug)]
pub struct BotRunArgs {
    /// The engine: a shell command line, started once and spoken to over stdin/stdout.
    #[arg(long, value_name = "CMD")]
    pub engine: String,
    /// Accept challenges to these kinds (comma-separated); without it no challenge is
    /// accepted, and those that come are declined.
    #[arg(long, value_delimiter = ',', value_name = "KINDS")]
    pub accept: Vec<GameKind>,
    /// Accept rated challenges too (otherwise they are declined).
    #[arg(long)]
    pub rated: bool,
    /// Play at most this many games at once: further challenges wait until a game ends.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_games: Option<u32>,
    /// The time the engine gets for a move, in milliseconds (sent with `go`).
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub movetime: u64,
    /// The engine's language: turnpost's line protocol (every game), or CCP, the Chinese
    /// Checkers Protocol of the CCERL benchmark (2-player Chinese Checkers only).
    #[arg(long, value_enum, default_value_t = Protocol::Turnpost)]
    pub protocol: Protocol,
}

/// After a failed try (the engine did not answer, the server failed), the game is tried again
/// at the next event of the account or after this long.
const RETRY_AFTER: Duration = Duration::from_secs(10);

/// A run: the session, the engine, and what it has done.
struct Run {
    session: Session,
    me: String,
    engine: Engine,
    policy: Policy,
    movetime: Duration,
    json: bool,
    /// (game, ply) of every turn played, so that none is played twice.
    played: HashSet<(i64, u32)>,
    /// (game, ply) of turns the engine cannot play (a game CCP cannot say), reported once.
    unplayable: HashSet<(i64, u32)>,
    /// Games to try again, and when.
    retry: BTreeMap<i64, Instant>,
    /// Challenges left waiting while the account plays as many games as it may.
    deferred: BTreeSet<i64>,
}

/// Runs `turnpost bot run`.
///
/// # Errors
/// A refusal when the account is not an engine account; usage failures; network failures
/// at the first connection, or a server without streams.
pub fn run(args: BotRunArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    if args.protocol == Protocol::Ccp {
        if let Some(kind) = args
            .accept
            .iter()
            .find(|kind| **kind != GameKind::ChineseCheckers)
        {
            return Err(Failure::usage(format!(
                "--protocol ccp plays only chinese-checkers: a CCP engine cannot play {kind} \
                 (--accept)"
            )));
        }
    }
    let session = Session::open(profile)?;
    let me: Account = session.client.get("/me")?;
    let setting = engine_setting(&session).map_err(|failure| match failure.kind {
        FailureKind::Refused => Failure::refused(format!(
            "{} cannot tell whether {} is an engine account ({}): a server older than engine \
             accounts?",
            session.client.server(),
            me.name,
            failure.message
        )),
        _ => failure,
    })?;
    if !setting.engine {
        return Err(Failure::refused(format!(
            "{} is not an engine account: mark it first with `turnpost account engine on` (its \
             pages then say that a program plays it), then run this again",
            me.name
        )));
    }
    exit_quietly_on_interrupt();
    let stream = EventStream::open(&session.client, StreamScope::Account)?;
    let mut run = Run {
        session,
        me: me.name,
        engine: Engine::new(&args.engine, args.protocol),
        policy: Policy {
            kinds: args.accept,
            rated: args.rated,
            max_games: args.max_games.and_then(|n| usize::try_from(n).ok()),
            ccp: args.protocol == Protocol::Ccp,
        },
        movetime: Duration::from_millis(args.movetime),
        json,
        played: HashSet::new(),
        unplayable: HashSet::new(),
        retry: BTreeMap::new(),
        deferred: BTreeSet::new(),
    };
    let outcome = run.follow(&stream);
    run.engine.quit();
    outcome
}

impl Run {
    /// Follows the stream until it ends for good.
    fn follow(&mut self, stream: &EventStream) -> Result<(), Failure> {
        loop {
            let pause = self
                .retry
                .values()
                .min()
                .map(|due| due.saturating_duration_since(Instant::now()));
            let Some(received) = stream.next(pause) else {
                self.retry_due();
                continue;
            };
            match received {
                // At the start, and after a drop (events may have been missed): look at
                // every game and challenge.
                Received::Connected { .. } => self.look_at_everything()?,
                Received::Event(event) => {
                    if let Some(event) = event.event {
                        self.on_event(&event)?;
                    }
                    self.retry_due();
                }
                Received::Dropped { reason, retry_in } => eprintln!(
                    "turnpost: {reason}; reconnecting in {} s…",
                    retry_in.as_secs().max(1)
                ),
                Received::Ended { failure, .. } => return Err(failure),
            }
        }
    }

    /// Every game waiting for the account's move, and every challenge to it.
    ///
    /// # Errors
    /// Output errors (server failures are reported and the games tried again).
    fn look_at_everything(&mut self) -> Result<(), Failure> {
        match crate::commands::list::fetch(&self.session, Some(GameStatus::Active), true, 100) {
            Ok(games) => {
                for game in games {
                    self.play(game.id)?;
                }
            }
            Err(failure) => eprintln!("turnpost: listing your games: {}", failure.message),
        }
        self.look_at_challenges()
    }

    /// Every challenge to the account, by the policy.
    ///
    /// # Errors
    /// Output errors.
    fn look_at_challenges(&mut self) -> Result<(), Failure> {
        match crate::commands::list::fetch(&self.session, Some(GameStatus::Invited), false, 100) {
            Ok(games) => {
                for game in games {
                    self.consider_challenge(game.id)?;
                }
            }
            Err(failure) => eprintln!("turnpost: listing your challenges: {}", failure.message),
        }
        Ok(())
    }

    /// Acts on one event of the account's stream.
    ///
    /// # Errors
    /// Output errors.
    fn on_event(&mut self, event: &StreamEvent) -> Result<(), Failure> {
        // The turn is the account's when the event says so, or when it names the account as
        // the one to move (an engine account may have switched its turn notices off).
        let our_turn = event.for_you.as_deref() == Some("turn")
            || event.to_move_name.as_deref() == Some(self.me.as_str());
        match event.event {
            StreamEventType::Challenge if event.for_you.as_deref() == Some("challenges") => {
                self.consider_challenge(event.game)
            }
            StreamEventType::GameOver => {
                self.retry.remove(&event.game);
                self.say(
                    event.game,
                    event.kind,
                    &format!("game over: {}", event.result.as_deref().unwrap_or("ended")),
                )?;
                // A place may have come free for a challenge left waiting.
                let deferred = std::mem::take(&mut self.deferred);
                for id in deferred {
                    self.consider_challenge(id)?;
                }
                Ok(())
            }
            StreamEventType::Move
            | StreamEventType::Started
            | StreamEventType::Left
            | StreamEventType::Accepted
                if our_turn =>
            {
                self.play(event.game)
            }
            _ => Ok(()),
        }
    }

    /// Tries again the games whose retry is due.
    fn retry_due(&mut self) {
        let now = Instant::now();
        let due: Vec<i64> = self
            .retry
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in due {
            self.retry.remove(&id);
            if let Err(failure) = self.play(id) {
                eprintln!("turnpost: {}", failure.message);
            }
        }
    }

    /// Plays the account's turn in game `id`, if it is its turn and the turn was not played.
    /// A failure (the engine, the server) is reported and the game tried again later.
    ///
    /// # Errors
    /// Output errors.
    fn play(&mut self, id: i64) -> Result<(), Failure> {
        let game: GameView = match self.session.client.get(&format!("/games/{id}")) {
            Ok(game) => game,
            Err(failure) => {
                return self.later(id, &format!("reading game #{id}: {}", failure.message))
            }
        };
        if game.status != GameStatus::Active || !game.your_turn {
            return Ok(());
        }
        if self.played.contains(&(id, game.ply)) || self.unplayable.contains(&(id, game.ply)) {
            return Ok(());
        }
        if self.policy.ccp {
            if let Err(why) = bot_ccp::fits(&game) {
                // Not tried again: the game will not change into one CCP can say. Its owner
                // plays it by hand, or runs a turnpost-protocol engine for it.
                self.unplayable.insert((id, game.ply));
                return self.say(id, game.kind, &format!("not played: {why}"));
            }
        }
        let legal = match &game.legal_moves {
            Some(legal) if !legal.is_empty() => legal.clone(),
            _ => match engine_game(&game) {
                Some(position) => position.legal_moves(),
                None => Vec::new(),
            },
        };
        if legal.is_empty() {
            return self.later(id, &format!("game #{id} lists no legal move"));
        }
        let answer = match self.engine.choose(&game, &legal, self.movetime) {
            Ok(answer) => answer,
            Err(trouble) => return self.later(id, &format!("game #{id}: {trouble}")),
        };
        // The engine's text as the game writes it (`a2-a3` for `A2-A3`), checked locally.
        let notation = if legal.contains(&answer) {
            answer.clone()
        } else {
            match engine_game(&game).map(|position| position.canonical_move(&answer)) {
                Some(Ok(canonical)) if legal.contains(&canonical) => canonical,
                checked => {
                    // The rule it breaks, when the game can say (a CCP engine whose rules
                    // differ from turnpost's, an engine with a bug): it is not played.
                    let why = match checked {
                        Some(Err(error)) => format!(" ({error})"),
                        _ => String::new(),
                    };
                    return self.later(
                        id,
                        &format!(
                            "game #{id}: the engine answered `{}`, which is no legal move \
                             here{}; not played",
                            escape_controls(&answer, false),
                            escape_controls(&why, false)
                        ),
                    );
                }
            }
        };
        let request = PlayMoveRequest {
            notation: notation.clone(),
            ply: game.ply,
            message: None,
        };
        match self
            .session
            .client
            .post::<_, GameView>(&format!("/games/{id}/moves"), &request)
        {
            Ok(after) => {
                self.played.insert((id, game.ply));
                self.retry.remove(&id);
                let mut line = format!("played {notation} (move {})", game.ply + 1);
                if after.status == GameStatus::Finished {
                    line.push_str(&format!(
                        "; game over: {}",
                        result_words(after.result.as_ref(), after.result_reason, &after.seats)
                    ));
                }
                self.say(id, game.kind, &line)
            }
            Err(failure) if failure.kind == FailureKind::Refused => {
                // A stale ply (409): the turn was played already (another run, the owner by
                // hand). It is not played again.
                let now: Result<GameView, _> = self.session.client.get(&format!("/games/{id}"));
                match now {
                    Ok(now) if now.ply != game.ply || !now.your_turn => {
                        self.played.insert((id, game.ply));
                        self.say(
                            id,
                            game.kind,
                            &format!("move {} was played already; skipped", game.ply + 1),
                        )
                    }
                    _ => self.later(
                        id,
                        &format!("game #{id}: {notation} was refused: {}", failure.message),
                    ),
                }
            }
            Err(failure) => self.later(id, &format!("game #{id}: {}", failure.message)),
        }
    }

    /// Reports why game `id` was not played now, and tries it again later.
    ///
    /// # Errors
    /// None: a report on stderr (a `Result`, so that callers can end with it).
    fn later(&mut self, id: i64, why: &str) -> Result<(), Failure> {
        eprintln!(
            "turnpost: {why} (trying again at the next event or in {} s)",
            RETRY_AFTER.as_secs()
        );
        self.retry.insert(id, Instant::now() + RETRY_AFTER);
        Ok(())
    }

    /// Answers challenge `id` by the policy.
    ///
    /// # Errors
    /// Output errors.
    fn consider_challenge(&mut self, id: i64) -> Result<(), Failure> {
        let game: GameView = match self.session.client.get(&format!("/games/{id}")) {
            Ok(game) => game,
            Err(failure) => {
                eprintln!("turnpost: reading challenge #{id}: {}", failure.message);
                return Ok(());
            }
        };
        let active = if self.policy.max_games.is_some() {
            match crate::commands::list::fetch(&self.session, Some(GameStatus::Active), false, 100)
            {
                Ok(games) => games.len(),
                Err(failure) => {
                    eprintln!("turnpost: counting your games: {}", failure.message);
                    self.deferred.insert(id);
                    return Ok(());
                }
            }
        } else {
            0
        };
        match self.policy.judge(&game, active) {
            Verdict::NotOurs => Ok(()),
            Verdict::Later => {
                self.deferred.insert(id);
                self.say(
                    id,
                    game.kind,
                    "challenge waits: as many games at once as --max-games",
                )
            }
            Verdict::Accept => {
                match self
                    .session
                    .client
                    .post_empty::<GameView>(&format!("/games/{id}/accept"))
                {
                    Ok(after) => {
                        let others: Vec<&str> = after
                            .seats
                            .iter()
                            .filter(|seat| Some(seat.seat) != after.your_seat)
                            .map(|seat| seat.player.as_str())
                            .collect();
                        let line = format!("accepted the challenge (with {})", others.join(", "));
                        self.say(id, game.kind, &line)?;
                        // The last accept starts the game: perhaps with the engine to move.
                        if after.status == GameStatus::Active {
                            self.play(id)?;
                        }
                        Ok(())
                    }
                    Err(failure) => {
                        eprintln!("turnpost: accepting #{id}: {}", failure.message);
                        Ok(())
                    }
                }
            }
            Verdict::Decline(reason) => {
                match self
                    .session
                    .client
                    .post_empty::<GameView>(&format!("/games/{id}/decline"))
                {
                    Ok(_) => self.say(id, game.kind, &format!("declined: {reason}")),
                    Err(failure) => {
                        eprintln!("turnpost: declining #{id}: {}", failure.message);
                        Ok(())
                    }
                }
            }
        }
    }

    /// One line of the run's output: `#12 kefren: played F2-F3 (move 1)`; with `--json` one
    /// JSON object a line (`game`, `kind`, `what`).
    ///
    /// # Errors
    /// Output errors.
    fn say(&self, id: i64, kind: GameKind, what: &str) -> Result<(), Failure> {
        let line = if self.json {
            serde_json::json!({ "game": id, "kind": kind, "what": what }).to_string()
        } else {
            format!("#{id} {kind}: {what}")
        };
        Ok(print(&format!("{line}\n"))?)
    }
}
