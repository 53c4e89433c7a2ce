//! Storage: one diesel connection type over PostgreSQL and SQLite, an r2d2 pool, embedded
//! migrations per backend, and one file of query functions per table group.
//!
//! Every query runs on a pooled connection inside `web::block` (or another blocking thread);
//! every domain operation is one transaction.
//!
//! Rows live beside the queries of their table: a table group's file declares its row types
//! (`Queryable` to read, `New…` to insert) with its queries, and a group that is a folder keeps
//! them in its `rows.rs` (`games/rows.rs`, `outbox/rows.rs`), re-exported by the group. Import
//! a row from its table group (`db::accounts::Account`, `db::games::MoveRow`).

pub mod accounts;
pub mod bots;
pub mod browser_sessions;
pub mod clocks;
pub mod codes;
pub mod commit_bell;
pub mod conditional;
mod conflict_or_storage;
mod delivery_queue;
pub mod events;
pub mod games;
pub mod inbound;
pub mod mail_in_deliveries;
pub mod messages;
pub mod migrate;
pub mod move_write;
pub mod notifications;
pub mod open_seats;
pub mod outbox;
mod own_connection;
pub mod preference_columns;
pub mod push;
pub mod queue_vacuum;
pub mod ratings;
pub mod rematches;
pub mod schema;
mod seat_set;
mod sent_reminders;
pub mod server_secrets;
mod text_column;
pub mod tokens;
pub mod tournament_games;
pub mod tournament_pairings;
pub mod tournaments;
pub mod transaction;
pub mod webhooks;

pub(crate) use conflict_or_storage::conflict_or_storage;
pub(crate) use own_connection::on_own_connection;
pub use seat_set::{BadSeatSet, SeatSet};
pub use sent_reminders::{ClockNotices, UnknownClockNotices};
pub(crate) use text_column::text_column;
pub use text_column::{Stored, StoredOption, TextValue};

use std::ops::{Deref, DerefMut};
use std::time::{Duration, Instant};

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{CustomizeConnection, ManageConnection, PooledConnection, R2D2Connection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

use crate::config::DatabaseTarget;

/// A connection to either backend. `match` on it for the few backend-specific queries.
#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    /// PostgreSQL.
    Pg(diesel::PgConnection),
    /// SQLite (bundled libsqlite3).
    Sqlite(diesel::SqliteConnection),
}

/// The connection pool.
pub type Pool = diesel::r2d2::Pool<DbManager>;
/// A connection checked out of the pool.
pub type PooledConn = PooledConnection<DbManager>;

/// Opens connections for the pool on one known backend. (The derived
/// `MultiConnection::establish` tries every backend in turn, so a PostgreSQL URL whose server is
/// down would be handed to SQLite as a file name, and the real error would be lost.)
#[derive(Debug, Clone)]
pub struct DbManager {
    target: DatabaseTarget,
}

impl DbManager {
    /// A manager for `target`.
    #[must_use]
    pub fn new(target: DatabaseTarget) -> Self {
        Self { target }
    }
}

/// Opens one connection to `target`.
///
/// # Errors
/// The backend's connection error.
pub fn establish(target: &DatabaseTarget) -> diesel::ConnectionResult<DbConnection> {
    match target {
        DatabaseTarget::Postgres(url) => {
            diesel::PgConnection::establish(&without_gss_encryption(url)).map(DbConnection::Pg)
        }
        DatabaseTarget::Sqlite(path) => {
            let path = path.to_str().ok_or_else(|| {
                diesel::ConnectionError::InvalidConnectionUrl(
                    "the SQLite path is not valid UTF-8".into(),
                )
            })?;
            diesel::SqliteConnection::establish(path).map(DbConnection::Sqlite)
        }
    }
}

/// `url` with `gssencmode=disable` unless it names a `gssencmode` itself. libpq tries GSSAPI
/// encryption first by default (`prefer`), which starts Kerberos in the process; Kerberos's
/// exit handlers then abort a process whose other threads are still connecting (seen in the
/// tests: "k5_mutex_lock: Assertion `r == 0' failed", SIGABRT after every test had passed).
/// An operator who wants GSSAPI encryption says so in the URL.
fn without_gss_encryption(url: &str) -> std::borrow::Cow<'_, str> {
    if url.contains("gssencmode") {
        return url.into();
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let joint = if url.contains('?') { '&' } else { '?' };
        format!("{url}{joint}gssencmode=disable").into()
    } else {
        // The keyword/value form: `host=… dbname=…`.
        format!("{url} gssencmode=disable").into()
    }
}

