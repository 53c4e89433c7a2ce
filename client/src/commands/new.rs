use std::collections::BTreeMap;

use clap::Args;
use turnpost_shared::{
    AnyGame, ClockSpec, CreateGameRequest, GameKind, GameView, OnLeave, OptionValue, Options,
    TimeoutMode,
};

use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json};
use crate::session::Session;

/// Challenge players to a new game; it starts when everyone has accepted.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// Opponents' account names, comma-separated, in turn order after you; the built-in
    /// computer players are bot-1 … bot-5 (strength) and bot (= bot-3).
    #[arg(long = "with", value_delimiter = ',', required = true)]
    pub opponents: Vec<String>,
    /// A game option as key=value (repeatable), e.g. --option players=3.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Days each player has per move (1–30; the server's default is 3).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30), conflicts_with = "fischer")]
    pub days_per_move: Option<u32>,
    /// A capped Fischer clock instead: initial days + days added per move / most days banked,
    /// e.g. 7d+1d/14d.
    #[arg(long, value_name = "CLOCK", value_parser = parse_clock)]
    pub fischer: Option<ClockSpec>,
    /// When a player runs out of time: `auto` (the server ends the game as a loss on time) or
    /// `claim` (the opponents may claim the win with `turnpost claim`).
    #[arg(long, value_name = "MODE", value_parser = parse_timeout)]
    pub timeout: Option<TimeoutMode>,
    /// When a player leaves (resigns, runs out of time) a game of three or more seats still
    /// playing: `remove` (their pegs leave the board; the default) or `bot` (a server bot,
    /// bot-3, plays their seat on with its pegs).
    #[arg(long, value_name = "RULE", value_parser = parse_on_leave)]
    pub on_leave: Option<OnLeave>,
    /// Your seat in the turn order (1 moves first).
    #[arg(long, default_value_t = 1)]
    pub seat: usize,
    /// A rated game (the default between people; with a bot, ask for it here). A
    /// non-standard option (a board size) cannot be rated.
    #[arg(long, conflicts_with = "unrated")]
    pub rated: bool,
    /// An unrated game (the default with a bot or a non-standard option).
    #[arg(long)]
    pub unrated: bool,
}

pub(crate) fn parse_clock(text: &str) -> Result<ClockSpec, String> {
    match text.parse::<ClockSpec>() {
        Ok(spec @ ClockSpec::Fischer { .. }) => Ok(spec),
        Ok(ClockSpec::DaysPerMove(_)) => {
            Err("a Fischer clock is written initial+increment/maximum, like 7d+1d/14d".into())
        }
        Err(e) => Err(e.reason),
    }
}

pub(crate) fn parse_timeout(text: &str) -> Result<TimeoutMode, String> {
    text.parse::<TimeoutMode>().map_err(|e| e.reason)
}

pub(crate) fn parse_on_leave(text: &str) -> Result<OnLeave, String> {
    text.parse::<OnLeave>().map_err(|e| e.to_string())
}

/// Runs `turnpost new`.
///
/// # Errors
/// Bad options (checked locally first, exit 2); refusals from the server; network failures.
pub fn run(args: NewArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    // The engine checks the options here too, so a typo is explained without a round trip.
    let options = Options::from_pairs(&args.options).map_err(Failure::usage)?;
    AnyGame::new(args.kind, &options).map_err(Failure::usage)?;
    let session = Session::open(profile)?;
    let me: turnpost_shared::Account = session.client.get("/me")?;
    let mut seats = args.opponents.clone();
    if args.seat == 0 || args.seat > seats.len() + 1 {
        return Err(Failure::usage(format!(
            "--seat {}: expected 1 to {}",
            args.seat,
            seats.len() + 1
        )));
    }
    seats.insert(args.seat - 1, me.name);
    let request = CreateGameRequest {
        kind: args.kind,
        options: options
            .iter()
            .map(|(key, value)| (key.to_string(), OptionValue::Text(value.to_string())))
            .collect::<BTreeMap<_, _>>(),
        seats,
        clock: args
            .fischer
            .map(|spec| spec.to_string())
            .or_else(|| args.days_per_move.map(|days| format!("{days}d"))),
        timeout: args.timeout,
        on_leave: args.on_leave,
        rated: match (args.rated, args.unrated) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
    };
    let game: GameView = session.client.post("/games", &request)?;
    if json {
        print_json("game", &game)?;
    } else if game.status == turnpost_shared::GameStatus::Active {
        // Every other seat is a built-in bot: they accept at once.
        print(&format!(
            "Game #{} started (the bots accepted at once).\n\n{}",
            game.id,
            describe(&game)
        ))?;
    } else {
        print(&format!(
            "Challenge #{} sent; the game starts when everyone has accepted.\n\n{}",
            game.id,
            describe(&game)
        ))?;
    }
    Ok(())
}
