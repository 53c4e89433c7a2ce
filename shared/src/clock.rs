//! Game clocks as chosen in a challenge: a fixed number of days per move, or a capped Fischer
//! bank, written `3d` and `7d+1d/14d`. Pure data: the server keeps the deadlines.

use std::fmt;
use std::str::FromStr;

/// Days per move when a challenge names no clock.
pub const DEFAULT_DAYS_PER_MOVE: u8 = 3;
/// The allowed range of days per move.
pub const DAYS_PER_MOVE: std::ops::RangeInclusive<u8> = 1..=30;
/// The allowed range of a Fischer bank's initial days.
pub const FISCHER_INITIAL: std::ops::RangeInclusive<u8> = 1..=30;
/// The allowed range of a Fischer bank's increment.
pub const FISCHER_INCREMENT: std::ops::RangeInclusive<u8> = 0..=30;
/// The largest cap of a Fischer bank.
pub const FISCHER_MAXIMUM: u8 = 60;

/// How much time each seat has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClockSpec {
    /// Every move must be made within this many days of the turn starting.
    DaysPerMove(u8),
    /// Each seat has a bank of time that runs down on its turns; every move adds `increment`
    /// days, and the bank never grows past `maximum` days.
    Fischer {
        /// Days in the bank at the start.
        initial: u8,
        /// Days added after each move.
        increment: u8,
        /// Most days the bank may hold.
        maximum: u8,
    },
}

impl Default for ClockSpec {
    fn default() -> Self {
        Self::DaysPerMove(DEFAULT_DAYS_PER_MOVE)
    }
}

impl ClockSpec {
    /// Days on a seat's clock when the game starts (its first turn).
    #[must_use]
    pub fn initial_days(self) -> u8 {
        match self {
            Self::DaysPerMove(days) => days,
            Self::Fischer { initial, .. } => initial,
        }
    }
}

/// A clock text that is not `Nd` or `Id+Jd/Kd`, or whose numbers are out of range.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("clock `{text}`: {reason}")]
pub struct ClockError {
    /// The text as given.
    pub text: String,
    /// What was expected.
    pub reason: String,
}

fn days(part: &str, what: &str, text: &str) -> Result<u8, ClockError> {
    let number = part.strip_suffix(['d', 'D']).ok_or_else(|| ClockError {
        text: text.to_owned(),
        reason: format!("expected the {what} as a number of days like `3d`, found `{part}`"),
    })?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ClockError {
            text: text.to_owned(),
            reason: format!("expected the {what} as a number of days like `3d`, found `{part}`"),
        });
    }
    number.parse::<u8>().map_err(|_| ClockError {
        text: text.to_owned(),
        reason: format!("the {what} `{part}` is too large"),
    })
}

fn in_range(
    value: u8,
    range: &std::ops::RangeInclusive<u8>,
    what: &str,
    text: &str,
) -> Result<u8, ClockError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(ClockError {
            text: text.to_owned(),
            reason: format!(
                "the {what} must be {} to {} days, not {value}",
                range.start(),
                range.end()
            ),
        })
    }
}

impl FromStr for ClockSpec {
    type Err = ClockError;

    /// Reads `3d` (days per move, 1–30) or `7d+1d/14d` (a Fischer bank: initial 1–30 days,
    /// increment 0–30 days, maximum from the initial days to 60). Spaces are ignored.
    fn from_str(input: &str) -> Result<Self, ClockError> {
        let text: String = input.chars().filter(|c| !c.is_whitespace()).collect();
        if text.is_empty() {
            return Err(ClockError {
                text: input.to_owned(),
                reason: "expected `3d` (days per move) or `7d+1d/14d` (initial+increment/maximum)"
                    .into(),
            });
        }
        let Some((initial, rest)) = text.split_once('+') else {
            let value = days(&text, "days per move", input)?;
            return Ok(Self::DaysPerMove(in_range(
                value,
                &DAYS_PER_MOVE,
                "days per move",
                input,
            )?));
        };
        let (increment, maximum) = rest.split_once('/').ok_or_else(|| ClockError {
            text: input.to_owned(),
            reason: "a Fischer clock is written initial+increment/maximum, like `7d+1d/14d`".into(),
        })?;
        let initial = in_range(
            days(initial, "initial bank", input)?,
            &FISCHER_INITIAL,
            "initial bank",
            input,
        )?;
        let increment = in_range(
            days(increment, "increment", input)?,
            &FISCHER_INCREMENT,
            "increment",
            input,
        )?;
        let maximum = in_range(
            days(maximum, "maximum bank", input)?,
            &(initial..=FISCHER_MAXIMUM),
            "maximum bank",
            input,
        )?;
        Ok(Self::Fischer {
            initial,
            increment,
            maximum,
        })
    }
}

impl fmt::Display for ClockSpec {
    /// The canonical text: `3d` or `7d+1d/14d`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DaysPerMove(days) => write!(f, "{days}d"),
            Self::Fischer {
                initial,
                increment,
                maximum,
            } => write!(f, "{initial}d+{increment}d/{maximum}d"),
        }
    }
}

crate::named_value! {
    noun: "timeout mode";
    /// What happens when a seat's time runs out. JSON writes `auto` or `claim` and reads them as
    /// [`FromStr`] does.
    #[derive(Default)]
    pub enum TimeoutMode {
        /// The server ends the game as a loss on time for the seat that ran out.
        #[default]
        Auto = "auto",
        /// The other players may claim the win; until then the game goes on.
        Claim = "claim",
    }
}

/// How the message of a timeout mode that cannot be read begins.
pub const UNKNOWN_TIMEOUT_MODE: &str = "unknown timeout mode";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_both_clocks() {
        assert_eq!("3d".parse(), Ok(ClockSpec::DaysPerMove(3)));
        assert_eq!(" 30D ".parse(), Ok(ClockSpec::DaysPerMove(30)));
        let fischer: ClockSpec = "7d + 1d / 14d".parse().unwrap();
        assert_eq!(
            fischer,
            ClockSpec::Fischer {
                initial: 7,
                increment: 1,
                maximum: 14
            }
        );
        assert_eq!(fischer.to_string(), "7d+1d/14d");
        assert_eq!(ClockSpec::default().to_string(), "3d");
    }

    #[test]
    fn refuses_bad_clocks_with_a_reason() {
        for (text, needle) in [
            ("", "expected `3d`"),
            ("0d", "1 to 30"),
            ("31d", "1 to 30"),
            ("3", "like `3d`"),
            ("3h", "like `3d`"),
            ("999d", "too large"),
            ("7d+1d", "initial+increment/maximum"),
            ("7d+1d/6d", "7 to 60"),
            ("7d+1d/61d", "7 to 60"),
            ("7d+31d/40d", "0 to 30"),
            ("-1d", "like `3d`"),
        ] {
            let error = text.parse::<ClockSpec>().unwrap_err();
            assert!(
                error.to_string().contains(needle),
                "{text:?}: {error} lacks {needle:?}"
            );
        }
    }

    #[test]
    fn timeout_modes() {
        assert_eq!("auto".parse(), Ok(TimeoutMode::Auto));
        assert_eq!("CLAIM".parse(), Ok(TimeoutMode::Claim));
        let error = "never".parse::<TimeoutMode>().unwrap_err().to_string();
        assert!(error.starts_with(UNKNOWN_TIMEOUT_MODE), "{error}");
    }
}