/// How long after a connection went back to the pool healthy it is handed out again without a
/// round trip to check it (HikariCP's "alive bypass window", and its default). Under load every
/// checkout falls in it, which saves one of the few round trips a move costs; a connection the
/// server dropped in that half second fails its first query, which answers a storage error and
/// marks it broken, as a failure between the check and the query always could.
const VALIDATION_BYPASS: Duration = Duration::from_millis(500);

/// A connection as the pool keeps it: the connection and when it last went back healthy.
pub struct PoolConnection {
    conn: DbConnection,
    returned_at: Option<Instant>,
}

impl Deref for PoolConnection {
    type Target = DbConnection;

    fn deref(&self) -> &DbConnection {
        &self.conn
    }
}

impl DerefMut for PoolConnection {
    fn deref_mut(&mut self) -> &mut DbConnection {
        &mut self.conn
    }
}

impl ManageConnection for DbManager {
    type Connection = PoolConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<PoolConnection, diesel::r2d2::Error> {
        let conn = establish(&self.target).map_err(diesel::r2d2::Error::ConnectionError)?;
        Ok(PoolConnection {
            conn,
            returned_at: None,
        })
    }

    fn is_valid(&self, conn: &mut PoolConnection) -> Result<(), diesel::r2d2::Error> {
        if conn
            .returned_at
            .is_some_and(|at| at.elapsed() < VALIDATION_BYPASS)
        {
            return Ok(());
        }
        conn.conn.ping().map_err(diesel::r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut PoolConnection) -> bool {
        if std::thread::panicking() || conn.conn.is_broken() {
            return true;
        }
        conn.returned_at = Some(Instant::now());
        false
    }
}

/// Migrations for PostgreSQL, embedded from `migrations/postgres`.
pub const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/postgres");
/// Migrations for SQLite, embedded from `migrations/sqlite`.
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../migrations/sqlite");

/// Which backend a pool talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// PostgreSQL.
    Postgres,
    /// SQLite.
    Sqlite,
}

impl Backend {
    /// `"postgres"` or `"sqlite"`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Postgres => "postgres",
            Self::Sqlite => "sqlite",
        }
    }
}

impl DbConnection {
    /// The backend of this connection.
    #[must_use]
    pub fn backend(&self) -> Backend {
        match self {
            Self::Pg(_) => Backend::Postgres,
            Self::Sqlite(_) => Backend::Sqlite,
        }
    }
}

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// A query failed.
    #[error("database query failed: {0}")]
    Query(#[from] diesel::result::Error),
    /// No connection could be had from the pool.
    #[error("no database connection available: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    /// Migrations failed.
    #[error("database migration failed: {0}")]
    Migration(String),
    /// The database has migrations this binary does not know: a newer version migrated it.
    #[error(
        "the database was migrated by a newer turnpost-server (unknown {}: {}): install that \
         version or newer, or restore the backup taken before the upgrade; \
         --allow-newer-database serves anyway",
        if .0.len() == 1 { "migration" } else { "migrations" },
        .0.join(", ")
    )]
    Newer(Vec<String>),
    /// `--no-migrate`, and migrations are due.
    #[error(
        "{} due and --no-migrate given: run `turnpost-server migrate` first",
        turnpost_shared::render::counted(*.0, "migration is", "migrations are")
    )]
    Due(usize),
    /// The SQLite file or its directory could not be created.
    #[error("cannot create {path}: {source}")]
    Directory {
        /// The directory or file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A stored value the code cannot read (a bug or a hand-edited row).
    #[error("stored data is not readable: {0}")]
    Corrupt(String),
}

impl DbError {
    /// Whether this is a unique-constraint violation (a concurrent duplicate).
    #[must_use]
    pub fn is_unique_violation(&self) -> bool {
        matches!(
            self,
            Self::Query(diesel::result::Error::DatabaseError(
                diesel::result::DatabaseErrorKind::UniqueViolation,
                _
            ))
        )
    }
}

/// Sets SQLite pragmas on every new connection: WAL, a busy timeout, foreign keys.
#[derive(Debug, Clone, Copy)]
struct SqlitePragmas;

