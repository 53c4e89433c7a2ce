//! The server's health answer (`GET /v1/health`).

use serde::{Deserialize, Serialize};

/// Answer to `GET /v1/health`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Health {
    /// `"ok"`.
    pub status: String,
    /// `"postgres"` or `"sqlite"`.
    pub database: String,
    /// Emails waiting to be delivered (due now or waiting for a retry).
    #[serde(default)]
    pub mail_backlog: i64,
    /// Seconds since the oldest of them was queued; `null` when none waits.
    #[serde(default)]
    pub oldest_pending_mail_secs: Option<i64>,
}
