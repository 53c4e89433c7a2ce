//! Why a game ended, as the API shows it and the server stores it.

use std::fmt;
use std::str::FromStr;

/// Why a game ended (or never started). JSON (and the server's `games.result_reason` column)
/// writes the lower-case name and reads exactly that name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "lowercase"))]
pub enum ResultReason {
    /// The engine's rules ended it (a win or a draw on the board).
    Rules,
    /// A player resigned.
    Resignation,
    /// The players agreed a draw.
    Agreement,
    /// A seat ran out of time (ended by the server or claimed by another seat).
    Timeout,
    /// A player declined the challenge.
    Declined,
    /// Nobody answered the challenge in time; only shown, never stored (challenges expire
    /// lazily).
    Expired,
}

impl ResultReason {
    /// Every reason.
    pub const ALL: [ResultReason; 6] = [
        ResultReason::Rules,
        ResultReason::Resignation,
        ResultReason::Agreement,
        ResultReason::Timeout,
        ResultReason::Declined,
        ResultReason::Expired,
    ];

    /// The stored and shown name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Rules => "rules",
            Self::Resignation => "resignation",
            Self::Agreement => "agreement",
            Self::Timeout => "timeout",
            Self::Declined => "declined",
            Self::Expired => "expired",
        }
    }

    /// How the result came about, as words that follow "won" or "drawn": " by resignation",
    /// " on time", and nothing for a result on the board.
    #[must_use]
    pub fn after_result(self) -> &'static str {
        match self {
            Self::Rules => "",
            Self::Resignation => " by resignation",
            Self::Agreement => " by agreement",
            Self::Timeout => " on time",
            Self::Declined => " (declined)",
            Self::Expired => " (expired)",
        }
    }
}

impl fmt::Display for ResultReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A reason name the code does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown result reason `{0}`: expected rules, resignation, agreement, timeout, declined or \
     expired"
)]
pub struct UnknownResultReason(pub String);

impl FromStr for ResultReason {
    type Err = UnknownResultReason;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|reason| reason.as_str() == text)
            .ok_or_else(|| UnknownResultReason(text.to_owned()))
    }
}

impl serde::Serialize for ResultReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for ResultReason {
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
        for reason in ResultReason::ALL {
            assert_eq!(reason.as_str().parse(), Ok(reason));
            let json = serde_json::to_string(&reason).unwrap();
            assert_eq!(json, format!("\"{reason}\""));
            assert_eq!(serde_json::from_str::<ResultReason>(&json).unwrap(), reason);
        }
        assert!("time".parse::<ResultReason>().is_err());
        let error = serde_json::from_str::<ResultReason>("\"Timeout\"")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("unknown result reason `Timeout`: expected rules"),
            "{error}"
        );
    }
}
