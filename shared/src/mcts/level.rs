//! Bot levels 1–5: a search budget counted in iterations (never wall time), so a seed gives the
//! same move on any machine.

use std::fmt;
use std::str::FromStr;

/// How hard the bot thinks: 1 (instant, ≤ 50 ms a move) to 5 (≤ 10 s a move on one core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BotLevel(u8);

/// A level outside 1–5.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bot level must be 1 to 5, found `{0}`")]
pub struct BadBotLevel(pub String);

impl BotLevel {
    pub const MIN: BotLevel = BotLevel(1);
    pub const MAX: BotLevel = BotLevel(5);
    /// The level the server's plain `bot` account plays (issue 16).
    pub const DEFAULT: BotLevel = BotLevel(3);

    /// The level with this number, if it is 1–5.
    pub const fn new(number: u8) -> Option<BotLevel> {
        if number >= 1 && number <= 5 {
            Some(BotLevel(number))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// Search iterations before the game's own scale (see `BotPolicy::budget_scale`).
    /// Roughly ×10 per two levels; calibrated by the `bot` benchmark.
    pub(crate) const fn base_iterations(self) -> u32 {
        match self.0 {
            1 => 200,
            2 => 1_000,
            3 => 3_000,
            4 => 7_000,
            _ => 20_000,
        }
    }
}

impl fmt::Display for BotLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for BotLevel {
    type Err = BadBotLevel;

    fn from_str(text: &str) -> Result<BotLevel, BadBotLevel> {
        text.trim()
            .parse::<u8>()
            .ok()
            .and_then(BotLevel::new)
            .ok_or_else(|| BadBotLevel(text.to_string()))
    }
}
