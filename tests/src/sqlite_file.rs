//! Direct writes to a test server's SQLite file, for states the API cannot reach within a test
//! (a deadline days in the past).

use std::path::Path;

use diesel::connection::SimpleConnection;
use diesel::{Connection, SqliteConnection};

/// Runs `sql` (one or more statements) on the SQLite file at `path`, waiting for the server's
/// write lock if it holds one.
pub fn execute(path: &Path, sql: &str) {
    let url = path.to_str().unwrap();
    let mut conn = SqliteConnection::establish(url)
        .unwrap_or_else(|e| panic!("cannot open the server's SQLite file {url}: {e}"));
    conn.batch_execute(&format!("PRAGMA busy_timeout = 10000; {sql}"))
        .unwrap_or_else(|e| panic!("SQLite refused `{sql}`: {e}"));
}
