//! The challenge option `on-leave`: what becomes of a seat whose player leaves (resigns, runs
//! out of time, loses by a claim) a game of three or more seats still playing.

use std::fmt;
use std::str::FromStr;

/// `remove` (the default): the seat's pegs leave the board and play goes on without it.
/// `bot`: a server bot takes the seat over with its pegs and plays on; the player who left is
/// still named, and placed as a seat that left. With two seats playing, leaving ends the game
/// either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "lowercase"))]
pub enum OnLeave {
    /// The seat leaves the board.
    #[default]
    Remove,
    /// A server bot plays the seat on.
    Bot,
}

/// A word that is not an on-leave rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown on-leave rule `{0}`: expected `remove` or `bot`")]
pub struct UnknownOnLeave(pub String);

impl OnLeave {
    /// `remove` or `bot`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Remove => "remove",
            Self::Bot => "bot",
        }
    }
}

impl fmt::Display for OnLeave {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OnLeave {
    type Err = UnknownOnLeave;

    /// Reads `remove` or `bot` (any case).
    fn from_str(text: &str) -> Result<Self, UnknownOnLeave> {
        match text.trim().to_ascii_lowercase().as_str() {
            "remove" => Ok(Self::Remove),
            "bot" => Ok(Self::Bot),
            _ => Err(UnknownOnLeave(text.to_owned())),
        }
    }
}

impl TryFrom<String> for OnLeave {
    type Error = UnknownOnLeave;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        text.parse()
    }
}

impl serde::Serialize for OnLeave {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for OnLeave {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    #[test]
    fn reads_and_writes_both_words() {
        assert_eq!("BOT".parse(), Ok(OnLeave::Bot));
        assert_eq!(" remove ".parse(), Ok(OnLeave::Remove));
        assert_eq!(OnLeave::default(), OnLeave::Remove);
        let error = "stay".parse::<OnLeave>().unwrap_err().to_string();
        assert!(error.contains("`remove` or `bot`"), "{error}");
        assert_eq!(serde_json::to_string(&OnLeave::Bot).unwrap(), "\"bot\"");
        assert!(serde_json::from_str::<OnLeave>("\"x\"").is_err());
    }
}
