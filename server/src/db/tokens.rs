//! Queries on `api_tokens`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use crate::db::accounts::Account;

use super::schema::{accounts, api_tokens};
use super::{DbConnection, DbError};

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
    pub fn to_api(&self) -> turnpost_shared::api::TokenInfo {
        turnpost_shared::api::TokenInfo {
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

/// Inserts a token and reads it back.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewApiToken<'_>) -> Result<ApiToken, DbError> {
    diesel::insert_into(api_tokens::table)
        .values(new)
        .execute(conn)?;
    Ok(api_tokens::table
        .filter(api_tokens::token_hash.eq(new.token_hash))
        .select(ApiToken::as_select())
        .first(conn)?)
}

/// Finds the token with this hash and its account.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_hash(
    conn: &mut DbConnection,
    token_hash: &str,
) -> Result<Option<(ApiToken, Account)>, DbError> {
    // Every API request: on the backend's own connection.
    Ok(super::on_own_connection!(conn, own => api_tokens::table
        .inner_join(accounts::table)
        .filter(api_tokens::token_hash.eq(token_hash))
        .select((ApiToken::as_select(), Account::as_select()))
        .first(own)
        .optional())?)
}

/// Records a use of the token.
///
/// # Errors
/// [`DbError::Query`].
pub fn touch(conn: &mut DbConnection, id: i64, at: chrono::NaiveDateTime) -> Result<(), DbError> {
    diesel::update(api_tokens::table.find(id))
        .set(api_tokens::last_used_at.eq(Some(at)))
        .execute(conn)?;
    Ok(())
}

/// The account's tokens, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn list(conn: &mut DbConnection, account_id: i64) -> Result<Vec<ApiToken>, DbError> {
    Ok(api_tokens::table
        .filter(api_tokens::account_id.eq(account_id))
        .order(api_tokens::id.asc())
        .select(ApiToken::as_select())
        .load(conn)?)
}

/// Deletes one of the account's tokens; false if the account has no such token. Revoking a
/// token revokes the account's play links too (`crate::play_link`), in the same transaction.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete(conn: &mut DbConnection, account_id: i64, token_id: i64) -> Result<bool, DbError> {
    Ok(conn.transaction(|conn| {
        let n = diesel::delete(
            api_tokens::table
                .filter(api_tokens::id.eq(token_id))
                .filter(api_tokens::account_id.eq(account_id)),
        )
        .execute(conn)?;
        if n > 0 {
            diesel::update(accounts::table.find(account_id))
                .set(accounts::link_generation.eq(accounts::link_generation + 1))
                .execute(conn)?;
        }
        Ok::<_, diesel::result::Error>(n > 0)
    })?)
}
