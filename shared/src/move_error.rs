use serde::{Deserialize, Serialize};

use crate::ParseMoveError;

/// Why a move text could not be played: bad syntax, or illegal in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveError {
    #[error("{0}")]
    Syntax(ParseMoveError),
    #[error("illegal move: {reason}")]
    Illegal { reason: String },
}
