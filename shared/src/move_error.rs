//! Why a move text could not be played: bad syntax (with its offset) or illegal in the position.

use serde::{Deserialize, Serialize};

use crate::notation::ParseMoveError;

/// Why a move text could not be played: bad syntax, or illegal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveError {
    #[error("{0}")]
    Syntax(ParseMoveError),
    #[error("illegal move: {reason}")]
    Illegal { reason: String },
}

impl MoveError {
    /// The refusal of `text` said for a player, as a sentence: for bad syntax, the word, what
    /// was expected and `example` (see [`ParseMoveError::for_player`]); for an illegal move,
    /// the rule it breaks.
    pub fn for_player(&self, text: &str, example: Option<&str>) -> String {
        match self {
            MoveError::Syntax(syntax) => syntax.for_player(text, example),
            MoveError::Illegal { .. } => format!("{self}."),
        }
    }
}
