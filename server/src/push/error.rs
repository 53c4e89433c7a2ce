//! Why a push request is refused (turned into an answer in `crate::http::error`).

use crate::db::DbError;

/// A refused push request.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// The account has no device with that id.
    #[error("you have no push subscription with id {0}")]
    NotFound(i64),
    /// The subscription cannot be used (its endpoint or keys).
    #[error("{0}")]
    Invalid(String),
    /// The account has as many devices as allowed.
    #[error("you have {0} push subscriptions, the most allowed; remove one first")]
    TooMany(i64),
    /// Storage failed.
    #[error(transparent)]
    Storage(#[from] DbError),
}

impl From<diesel::result::Error> for PushError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Storage(DbError::Query(error))
    }
}
