//! Where a game is in its life, as the API shows it and the server stores it.

use std::fmt;
use std::str::FromStr;

/// A game's status. JSON (and the server's `games.status` column) writes the lower-case name
/// and reads exactly that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "lowercase"))]
pub enum GameStatus {
    /// A challenge waiting for its players.
    Invited,
    /// Being played.
    Active,
    /// Over: won or drawn.
    Finished,
    /// Declined or expired before it started.
    Cancelled,
}

impl GameStatus {
    /// Every status, in the order of a game's life.
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Invited,
        GameStatus::Active,
        GameStatus::Finished,
        GameStatus::Cancelled,
    ];

    /// The stored and shown name: `invited`, `active`, `finished`, `cancelled`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Invited => "invited",
            Self::Active => "active",
            Self::Finished => "finished",
            Self::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A status name the code does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game status `{0}`: expected invited, active, finished or cancelled")]
pub struct UnknownGameStatus(pub String);

impl FromStr for GameStatus {
    type Err = UnknownGameStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownGameStatus(text.to_owned()))
    }
}

impl serde::Serialize for GameStatus {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for GameStatus {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn names_read_back() {
        for status in GameStatus::ALL {
            assert_eq!(status.as_str().parse(), Ok(status));
            let json = serde_json::to_string(&status).unwrap();
            assert_eq!(json, format!("\"{status}\""));
            assert_eq!(serde_json::from_str::<GameStatus>(&json).unwrap(), status);
        }
        assert!("Active".parse::<GameStatus>().is_err());
        let error = serde_json::from_str::<GameStatus>("\"over\"")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("unknown game status `over`: expected invited"),
            "{error}"
        );
    }
}
