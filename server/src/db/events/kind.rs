//! What happened, as the `game_events.kind` column stores it.

use std::fmt;
use std::str::FromStr;

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

/// The kind of a stored game event (`crate::games::GameEvent` adds the facts its mail names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
pub enum EventKind {
    /// A challenge was made.
    Challenged,
    /// A player accepted and others still have to.
    Accepted,
    /// The last accept started the game.
    Started,
    /// A player declined.
    Declined,
    /// The turn passed to the seat to move.
    Turn,
    /// A draw was offered.
    DrawOffered,
    /// A seat left a game that goes on.
    Left,
    /// A seat left a game that goes on and the turn passed with it.
    LeftTurnPassed,
    /// A player left and a bot plays the seat on.
    TakenOver,
    /// The game ended.
    GameOver,
    /// An open challenge lapsed with a seat nobody took.
    Lapsed,
}

impl EventKind {
    /// Every kind.
    pub const ALL: [Self; 11] = [
        Self::Challenged,
        Self::Accepted,
        Self::Started,
        Self::Declined,
        Self::Turn,
        Self::DrawOffered,
        Self::Left,
        Self::LeftTurnPassed,
        Self::TakenOver,
        Self::GameOver,
        Self::Lapsed,
    ];

    /// The stored name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Challenged => "challenged",
            Self::Accepted => "accepted",
            Self::Started => "started",
            Self::Declined => "declined",
            Self::Turn => "turn",
            Self::DrawOffered => "draw_offered",
            Self::Left => "left",
            Self::LeftTurnPassed => "left_turn_passed",
            Self::TakenOver => "taken_over",
            Self::GameOver => "game_over",
            Self::Lapsed => "lapsed",
        }
    }
}

impl fmt::Display for EventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A stored event kind the code does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown game event kind `{0}`")]
pub struct UnknownEventKind(pub String);

impl FromStr for EventKind {
    type Err = UnknownEventKind;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|kind| kind.as_str() == text)
            .ok_or_else(|| UnknownEventKind(text.to_owned()))
    }
}

crate::db::text_column!(EventKind);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for kind in EventKind::ALL {
            assert_eq!(kind.as_str().parse(), Ok(kind));
        }
        assert!("Turn".parse::<EventKind>().is_err());
        assert!("left-turn-passed".parse::<EventKind>().is_err());
    }
}
