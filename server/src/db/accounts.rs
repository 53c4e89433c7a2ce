//! Queries on `accounts`.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::accounts;
use super::{DbConnection, DbError};

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
    /// The level of a built-in bot account (1-5); None for people.
    pub bot_level: Option<i32>,
    /// Signs the account's play links; revoking an API token increments it, so the links and
    /// play cookies issued before stop working (`crate::play_link`).
    pub link_generation: i32,
    /// Whether its owner marked it as an engine account: an outside program plays its moves
    /// (`turnpost bot run`), and its pages say so.
    pub engine: bool,
}

impl Account {
    /// Whether this is a built-in bot account (it cannot sign in and receives no mail).
    #[must_use]
    pub fn is_bot(&self) -> bool {
        self.bot_level.is_some()
    }

    /// The API view of this account.
    #[must_use]
    pub fn to_api(&self) -> turnpost_shared::api::Account {
        turnpost_shared::api::Account {
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

/// Advisory lock key of sign-ups (an arbitrary, fixed number).
const SIGN_UPS: i64 = 0x7475_726e_0101;

/// Serialises sign-ups for the rest of the transaction. A sign-up reads the accounts holding a
/// name and an address, then deletes or replaces pending ones: two at once on PostgreSQL could
/// each act on a row the other just deleted (a foreign-key failure, answered 500). Sign-ups are
/// rare, so one lock for all of them costs nothing. SQLite's `BEGIN IMMEDIATE` already
/// serialises every writer.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_sign_ups(conn: &mut DbConnection) -> Result<(), DbError> {
    if let DbConnection::Pg(pg) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock($1)")
            .bind::<diesel::sql_types::BigInt, _>(SIGN_UPS)
            .execute(pg)?;
    }
    Ok(())
}

/// Looks an account up by lower-cased email.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_email_key(conn: &mut DbConnection, email_key: &str) -> Result<Option<Account>, DbError> {
    Ok(accounts::table
        .filter(accounts::email_key.eq(email_key))
        .select(Account::as_select())
        .first(conn)
        .optional()?)
}

/// Looks an account up by lower-cased name.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_name_key(conn: &mut DbConnection, name_key: &str) -> Result<Option<Account>, DbError> {
    // No name holds a NUL, and PostgreSQL refuses one in a query (a 500 for a name in a URL).
    if name_key.contains('\0') {
        return Ok(None);
    }
    Ok(accounts::table
        .filter(accounts::name_key.eq(name_key))
        .select(Account::as_select())
        .first(conn)
        .optional()?)
}

/// Looks an account up by id.
///
/// # Errors
/// [`DbError::Query`].
pub fn by_id(conn: &mut DbConnection, id: i64) -> Result<Option<Account>, DbError> {
    Ok(accounts::table
        .find(id)
        .select(Account::as_select())
        .first(conn)
        .optional()?)
}

/// Inserts an account and reads it back.
///
/// # Errors
/// [`DbError::Query`]; a taken name or email is a unique violation
/// ([`DbError::is_unique_violation`]).
pub fn insert(conn: &mut DbConnection, new: &NewAccount<'_>) -> Result<Account, DbError> {
    diesel::insert_into(accounts::table)
        .values(new)
        .execute(conn)?;
    Ok(accounts::table
        .filter(accounts::name_key.eq(new.name_key))
        .select(Account::as_select())
        .first(conn)?)
}

/// Deletes an account (its tokens and codes go with it).
///
/// # Errors
/// [`DbError::Query`].
pub fn delete(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    diesel::delete(accounts::table.find(id)).execute(conn)?;
    Ok(())
}

/// Marks the account's email as verified, if it was not yet.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_verified(
    conn: &mut DbConnection,
    id: i64,
    at: chrono::NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(
        accounts::table
            .find(id)
            .filter(accounts::verified_at.is_null()),
    )
    .set(accounts::verified_at.eq(Some(at)))
    .execute(conn)?;
    Ok(())
}

/// Revokes every play link and play cookie of the account issued so far: they are signed
/// with its link generation (`crate::play_link`), which this increments. Reply addresses are
/// signed with it too and go with them; mails composed from now on carry fresh ones.
///
/// # Errors
/// [`DbError::Query`].
pub fn revoke_play_links(conn: &mut DbConnection, id: i64) -> Result<(), DbError> {
    diesel::update(accounts::table.find(id))
        .set(accounts::link_generation.eq(accounts::link_generation + 1))
        .execute(conn)?;
    Ok(())
}

/// Marks the account as an engine account, or as a person's again.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_engine(conn: &mut DbConnection, id: i64, engine: bool) -> Result<(), DbError> {
    diesel::update(accounts::table.find(id))
        .set(accounts::engine.eq(engine))
        .execute(conn)?;
    Ok(())
}
