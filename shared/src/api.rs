//! Request and response bodies of the HTTP API under `/v1` (JSON, serde only).
//!
//! Times are RFC 3339 strings in UTC (`2026-11-22T01:02:03Z`); ids are 64-bit integers.
//! Request types refuse unknown fields, so a typo in a field name is an error, not a silent default.

use serde::{Deserialize, Serialize};

/// `POST /v1/accounts`: sign up; a one-time code is mailed to `email`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignUpRequest {
    /// 2–32 letters, digits, `-` or `_`; unique regardless of case.
    pub name: String,
    /// Where codes and turn emails go.
    pub email: String,
}

/// `POST /v1/sessions`: ask for a one-time sign-in code by email.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SignInRequest {
    /// The account's email address.
    pub email: String,
}

/// `POST /v1/sessions/verify`: trade a one-time code for a personal API token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VerifyRequest {
    /// The account's email address.
    pub email: String,
    /// The code from the email (case and spaces or dashes do not matter).
    pub code: String,
    /// A label for the token, e.g. the machine it is used on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// Answer to sign-up and sign-in: a code is on its way (sign-in answers the same whether or not
/// the address has an account).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeSent {
    /// Always `"code_sent"`.
    pub status: String,
    /// How long the code stays valid.
    pub expires_in_seconds: u64,
}

/// A player account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Account {
    /// Account id.
    pub id: i64,
    /// Name as the player spelled it.
    pub name: String,
    /// Verified email address.
    pub email: String,
    /// When the account was created.
    pub created_at: String,
}

/// A personal API token, without its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
pub struct TokenList {
    /// The account's tokens, oldest first.
    pub tokens: Vec<TokenInfo>,
}

/// Answer to `GET /v1/health`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Health {
    /// `"ok"`.
    pub status: String,
    /// `"postgres"` or `"sqlite"`.
    pub database: String,
}

/// Every error answer: `{"error": {"code": "...", "message": "..."}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error.
    pub error: ErrorDetail,
}

/// A machine-readable code and a human-readable message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// Stable snake_case code, e.g. `invalid_email`, `rate_limited`.
    pub code: String,
    /// What went wrong and what to do about it.
    pub message: String,
}
