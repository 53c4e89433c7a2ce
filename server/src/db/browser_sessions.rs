//! Queries on `browser_sessions`.

use chrono::NaiveDateTime;
use diesel::dsl::{Eq, Filter};
use diesel::prelude::*;

use super::accounts::Account;

use super::schema::{accounts, browser_sessions};
use super::{DbConnection, DbError};

/// A signed-in browser (the session cookie's secret is stored hashed).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = browser_sessions)]
pub struct BrowserSession {
    /// Id.
    pub id: i64,
    /// The account signed in.
    pub account_id: i64,
    /// Hex SHA-256 of the cookie's secret.
    pub secret_hash: String,
    /// Which browser, for the list of sessions (its user agent, shortened).
    pub label: String,
    /// When it signed in.
    pub created_at: NaiveDateTime,
    /// When it was last used (noted at most once a minute).
    pub last_used_at: NaiveDateTime,
}

/// A new browser session.
#[derive(Debug, Insertable)]
#[diesel(table_name = browser_sessions)]
pub struct NewBrowserSession<'a> {
    /// The account signed in.
    pub account_id: i64,
    /// Hex SHA-256 of the cookie's secret.
    pub secret_hash: &'a str,
    /// Which browser.
    pub label: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
    /// Now.
    pub last_used_at: NaiveDateTime,
}

/// Inserts a session and reads it back.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(
    conn: &mut DbConnection,
    new: &NewBrowserSession<'_>,
) -> Result<BrowserSession, DbError> {
    diesel::insert_into(browser_sessions::table)
        .values(new)
        .execute(conn)?;
    Ok(with_hash(new.secret_hash)
        .select(BrowserSession::as_select())
        .first(conn)?)
}

/// The session with this secret hash and its account.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_hash(
    conn: &mut DbConnection,
    secret_hash: &str,
) -> Result<Option<(BrowserSession, Account)>, DbError> {
    Ok(with_hash(secret_hash)
        .inner_join(accounts::table)
        .select((BrowserSession::as_select(), Account::as_select()))
        .first(conn)
        .optional()?)
}

/// Records a use of the session.
///
/// # Errors
/// [`DbError::Query`].
pub fn touch(conn: &mut DbConnection, id: i64, at: NaiveDateTime) -> Result<(), DbError> {
    diesel::update(browser_sessions::table.find(id))
        .set(browser_sessions::last_used_at.eq(at))
        .execute(conn)?;
    Ok(())
}

/// The account's sessions, newest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn list(conn: &mut DbConnection, account_id: i64) -> Result<Vec<BrowserSession>, DbError> {
    Ok(of_account(account_id)
        .order(browser_sessions::id.desc())
        .select(BrowserSession::as_select())
        .load(conn)?)
}

/// Deletes one of the account's sessions; false if the account has no such session.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete(conn: &mut DbConnection, account_id: i64, id: i64) -> Result<bool, DbError> {
    let n =
        diesel::delete(of_account(account_id).filter(browser_sessions::id.eq(id))).execute(conn)?;
    Ok(n > 0)
}

/// Deletes every session of the account; how many there were.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_all(conn: &mut DbConnection, account_id: i64) -> Result<usize, DbError> {
    Ok(diesel::delete(of_account(account_id)).execute(conn)?)
}

/// The account's sessions: the rows [`list`], [`delete`] and [`delete_all`] narrow.
fn of_account(
    account_id: i64,
) -> Filter<browser_sessions::table, Eq<browser_sessions::account_id, i64>> {
    browser_sessions::table.filter(browser_sessions::account_id.eq(account_id))
}

/// The session whose secret hashes to `secret_hash` (the hash is unique).
fn with_hash(
    secret_hash: &str,
) -> Filter<browser_sessions::table, Eq<browser_sessions::secret_hash, &str>> {
    browser_sessions::table.filter(browser_sessions::secret_hash.eq(secret_hash))
}
