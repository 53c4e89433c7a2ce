//! The transactions every domain operation runs in (accounts, preferences, games). Each body
//! answers its own domain error (`AccountError`, `PreferenceError`, `GameError`, …), which
//! only `crate::http::error` turns into an HTTP answer.

use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::Connection as _;

use crate::db::{commit_bell, DbConnection, DbError};

/// Runs `body` in one transaction that serialises writers: on PostgreSQL an ordinary
/// transaction in which the body locks the rows it changes (`FOR UPDATE`); on SQLite a
/// transaction opened with `BEGIN IMMEDIATE`, which takes the database's write lock at once
/// (a deferred transaction that reads first could fail with `SQLITE_BUSY` when it upgrades).
/// The error type is the body's own (a domain error or a storage one).
///
/// Inside a transaction already (a caller that must commit its own row with the body's effect,
/// such as the record of a handled inbound mail) the body runs in a savepoint of it: its error
/// rolls back the body alone, and nothing commits before the caller's transaction does.
///
/// # Errors
/// The body's error (rolled back), or the failure to begin or commit.
pub fn write_with<T, E>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    if in_transaction(conn) {
        return conn.transaction::<T, E, _>(body);
    }
    // The outermost transaction: once it commits, the commit bell rings for what it wrote to
    // the log or the outbox (`commit_bell`); a rollback forgets that.
    let outcome = outermost(conn, body);
    match outcome {
        Ok(_) => commit_bell::committed(),
        Err(_) => commit_bell::rolled_back(),
    }
    outcome
}

/// [`write_with`] outside any transaction.
fn outermost<T, E>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<DbError> + From<diesel::result::Error>,
{
    if let DbConnection::Sqlite(sqlite) = &mut *conn {
        AnsiTransactionManager::begin_transaction_sql(sqlite, "BEGIN IMMEDIATE")
            .map_err(|e| E::from(DbError::Query(e)))?;
        return match body(conn) {
            Ok(value) => {
                match <DbConnection as diesel::Connection>::TransactionManager::commit_transaction(
                    conn,
                ) {
                    Ok(()) => Ok(value),
                    Err(e) => {
                        let _ = <DbConnection as diesel::Connection>::TransactionManager::rollback_transaction(conn);
                        Err(DbError::Query(e).into())
                    }
                }
            }
            Err(e) => {
                let _ =
                    <DbConnection as diesel::Connection>::TransactionManager::rollback_transaction(
                        conn,
                    );
                Err(e)
            }
        };
    }
    conn.transaction::<T, E, _>(body)
}

/// Whether `conn` is inside a transaction.
fn in_transaction(conn: &mut DbConnection) -> bool {
    <DbConnection as diesel::Connection>::TransactionManager::transaction_manager_status_mut(conn)
        .transaction_depth()
        .is_ok_and(|depth| depth.is_some())
}

/// Runs `body` in a read-only transaction, so what it reads is one consistent snapshot.
///
/// # Errors
/// The body's error.
pub fn read_with<T, E>(
    conn: &mut DbConnection,
    body: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    conn.transaction::<T, E, _>(body)
}
