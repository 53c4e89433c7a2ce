//! Why a game ended, as the `games.result_reason` column stores it.

use std::fmt;
use std::str::FromStr;

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

/// Why a game ended (or never started).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
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

/// A stored reason the code does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown result reason `{0}`")]
pub struct UnknownResultReason(pub String);

impl FromStr for ResultReason {
    type Err = UnknownResultReason;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [
            Self::Rules,
            Self::Resignation,
            Self::Agreement,
            Self::Timeout,
            Self::Declined,
            Self::Expired,
        ]
        .into_iter()
        .find(|reason| reason.as_str() == text)
        .ok_or_else(|| UnknownResultReason(text.to_owned()))
    }
}

crate::db::text_column!(ResultReason);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for reason in [
            ResultReason::Rules,
            ResultReason::Resignation,
            ResultReason::Agreement,
            ResultReason::Timeout,
            ResultReason::Declined,
            ResultReason::Expired,
        ] {
            assert_eq!(reason.as_str().parse(), Ok(reason));
        }
        assert!("time".parse::<ResultReason>().is_err());
    }
}
