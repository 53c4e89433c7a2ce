//! Position text that does not describe a possible position of its game, naming the field at fault.

/// Position text that is not a possible position of its game. Names the field at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad position text: field `{field}`: {message}")]
pub struct PositionError {
    /// The field of the position text at fault (`kind`, `rows`, `side`, …).
    pub field: String,
    /// What is wrong with it, saying what was expected.
    pub message: String,
}

impl PositionError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> PositionError {
        PositionError {
            field: field.into(),
            message: message.into(),
        }
    }
}
