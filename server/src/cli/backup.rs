//! `turnpost-server backup FILE`: a consistent copy of the SQLite database, taken while the
//! server runs. `VACUUM INTO` reads one snapshot (WAL lets writers go on meanwhile) and writes
//! a compact new database; the copy is then opened and checked. PostgreSQL has `pg_dump`.

use std::path::{Path, PathBuf};

use diesel::connection::SimpleConnection as _;
use diesel::prelude::*;

use crate::cli::existing_database::{self, ExistingDatabaseError};
use crate::config::{Config, DatabaseTarget};

/// Why no backup was written.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The database cannot be opened (or is not there).
    #[error(transparent)]
    Database(#[from] ExistingDatabaseError),
    /// The configured database is PostgreSQL.
    #[error(
        "backup copies an SQLite database; this configuration uses PostgreSQL: use pg_dump \
         (see README, Backups)"
    )]
    Postgres,
    /// The backup file cannot be created (it exists, or its directory is missing).
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The backup file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// SQLite failed to write or check the copy (the partial file is removed).
    #[error("the backup to {} failed: {message}", path.display())]
    Copy {
        /// The backup file.
        path: PathBuf,
        /// SQLite's message.
        message: String,
    },
}

/// What a finished backup holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Backup {
    /// The database copied.
    pub source: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
}

#[derive(QueryableByName)]
struct Check {
    #[diesel(sql_type = diesel::sql_types::Text)]
    integrity_check: String,
}

/// Copies the configured SQLite database to `file` (created 0600; it must not exist) and checks
/// the copy with `PRAGMA integrity_check`.
///
/// # Errors
/// [`BackupError`]; a failed copy leaves no file behind.
pub fn write(config: &Config, file: &Path) -> Result<Backup, BackupError> {
    let source = match config
        .database_target()
        .map_err(ExistingDatabaseError::from)?
    {
        DatabaseTarget::Sqlite(path) => path,
        DatabaseTarget::Postgres(_) => return Err(BackupError::Postgres),
    };
    let (conn, _) = existing_database::connect(config)?;
    let crate::db::DbConnection::Sqlite(mut conn) = conn else {
        return Err(BackupError::Postgres);
    };
    // An empty file of our own mode, which VACUUM INTO then fills: the copy holds secrets.
    crate::private_files::create_empty(file).map_err(|source| BackupError::Create {
        path: file.to_owned(),
        source,
    })?;
    let copied = copy(&mut conn, file);
    match copied {
        Ok(bytes) => Ok(Backup { source, bytes }),
        Err(message) => {
            let _ = std::fs::remove_file(file);
            Err(BackupError::Copy {
                path: file.to_owned(),
                message,
            })
        }
    }
}

fn copy(conn: &mut SqliteConnection, file: &Path) -> Result<u64, String> {
    let target = file
        .to_str()
        .ok_or_else(|| "the backup path is not valid UTF-8".to_owned())?;
    conn.batch_execute("PRAGMA busy_timeout = 10000;")
        .map_err(|e| e.to_string())?;
    diesel::sql_query("VACUUM INTO ?")
        .bind::<diesel::sql_types::Text, _>(target)
        .execute(conn)
        .map_err(|e| e.to_string())?;
    let mut copy = SqliteConnection::establish(target).map_err(|e| e.to_string())?;
    let checks = diesel::sql_query("PRAGMA integrity_check")
        .load::<Check>(&mut copy)
        .map_err(|e| e.to_string())?;
    let verdict: Vec<String> = checks.into_iter().map(|c| c.integrity_check).collect();
    if verdict != ["ok"] {
        return Err(format!(
            "the copy fails its integrity check: {}",
            verdict.join("; ")
        ));
    }
    std::fs::metadata(file)
        .map(|meta| meta.len())
        .map_err(|e| e.to_string())
}
