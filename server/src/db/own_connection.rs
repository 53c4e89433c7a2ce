//! Running a read on the backend's own connection rather than through [`super::DbConnection`].
//!
//! Why: diesel's `MultiConnection` wraps every query so that either backend can run it, and
//! the wrapper writes the query's whole SQL text at each pass diesel makes over it (finding
//! its prepared statement, checking that it may be kept, collecting its binds): three texts
//! built and thrown away per statement, about a tenth of the server's CPU on the move path.
//! On the backend's own connection a query of fixed shape is found by its type and only its
//! binds are walked. The query is written once and compiled for each backend.

/// `on_own_connection!(conn, own => expression)`: evaluates `expression` with `own` bound to
/// the PostgreSQL or SQLite connection inside `conn` (a `&mut DbConnection`).
macro_rules! on_own_connection {
    ($conn:expr, $own:ident => $body:expr) => {
        match $conn {
            $crate::db::DbConnection::Pg($own) => $body,
            $crate::db::DbConnection::Sqlite($own) => $body,
        }
    };
}

pub(crate) use on_own_connection;
