//! The server's own secrets (the keys that sign unsubscribe links and reply addresses), one row
//! each, made by whichever process asks first and then read by every process.

use diesel::prelude::*;

use super::schema::server_secrets;
use super::{DbConnection, DbError};

/// The shared secret called `name`, created from `fresh` by the first process that asks.
///
/// # Errors
/// [`DbError::Query`].
pub fn get_or_create(conn: &mut DbConnection, name: &str, fresh: &str) -> Result<String, DbError> {
    // Whoever inserts first wins; everyone then reads the same value.
    let inserted = diesel::insert_into(server_secrets::table)
        .values((
            server_secrets::name.eq(name),
            server_secrets::value.eq(fresh),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => {}
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => {}
        Err(e) => return Err(e.into()),
    }
    Ok(server_secrets::table
        .find(name)
        .select(server_secrets::value)
        .first(conn)?)
}