impl CustomizeConnection<PoolConnection, diesel::r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut PoolConnection) -> Result<(), diesel::r2d2::Error> {
        if let DbConnection::Sqlite(sqlite) = &mut conn.conn {
            sqlite
                .batch_execute(
                    // The busy timeout first: switching to WAL takes a lock too, and another
                    // process starting on the same file may hold it (migration_safety).
                    "PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; \
                     PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
                )
                .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// Opens a pool on `target` (creating the SQLite file's directory if needed). Does not migrate.
///
/// # Errors
/// [`DbError::Directory`] or [`DbError::Pool`] when the database cannot be reached.
pub fn connect(target: &DatabaseTarget, size: u32) -> Result<Pool, DbError> {
    if let DatabaseTarget::Sqlite(path) = target {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            crate::private_files::create_dir(dir).map_err(|source| DbError::Directory {
                path: dir.display().to_string(),
                source,
            })?;
        }
        crate::private_files::ensure_file(path).map_err(|source| DbError::Directory {
            path: path.display().to_string(),
            source,
        })?;
    }
    let manager = DbManager::new(target.clone());
    let pool = diesel::r2d2::Pool::builder()
        .max_size(size)
        .min_idle(Some(0))
        .connection_timeout(Duration::from_secs(10))
        .connection_customizer(Box::new(SqlitePragmas))
        .build(manager)?;
    Ok(pool)
}

/// Runs pending migrations for the connection's backend, one process at a time, refusing a
/// database a newer binary migrated ([`migrate::run`]); returns how many ran.
///
/// # Errors
/// [`DbError::Migration`] with the failing migration's message, [`DbError::Newer`].
pub fn run_migrations(conn: &mut DbConnection) -> Result<usize, DbError> {
    migrate::run(conn, migrate::Newer::Refuse)
}

/// How many migrations are due, writing nothing: diesel's own check first creates its
/// bookkeeping table, so a database without that table is answered here (every migration
/// is due) without asking diesel.
///
/// # Errors
/// [`DbError::Query`] or [`DbError::Migration`] when the database cannot be read.
pub fn pending_migrations(conn: &mut DbConnection) -> Result<usize, DbError> {
    migrate::pending(conn)
}

/// Reverts every migration (for the up → down → up test and for operators starting over).
///
/// # Errors
/// [`DbError::Migration`] with the failing migration's message.
pub fn revert_all_migrations(conn: &mut DbConnection) -> Result<usize, DbError> {
    migration_step(
        conn,
        |pg| pg.revert_all_migrations(PG_MIGRATIONS),
        |sqlite| sqlite.revert_all_migrations(SQLITE_MIGRATIONS),
    )
}

/// Runs one migration step with the harness of the connection's backend (`pg` or `sqlite`,
/// each given its own migrations); how many migrations it ran or reverted.
fn migration_step<'a, V>(
    conn: &'a mut DbConnection,
    pg: impl FnOnce(&'a mut diesel::PgConnection) -> diesel::migration::Result<Vec<V>>,
    sqlite: impl FnOnce(&'a mut diesel::SqliteConnection) -> diesel::migration::Result<Vec<V>>,
) -> Result<usize, DbError> {
    let done = match conn {
        DbConnection::Pg(connection) => pg(connection),
        DbConnection::Sqlite(connection) => sqlite(connection),
    };
    done.map(|versions| versions.len())
        .map_err(|e| DbError::Migration(e.to_string()))
}

/// Checks that the database answers (for `GET /v1/health`).
///
/// # Errors
/// [`DbError::Query`] if it does not.
pub fn ping(conn: &mut DbConnection) -> Result<(), DbError> {
    diesel::sql_query("SELECT 1").execute(conn)?;
    Ok(())
}

/// The current time in UTC, truncated to microseconds (what PostgreSQL keeps), as stored.
#[must_use]
pub fn now() -> chrono::NaiveDateTime {
    let now = chrono::Utc::now().naive_utc();
    let micros = now.and_utc().timestamp_micros();
    chrono::DateTime::from_timestamp_micros(micros).map_or(now, |t| t.naive_utc())
}

/// Formats a stored time as RFC 3339 UTC for the API.
#[must_use]
pub fn rfc3339(time: chrono::NaiveDateTime) -> String {
    time.and_utc()
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

#[cfg(test)]
mod tests {
    use super::without_gss_encryption;

    #[test]
    fn gss_encryption_is_off_unless_the_url_asks_for_it() {
        assert_eq!(
            without_gss_encryption("postgres://u@h:5432/db"),
            "postgres://u@h:5432/db?gssencmode=disable"
        );
        assert_eq!(
            without_gss_encryption("postgresql://u@h/db?sslmode=disable"),
            "postgresql://u@h/db?sslmode=disable&gssencmode=disable"
        );
        assert_eq!(
            without_gss_encryption("host=h dbname=db"),
            "host=h dbname=db gssencmode=disable"
        );
        assert_eq!(
            without_gss_encryption("postgres://u@h/db?gssencmode=require"),
            "postgres://u@h/db?gssencmode=require"
        );
    }
}
