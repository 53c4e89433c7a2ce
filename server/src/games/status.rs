//! Where a game is in its life, as the `games.status` column stores it.

use std::fmt;
use std::str::FromStr;

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

/// A game's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
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

/// A stored status the code does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game status `{0}`: expected invited, active, finished or cancelled")]
pub struct UnknownGameStatus(pub String);

impl FromStr for GameStatus {
    type Err = UnknownGameStatus;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Self::Invited, Self::Active, Self::Finished, Self::Cancelled]
            .into_iter()
            .find(|status| status.as_str() == text)
            .ok_or_else(|| UnknownGameStatus(text.to_owned()))
    }
}

crate::db::text_column!(GameStatus);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for status in [
            GameStatus::Invited,
            GameStatus::Active,
            GameStatus::Finished,
            GameStatus::Cancelled,
        ] {
            assert_eq!(status.as_str().parse(), Ok(status));
        }
        assert!("Active".parse::<GameStatus>().is_err());
    }
}
