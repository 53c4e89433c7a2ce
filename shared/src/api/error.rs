//! The body of every error answer.

use serde::{Deserialize, Serialize};

/// Every error answer: `{"error": {"code": "...", "message": "..."}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// A machine-readable code and a human-readable message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ErrorDetail {
    /// Stable snake_case code, e.g. `invalid_email`, `rate_limited`.
    pub code: String,
    /// What went wrong and what to do about it.
    pub message: String,
}
