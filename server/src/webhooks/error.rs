//! Why a webhook request is refused (turned into an answer in `crate::http::error`).

use crate::db::DbError;

/// A refused webhook request.
#[derive(Debug, thiserror::Error)]
pub enum WebhookError {
    /// The account has no webhook with that id.
    #[error("you have no webhook with id {0}")]
    NotFound(i64),
    /// The URL (or another field) cannot be used.
    #[error("{0}")]
    Invalid(String),
    /// The account has as many webhooks as allowed.
    #[error("you have {0} webhooks, the most allowed; remove one first")]
    TooMany(i64),
    /// Storage failed.
    #[error(transparent)]
    Storage(#[from] DbError),
}

impl From<diesel::result::Error> for WebhookError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Storage(DbError::Query(error))
    }
}
