//! `turnpost-server copy-to postgres://…`: moves an installation from its SQLite file to an
//! empty PostgreSQL database.
//!
//! One consistent snapshot: every table is read inside one SQLite read transaction (WAL keeps
//! it steady while a server goes on writing) and written inside one PostgreSQL transaction,
//! which commits only when every table's row count matches and every game's record replays to
//! its stored position; any failure leaves the target as empty as it was. The tables come from
//! the two catalogs (every table but diesel's migration list), so a table a migration adds is
//! copied too, and the two sides must agree on them. Sequences then continue after the copied
//! ids. "Empty" allows the rows the migrations themselves insert (the built-in bot accounts):
//! they are replaced by the source's own copy of them.

mod catalog;
mod replay_check;
mod table_copy;

use std::time::{Duration, Instant};

use diesel::Connection as _;

use crate::db::{self, DbConnection, DbError};

/// What a copy did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyReport {
    /// Every table copied, in the order written, with its rows.
    pub tables: Vec<(String, i64)>,
    /// Games whose record was replayed and found to match.
    pub games_replayed: usize,
    /// How long the copy took, checks included.
    pub took: Duration,
}

/// Why a copy did not happen (nothing was written to the target).
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    /// The configured database is not SQLite.
    #[error("copy-to reads the SQLite database, but this server is configured with {0}")]
    SourceNotSqlite(String),
    /// The target is not a PostgreSQL URL.
    #[error("copy-to writes to PostgreSQL: give a postgres:// or postgresql:// URL (got {0})")]
    TargetNotPostgres(String),
    /// The target cannot be reached.
    #[error("cannot connect to the target database {url}: {source}")]
    Connect {
        /// The URL, password masked.
        url: String,
        /// Why.
        source: diesel::ConnectionError,
    },
    /// The target already holds data.
    #[error(
        "the target database is not empty: table {table} has {}; copy-to writes only into an \
         empty database (create a new one, e.g. `createdb turnpost`, and give its URL)",
        turnpost_shared::render::counted(*rows, "row", "rows")
    )]
    NotEmpty {
        /// The first table found with rows.
        table: String,
        /// How many.
        rows: i64,
    },
    /// The two databases do not have the same tables or columns.
    #[error("the SQLite and PostgreSQL schemas differ: {0}")]
    Schema(String),
    /// A table's rows were not all copied.
    #[error(
        "table {table}: {} in SQLite but {target_rows} in PostgreSQL",
        turnpost_shared::render::counted(*source_rows, "row", "rows")
    )]
    Count {
        /// The table.
        table: String,
        /// Rows read.
        source_rows: i64,
        /// Rows found written.
        target_rows: i64,
    },
    /// A copied game does not replay to its stored position.
    #[error("game {game} does not replay to its stored position after the copy: {detail}")]
    Replay {
        /// The game.
        game: i64,
        /// What differs.
        detail: String,
    },
    /// Storage.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A query failed.
    #[error("database query failed: {0}")]
    Query(#[from] diesel::result::Error),
}

/// Copies every table of `source` (an SQLite connection) into the empty PostgreSQL database at
/// `target_url`, migrating it first.
///
/// # Errors
/// See [`CopyError`]; on any error nothing is committed to the target.
pub fn copy_to(source: &mut DbConnection, target_url: &str) -> Result<CopyReport, CopyError> {
    let started = Instant::now();
    let DbConnection::Sqlite(source) = source else {
        return Err(CopyError::SourceNotSqlite("PostgreSQL".to_owned()));
    };
    if !(target_url.starts_with("postgres://") || target_url.starts_with("postgresql://")) {
        return Err(CopyError::TargetNotPostgres(crate::config::redact_url(
            target_url,
        )));
    }
    let mut target = db::establish(&crate::config::DatabaseTarget::Postgres(
        target_url.to_owned(),
    ))
    .map_err(|source| CopyError::Connect {
        url: crate::config::redact_url(target_url),
        source,
    })?;
    db::run_migrations(&mut target)?;
    let (tables, games_replayed) = source.transaction(|source| {
        target.transaction(|target| -> Result<_, CopyError> {
            let DbConnection::Pg(pg) = &mut *target else {
                return Err(CopyError::TargetNotPostgres(crate::config::redact_url(
                    target_url,
                )));
            };
            let tables = copy_tables(source, pg)?;
            let games = replay_check::replay_every_game(target)?;
            Ok((tables, games))
        })
    })?;
    Ok(CopyReport {
        tables,
        games_replayed,
        took: started.elapsed(),
    })
}

/// Rows a migration inserts into `table` (as an SQL condition): a target holding only these is
/// empty. The bots migration seeds the built-in bot accounts.
fn seed_rows(table: &str) -> Option<&'static str> {
    (table == "accounts").then_some("bot_level IS NOT NULL")
}

/// Checks the target is empty and has the source's tables and columns, copies every table in
/// foreign-key order, compares the counts and continues the sequences.
fn copy_tables(
    source: &mut diesel::SqliteConnection,
    target: &mut diesel::PgConnection,
) -> Result<Vec<(String, i64)>, CopyError> {
    let tables = catalog::sqlite_tables(source)?;
    let target_tables = catalog::pg_tables(target)?;
    if tables != target_tables {
        let only_source: Vec<&String> = tables.difference(&target_tables).collect();
        let only_target: Vec<&String> = target_tables.difference(&tables).collect();
        return Err(CopyError::Schema(format!(
            "tables only in SQLite: {only_source:?}; only in PostgreSQL: {only_target:?} \
             (is one of them from another turnpost version?)"
        )));
    }
    let order = catalog::insert_order(target, &tables)?;
    for table in &order {
        let rows = table_copy::pg_count_beyond_seed(target, table, seed_rows(table))?;
        if rows > 0 {
            return Err(CopyError::NotEmpty {
                table: table.clone(),
                rows,
            });
        }
    }
    // The migrations' own rows go: the source has its copy of them, with the ids its other
    // rows name.
    for table in order.iter().rev() {
        table_copy::delete_all(target, table)?;
    }
    let mut copied = Vec::with_capacity(order.len());
    for table in &order {
        let columns = catalog::sqlite_columns(source, table)?;
        let mut sorted = columns.clone();
        sorted.sort();
        let mut target_columns = catalog::pg_columns(target, table)?;
        target_columns.sort();
        if sorted != target_columns {
            return Err(CopyError::Schema(format!(
                "table {table}: SQLite has columns {sorted:?}, PostgreSQL {target_columns:?}"
            )));
        }
        let written = table_copy::copy_table(source, target, table, &columns)?;
        let source_rows = table_copy::sqlite_count(source, table)?;
        let target_rows = table_copy::pg_count(target, table)?;
        if source_rows != target_rows || written != source_rows {
            return Err(CopyError::Count {
                table: table.clone(),
                source_rows,
                target_rows,
            });
        }
        copied.push((table.clone(), target_rows));
    }
    for (table, column) in catalog::pg_sequenced_columns(target)? {
        table_copy::continue_sequence(target, &table, &column)?;
    }
    Ok(copied)
}
