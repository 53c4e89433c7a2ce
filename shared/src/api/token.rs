//! Personal API tokens: the listing (`GET /v1/tokens`) and the secret shown once.

use serde::{Deserialize, Serialize};

use super::Account;

/// A personal API token, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenInfo {
    /// Token id, for `DELETE /v1/tokens/{id}`.
    pub id: i64,
    /// The label given when the token was made.
    pub label: String,
    /// When the token was made.
    pub created_at: String,
    /// When the token was last used (to the minute), if ever.
    pub last_used_at: Option<String>,
}

/// Answer to `POST /v1/sessions/verify`: the token's secret, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewToken {
    /// `tp_` followed by 32 random letters and digits. Send as `Authorization: Bearer …`.
    pub token: String,
    /// The token's listing entry.
    pub info: TokenInfo,
    /// The account the token belongs to.
    pub account: Account,
}

/// Answer to `GET /v1/tokens`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenList {
    /// The account's tokens, oldest first.
    pub tokens: Vec<TokenInfo>,
}
