//! Queries on `sign_in_codes`.

use chrono::NaiveDateTime;
use diesel::dsl::{Filter, Gt, IsNull};
use diesel::prelude::*;

use super::schema::sign_in_codes;
use super::{DbConnection, DbError};

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
    /// Hex SHA-256 of the sign-in link mailed with the code.
    pub link_hash: Option<String>,
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
    /// Hex SHA-256 of the sign-in link mailed with the code.
    pub link_hash: Option<&'a str>,
}

/// Retires every open code of the account (a new one supersedes them).
///
/// # Errors
/// [`DbError::Query`].
pub fn retire_open(
    conn: &mut DbConnection,
    account_id: i64,
    at: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(
        sign_in_codes::table
            .filter(sign_in_codes::account_id.eq(account_id))
            .filter(sign_in_codes::used_at.is_null()),
    )
    .set(sign_in_codes::used_at.eq(Some(at)))
    .execute(conn)?;
    Ok(())
}

/// Inserts a code.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewSignInCode<'_>) -> Result<(), DbError> {
    diesel::insert_into(sign_in_codes::table)
        .values(new)
        .execute(conn)?;
    Ok(())
}

/// On SQLite, writes `new` and takes it back at once, inside a savepoint: the storage work of
/// [`insert`] with nothing kept (the sign-in decoy, whose row names no account: its foreign key
/// refuses it at the end of the insert, which rolls back the same way). On PostgreSQL it does
/// nothing: there the refused insert costs more than a real one (the server raises and logs
/// the error; measured with `benches/sign_in_timing.rs`: the decoy then took 0.5 ms longer),
/// and the request's times were already within 0.05 ms without it.
///
/// # Errors
/// [`DbError::Query`] when the database failed otherwise.
pub fn insert_undone(conn: &mut DbConnection, new: &NewSignInCode<'_>) -> Result<(), DbError> {
    use diesel::result::{DatabaseErrorKind, Error};
    if matches!(conn, DbConnection::Pg(_)) {
        return Ok(());
    }
    let outcome = conn.transaction::<(), Error, _>(|conn| {
        diesel::insert_into(sign_in_codes::table)
            .values(new)
            .execute(conn)?;
        Err(Error::RollbackTransaction)
    });
    match outcome {
        Ok(())
        | Err(Error::RollbackTransaction)
        | Err(Error::DatabaseError(DatabaseErrorKind::ForeignKeyViolation, _)) => Ok(()),
        Err(error) => Err(error.into()),
    }
}

/// The account's newest code that is neither used nor expired.
///
/// # Errors
/// [`DbError::Query`].
pub fn current(
    conn: &mut DbConnection,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<Option<SignInCode>, DbError> {
    Ok(live(now)
        .filter(sign_in_codes::account_id.eq(account_id))
        .order(sign_in_codes::id.desc())
        .select(SignInCode::as_select())
        .first(conn)
        .optional()?)
}

/// Counts one guess if fewer than `max` were made; false if the code is used up (atomic, so
/// concurrent guesses cannot exceed `max`).
///
/// # Errors
/// [`DbError::Query`].
pub fn add_attempt(conn: &mut DbConnection, id: i64, max: i32) -> Result<bool, DbError> {
    let n = diesel::update(
        sign_in_codes::table
            .find(id)
            .filter(sign_in_codes::attempts.lt(max)),
    )
    .set(sign_in_codes::attempts.eq(sign_in_codes::attempts + 1))
    .execute(conn)?;
    Ok(n == 1)
}

/// Marks a code used; false if it was used concurrently.
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_used(conn: &mut DbConnection, id: i64, at: NaiveDateTime) -> Result<bool, DbError> {
    let n = diesel::update(
        sign_in_codes::table
            .find(id)
            .filter(sign_in_codes::used_at.is_null()),
    )
    .set(sign_in_codes::used_at.eq(Some(at)))
    .execute(conn)?;
    Ok(n == 1)
}

/// When the account's newest code expires, if it has any (for stale sign-ups).
///
/// # Errors
/// [`DbError::Query`].
pub fn latest_expiry(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Option<NaiveDateTime>, DbError> {
    Ok(sign_in_codes::table
        .filter(sign_in_codes::account_id.eq(account_id))
        .select(diesel::dsl::max(sign_in_codes::expires_at))
        .first(conn)?)
}

/// The live code whose sign-in link has this hash (not used, not expired, not locked).
///
/// # Errors
/// [`DbError::Query`].
pub fn by_link_hash(
    conn: &mut DbConnection,
    link_hash: &str,
    now: NaiveDateTime,
    max_attempts: i32,
) -> Result<Option<SignInCode>, DbError> {
    Ok(live(now)
        .filter(sign_in_codes::link_hash.eq(link_hash))
        .filter(sign_in_codes::attempts.lt(max_attempts))
        .select(SignInCode::as_select())
        .first(conn)
        .optional()?)
}

/// The codes neither used nor expired at `now`: the ones [`current`] and [`by_link_hash`] look in.
fn live(
    now: NaiveDateTime,
) -> Filter<
    Filter<sign_in_codes::table, IsNull<sign_in_codes::used_at>>,
    Gt<sign_in_codes::expires_at, NaiveDateTime>,
> {
    sign_in_codes::table
        .filter(sign_in_codes::used_at.is_null())
        .filter(sign_in_codes::expires_at.gt(now))
}
