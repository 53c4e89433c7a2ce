//! One sweeper at a time across server processes.

use diesel::sql_types::{BigInt, Bool};
use diesel::RunQueryDsl;

use crate::db::{DbConnection, DbError};

/// Advisory lock keys of the sweeps (arbitrary, fixed numbers).
pub const TIMEOUTS: i64 = 0x7475_726e_0001;
/// See [`TIMEOUTS`].
pub const REMINDERS: i64 = 0x7475_726e_0002;
/// See [`TIMEOUTS`].
pub const DIGESTS: i64 = 0x7475_726e_0003;

#[derive(diesel::QueryableByName)]
struct Locked {
    #[diesel(sql_type = Bool)]
    locked: bool,
}

/// Whether this transaction may run the sweep `key`: on PostgreSQL it takes a transaction-level
/// advisory lock, and another process holding it means "skip this round" (the rows it works on
/// are also locked `FOR UPDATE SKIP LOCKED`, and marked done in the same transaction). On SQLite
/// the caller's `BEGIN IMMEDIATE` already excludes every other writer.
///
/// # Errors
/// [`DbError::Query`].
pub fn acquire(conn: &mut DbConnection, key: i64) -> Result<bool, DbError> {
    match conn {
        DbConnection::Pg(pg) => {
            let row: Locked = diesel::sql_query("SELECT pg_try_advisory_xact_lock($1) AS locked")
                .bind::<BigInt, _>(key)
                .get_result(pg)?;
            Ok(row.locked)
        }
        DbConnection::Sqlite(_) => Ok(true),
    }
}
