//! Migrating a database safely while other processes start on it: one process migrates at a
//! time (PostgreSQL: an advisory lock on a fixed key, held by the migrating connection;
//! SQLite: the database's write lock, taken before anything is read), and a database migrated
//! by a newer binary (a migration this one does not know) is refused unless the operator
//! allows it, since this binary's queries may no longer fit its tables.

use diesel::migration::MigrationSource;
use diesel::RunQueryDsl;
use diesel_migrations::MigrationHarness;

use super::{DbConnection, DbError, PG_MIGRATIONS, SQLITE_MIGRATIONS};

/// The advisory lock's key: "turnpost" in ASCII, so no other application on a shared
/// PostgreSQL server takes it by chance.
const LOCK_KEY: i64 = 0x7475_726e_706f_7374;

/// diesel's bookkeeping table: one row per applied migration.
const TABLE: &str = "__diesel_schema_migrations";

/// What to do with a database that has migrations this binary does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Newer {
    /// Refuse it ([`DbError::Newer`]).
    #[default]
    Refuse,
    /// Use it anyway (`--allow-newer-database`): the operator knows the newer migrations only
    /// add what this binary ignores.
    Allow,
}

/// How a starting process treats the database's migrations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Policy {
    /// Leave migrating to `turnpost-server migrate` (`serve --no-migrate`): refuse to start
    /// when any is due.
    pub no_migrate: bool,
    /// A database a newer binary migrated.
    pub newer: Newer,
}

/// Brings the database to this binary's migrations as `policy` asks; how many ran.
///
/// # Errors
/// As [`run`]; [`DbError::Due`] when `no_migrate` and migrations are due.
pub fn apply(conn: &mut DbConnection, policy: Policy) -> Result<usize, DbError> {
    if !policy.no_migrate {
        return run(conn, policy.newer);
    }
    check_newer(conn, policy.newer)?;
    match super::pending_migrations(conn)? {
        0 => Ok(0),
        due => Err(DbError::Due(due)),
    }
}

/// Runs the pending migrations with no other process migrating at the same time, after
/// checking that the database knows no migration this binary does not; how many ran.
///
/// # Errors
/// [`DbError::Newer`] for a database a newer binary migrated (unless `newer` allows it),
/// [`DbError::Migration`] or [`DbError::Query`] when a migration or the lock fails.
pub fn run(conn: &mut DbConnection, newer: Newer) -> Result<usize, DbError> {
    match conn {
        DbConnection::Pg(pg) => {
            // Session-level: held across diesel's own transaction per migration, and released
            // by the server if this process dies holding it.
            diesel::sql_query("SELECT pg_advisory_lock($1)")
                .bind::<diesel::sql_types::BigInt, _>(LOCK_KEY)
                .execute(pg)?;
            let ran = migrate_pg(pg, newer);
            let unlocked = diesel::sql_query("SELECT pg_advisory_unlock($1)")
                .bind::<diesel::sql_types::BigInt, _>(LOCK_KEY)
                .execute(pg);
            let ran = ran?;
            unlocked?;
            Ok(ran)
        }
        // BEGIN IMMEDIATE: the write lock before the first read, so a second process waits
        // (its busy timeout) and then finds nothing due; each migration is a savepoint inside.
        DbConnection::Sqlite(sqlite) => sqlite.immediate_transaction(|sqlite| {
            refuse_newer(
                &applied_versions_sqlite(sqlite)?,
                &known::<diesel::sqlite::Sqlite>(&SQLITE_MIGRATIONS)?,
                newer,
            )?;
            sqlite
                .run_pending_migrations(SQLITE_MIGRATIONS)
                .map(|ran| ran.len())
                .map_err(|e| DbError::Migration(e.to_string()))
        }),
    }
}

fn migrate_pg(pg: &mut diesel::PgConnection, newer: Newer) -> Result<usize, DbError> {
    refuse_newer(
        &applied_versions_pg(pg)?,
        &known::<diesel::pg::Pg>(&PG_MIGRATIONS)?,
        newer,
    )?;
    pg.run_pending_migrations(PG_MIGRATIONS)
        .map(|ran| ran.len())
        .map_err(|e| DbError::Migration(e.to_string()))
}

/// Checks, writing nothing, that the database has no migration this binary does not know.
///
/// # Errors
/// [`DbError::Newer`] naming the unknown migrations (unless `newer` allows them),
/// [`DbError::Query`] when the database cannot be read.
pub fn check_newer(conn: &mut DbConnection, newer: Newer) -> Result<(), DbError> {
    let (applied, known) = versions(conn)?;
    refuse_newer(&applied, &known, newer)
}

