//! Rows as Rust structs.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{accounts, api_tokens, mail_outbox, sign_in_codes};

/// An account row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = accounts)]
pub struct Account {
    /// Id.
    pub id: i64,
    /// Name as spelled at sign-up.
    pub name: String,
    /// Lower-cased name, unique.
    pub name_key: String,
    /// Email as given.
    pub email: String,
    /// Lower-cased email, unique.
    pub email_key: String,
    /// When a code sent to the email was first verified (None: sign-up not finished).
    pub verified_at: Option<NaiveDateTime>,
    /// Creation time.
    pub created_at: NaiveDateTime,
}

impl Account {
    /// The API view of this account.
    #[must_use]
    pub fn to_api(&self) -> turnpost_shared::Account {
        turnpost_shared::Account {
            id: self.id,
            name: self.name.clone(),
            email: self.email.clone(),
            created_at: super::rfc3339(self.created_at),
        }
    }
}

/// A new account.
#[derive(Debug, Insertable)]
#[diesel(table_name = accounts)]
pub struct NewAccount<'a> {
    /// Name as spelled.
    pub name: &'a str,
    /// Lower-cased name.
    pub name_key: &'a str,
    /// Email as given.
    pub email: &'a str,
    /// Lower-cased email.
    pub email_key: &'a str,
    /// Verified already (operator command) or not yet.
    pub verified_at: Option<NaiveDateTime>,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// An API token row (the secret itself is never stored).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = api_tokens)]
pub struct ApiToken {
    /// Id.
    pub id: i64,
    /// Owner.
    pub account_id: i64,
    /// Hex SHA-256 of the token.
    pub token_hash: String,
    /// Label.
    pub label: String,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// Last use, to the minute.
    pub last_used_at: Option<NaiveDateTime>,
}

impl ApiToken {
    /// The API view of this token.
    #[must_use]
    pub fn to_api(&self) -> turnpost_shared::TokenInfo {
        turnpost_shared::TokenInfo {
            id: self.id,
            label: self.label.clone(),
            created_at: super::rfc3339(self.created_at),
            last_used_at: self.last_used_at.map(super::rfc3339),
        }
    }
}

/// A new API token.
#[derive(Debug, Insertable)]
#[diesel(table_name = api_tokens)]
pub struct NewApiToken<'a> {
    /// Owner.
    pub account_id: i64,
    /// Hex SHA-256 of the token.
    pub token_hash: &'a str,
    /// Label.
    pub label: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// A one-time sign-in code row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = sign_in_codes)]
pub struct SignInCode {
    /// Id.
    pub id: i64,
    /// Account the code signs in to.
    pub account_id: i64,
    /// Hex SHA-256 of the code.
    pub code_hash: String,
    /// Wrong guesses so far.
    pub attempts: i32,
    /// End of validity.
    pub expires_at: NaiveDateTime,
    /// When it was used or superseded.
    pub used_at: Option<NaiveDateTime>,
    /// Creation time.
    pub created_at: NaiveDateTime,
}

/// A new sign-in code.
#[derive(Debug, Insertable)]
#[diesel(table_name = sign_in_codes)]
pub struct NewSignInCode<'a> {
    /// Account.
    pub account_id: i64,
    /// Hex SHA-256 of the code.
    pub code_hash: &'a str,
    /// End of validity.
    pub expires_at: NaiveDateTime,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// An outbox row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = mail_outbox)]
pub struct OutboxMail {
    /// Id.
    pub id: i64,
    /// `<…@domain>`, stable across retries.
    pub message_id: String,
    /// Recipient address.
    pub recipient: String,
    /// Subject.
    pub subject: String,
    /// Plain-text body.
    pub body_text: String,
    /// Message-ID this mail answers (threads).
    pub in_reply_to: Option<String>,
    /// `pending`, `sent` or `dead`.
    pub status: String,
    /// Delivery attempts so far.
    pub attempts: i32,
    /// Not before.
    pub next_attempt_at: NaiveDateTime,
    /// SQLite only: claimed by a worker until then.
    pub lease_until: Option<NaiveDateTime>,
    /// Last failure.
    pub last_error: Option<String>,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// Delivery time.
    pub sent_at: Option<NaiveDateTime>,
}

/// A new outbox row.
#[derive(Debug, Insertable)]
#[diesel(table_name = mail_outbox)]
pub struct NewOutboxMail<'a> {
    /// Message-ID.
    pub message_id: &'a str,
    /// Recipient.
    pub recipient: &'a str,
    /// Subject.
    pub subject: &'a str,
    /// Body.
    pub body_text: &'a str,
    /// Threading.
    pub in_reply_to: Option<&'a str>,
    /// `pending`.
    pub status: &'a str,
    /// Now.
    pub next_attempt_at: NaiveDateTime,
    /// Now.
    pub created_at: NaiveDateTime,
}
