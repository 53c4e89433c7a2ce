//! Queries on `accounts`.

use diesel::prelude::*;

use super::models::{Account, NewAccount};
use super::schema::accounts;
use super::{DbConnection, DbError};

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