/// How many of this binary's migrations the database has not had, writing nothing (diesel's
/// own check would first create its bookkeeping table).
///
/// # Errors
/// [`DbError::Query`] or [`DbError::Migration`] when the database cannot be read.
pub fn pending(conn: &mut DbConnection) -> Result<usize, DbError> {
    let (applied, known) = versions(conn)?;
    Ok(known
        .iter()
        .filter(|version| !applied.contains(version))
        .count())
}

/// The versions the database has applied, and the versions built into this binary.
fn versions(conn: &mut DbConnection) -> Result<(Vec<String>, Vec<String>), DbError> {
    match conn {
        DbConnection::Pg(pg) => Ok((
            applied_versions_pg(pg)?,
            known::<diesel::pg::Pg>(&PG_MIGRATIONS)?,
        )),
        DbConnection::Sqlite(sqlite) => Ok((
            applied_versions_sqlite(sqlite)?,
            known::<diesel::sqlite::Sqlite>(&SQLITE_MIGRATIONS)?,
        )),
    }
}

/// [`DbError::Newer`] when `applied` holds a version outside `known` and `newer` refuses it.
fn refuse_newer(applied: &[String], known: &[String], newer: Newer) -> Result<(), DbError> {
    let unknown: Vec<String> = applied
        .iter()
        .filter(|version| !known.contains(version))
        .cloned()
        .collect();
    if unknown.is_empty() {
        return Ok(());
    }
    match newer {
        Newer::Refuse => Err(DbError::Newer(unknown)),
        Newer::Allow => {
            tracing::warn!(
                unknown = unknown.join(", "),
                "the database has migrations this binary does not know; serving anyway \
                 (--allow-newer-database)"
            );
            Ok(())
        }
    }
}

#[derive(diesel::QueryableByName)]
struct Version {
    #[diesel(sql_type = diesel::sql_types::Text)]
    version: String,
}

#[derive(diesel::QueryableByName)]
struct Found {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    found: i64,
}

/// The applied versions, none when the bookkeeping table is not there yet (not created here:
/// a check writes nothing).
fn applied_versions_pg(pg: &mut diesel::PgConnection) -> Result<Vec<String>, DbError> {
    let tables = diesel::sql_query(
        "SELECT count(*) AS found FROM information_schema.tables \
         WHERE table_schema = current_schema() AND table_name = $1",
    )
    .bind::<diesel::sql_types::Text, _>(TABLE)
    .get_result::<Found>(pg)?;
    if tables.found == 0 {
        return Ok(Vec::new());
    }
    let rows = diesel::sql_query(format!("SELECT version FROM {TABLE}")).load::<Version>(pg)?;
    Ok(rows.into_iter().map(|row| row.version).collect())
}

/// [`applied_versions_pg`] for SQLite.
fn applied_versions_sqlite(sqlite: &mut diesel::SqliteConnection) -> Result<Vec<String>, DbError> {
    let tables = diesel::sql_query(
        "SELECT count(*) AS found FROM sqlite_master WHERE type = 'table' AND name = ?",
    )
    .bind::<diesel::sql_types::Text, _>(TABLE)
    .get_result::<Found>(sqlite)?;
    if tables.found == 0 {
        return Ok(Vec::new());
    }
    let rows = diesel::sql_query(format!("SELECT version FROM {TABLE}")).load::<Version>(sqlite)?;
    Ok(rows.into_iter().map(|row| row.version).collect())
}

/// The versions of the migrations in `source`, as diesel stores them.
fn known<Backend: diesel::backend::Backend>(
    source: &impl MigrationSource<Backend>,
) -> Result<Vec<String>, DbError> {
    source
        .migrations()
        .map(|all| {
            all.iter()
                .map(|migration| migration.name().version().to_string())
                .collect()
        })
        .map_err(|e| DbError::Migration(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{refuse_newer, Newer};

    #[test]
    fn unknown_versions_are_refused_unless_allowed() {
        let known = vec!["1".to_owned(), "2".to_owned()];
        assert!(refuse_newer(&["1".to_owned()], &known, Newer::Refuse).is_ok());
        let refused = refuse_newer(&["1".to_owned(), "9".to_owned()], &known, Newer::Refuse);
        assert!(
            matches!(&refused, Err(super::DbError::Newer(unknown)) if unknown == &["9".to_owned()]),
            "{refused:?}"
        );
        assert!(refuse_newer(&["9".to_owned()], &known, Newer::Allow).is_ok());
    }
}
