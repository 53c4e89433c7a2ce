//! The database as the commands that must never create one open it (`mail-in`, `check`,
//! `backup`): a missing SQLite file or a database without turnpost's tables means the
//! configuration names another database than the server's, so nothing is created and the
//! caller says which path or URL it looked at. Only the server and `migrate` create and
//! migrate a database.

use std::path::PathBuf;

use crate::config::{describe_database, Config, ConfigError, DatabaseTarget};
use crate::db::{self, Backend, DbConnection, Pool};

/// `EX_CONFIG` (sysexits.h): a configuration error; retrying will not help until it is fixed.
pub const EX_CONFIG: u8 = 78;
/// `EX_TEMPFAIL` (sysexits.h): try again later.
pub const EX_TEMPFAIL: u8 = 75;

/// Why the configured database cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ExistingDatabaseError {
    /// The configuration itself is refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// No SQLite file where the configuration points.
    #[error(
        "no SQLite database at {}: the server has not created it yet (start it, or run \
         `turnpost-server migrate`), or the configuration names another database than the \
         server's (set database_url or data_dir as the server has them); nothing was created",
        .0.display()
    )]
    Missing(PathBuf),
    /// The database has no (or not all of) turnpost's tables.
    #[error(
        "the database {shown} is not migrated ({} due): it is not the server's, or run \
         `turnpost-server migrate` first",
        turnpost_shared::render::counted(*due, "migration", "migrations")
    )]
    Unmigrated {
        /// The database, without secrets.
        shown: String,
        /// Migrations due.
        due: usize,
    },
    /// The database does not answer.
    #[error("cannot reach the database {shown}: {message}")]
    Unreachable {
        /// The database, without secrets.
        shown: String,
        /// The backend's message.
        message: String,
    },
}

impl ExistingDatabaseError {
    /// The exit code of an operator's command (`check`, `backup`, `ratings`): 75 when the
    /// database may answer later, else 78. (`mail-in` answers 75 for every one of them.)
    #[must_use]
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Unreachable { .. } => EX_TEMPFAIL,
            Self::Config(_) | Self::Missing(_) | Self::Unmigrated { .. } => EX_CONFIG,
        }
    }
}

/// One connection to the configured database if it exists, and how many migrations are due.
///
/// # Errors
/// [`ExistingDatabaseError::Missing`] for an SQLite file that does not exist, `Unreachable`
/// when the database does not answer.
pub fn connect(config: &Config) -> Result<(DbConnection, usize), ExistingDatabaseError> {
    let target = config.database_target()?;
    if let DatabaseTarget::Sqlite(path) = &target {
        if !path.is_file() {
            return Err(ExistingDatabaseError::Missing(path.clone()));
        }
    }
    let unreachable = |message: String| ExistingDatabaseError::Unreachable {
        shown: describe_database(&target),
        message,
    };
    let mut conn = db::establish(&target).map_err(|e| unreachable(e.to_string()))?;
    let due = db::pending_migrations(&mut conn).map_err(|e| unreachable(e.to_string()))?;
    Ok((conn, due))
}

/// A pool of `size` on the configured database, which must exist and be migrated.
///
/// # Errors
/// [`ExistingDatabaseError`]: `Missing` or `Unmigrated` (nothing created), `Unreachable`.
pub fn open(config: &Config, size: u32) -> Result<(Pool, Backend), ExistingDatabaseError> {
    let (conn, due) = connect(config)?;
    let target = config.database_target()?;
    if due > 0 {
        return Err(ExistingDatabaseError::Unmigrated {
            shown: describe_database(&target),
            due,
        });
    }
    // The file exists, so the pool creates nothing.
    let pool = db::connect(&target, size).map_err(|e| ExistingDatabaseError::Unreachable {
        shown: describe_database(&target),
        message: e.to_string(),
    })?;
    Ok((pool, conn.backend()))
}
