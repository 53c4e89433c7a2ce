//! The flags that set up a game, shared by every command that starts games: `turnpost new`,
//! `turnpost seek` and `turnpost tournament new` (the last without the seat flags).

use std::collections::BTreeMap;

use clap::Args;
use turnpost_shared::api::OptionValue;
use turnpost_shared::play::{ClockSpec, OnLeave, TimeoutMode};
use turnpost_shared::Options;

use crate::failure::Failure;

/// A game's options, its clock and what running out of time does.
#[derive(Args, Debug)]
pub struct GameSettings {
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
}

impl GameSettings {
    /// The `--option` pairs, read and checked for their form (the engine checks the keys).
    ///
    /// # Errors
    /// A pair that is not `key=value`, or a key given twice (exit 2).
    pub fn options(&self) -> Result<Options, Failure> {
        Options::from_pairs(&self.options).map_err(Failure::usage)
    }

    /// The clock as the API takes it: `7d+1d/14d`, `5d`, or none for the server's default.
    pub fn clock(&self) -> Option<String> {
        self.fischer
            .map(|spec| spec.to_string())
            .or_else(|| self.days_per_move.map(|days| format!("{days}d")))
    }
}

/// Game options as the API takes them: every value sent as its text.
pub fn option_values(options: &Options) -> BTreeMap<String, OptionValue> {
    options
        .iter()
        .map(|(key, value)| (key.to_string(), OptionValue::Text(value.to_string())))
        .collect()
}

/// The settings of a challenge: the game's, where you sit, and what becomes of a seat whose
/// player leaves.
#[derive(Args, Debug)]
pub struct ChallengeSettings {
    #[command(flatten)]
    pub game: GameSettings,
    /// When a player leaves (resigns, runs out of time) a game of three or more seats still
    /// playing: `remove` (their pegs leave the board; the default) or `bot` (a server bot,
    /// bot-3, plays their seat on with its pegs).
    #[arg(long, value_name = "RULE", value_parser = parse_on_leave)]
    pub on_leave: Option<OnLeave>,
    /// Your seat in the turn order (1 moves first).
    #[arg(long, default_value_t = 1)]
    pub seat: usize,
}

fn parse_clock(text: &str) -> Result<ClockSpec, String> {
    match text.parse::<ClockSpec>() {
        Ok(spec @ ClockSpec::Fischer { .. }) => Ok(spec),
        Ok(ClockSpec::DaysPerMove(_)) => {
            Err("a Fischer clock is written initial+increment/maximum, like 7d+1d/14d".into())
        }
        Err(e) => Err(e.reason),
    }
}

fn parse_timeout(text: &str) -> Result<TimeoutMode, String> {
    text.parse::<TimeoutMode>().map_err(|e| e.to_string())
}

fn parse_on_leave(text: &str) -> Result<OnLeave, String> {
    text.parse::<OnLeave>().map_err(|e| e.to_string())
}
