//! Carries the commit bell (`crate::db::commit_bell`) between the server processes of one
//! PostgreSQL database, with PostgreSQL's own `LISTEN`/`NOTIFY`: after this process commits
//! events or mail it sends one `NOTIFY`, and a `NOTIFY` from another process rings the bell here.
//! SQLite databases have one server process: nothing to carry.
//!
//! Why a thread of its own with one connection, and the `NOTIFY` outside the writes: a `NOTIFY`
//! inside a write transaction takes a lock that every committing notifier waits for, so each
//! move would wait for the commits of all the others; here commits only ring an in-process bell,
//! and this thread sends at most one `NOTIFY` per round for all of them. libpq offers no wait
//! on notifications through diesel, so the thread looks every [`LISTEN_ROUND`]: a round is a
//! non-blocking read of the socket.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel::connection::SimpleConnection as _;
use diesel::{PgConnection, RunQueryDsl as _};

use crate::config::DatabaseTarget;
use crate::db::{self, commit_bell, DbConnection};

/// The channel every turnpost process of a database listens on.
pub const COMMIT_CHANNEL: &str = "turnpost_commits";

/// How often the thread reads notifications and passes on this process's commits.
pub const LISTEN_ROUND: Duration = Duration::from_millis(20);

/// Starts the listener for `target` (none for SQLite); it stops once `stop` turns true, or
/// once `server` is gone (a server dropped without stopping, as tests do: a thread that
/// reconnected for ever to a database dropped with it would outlive it).
///
/// # Errors
/// The thread cannot be started.
pub fn start<T: Send + Sync + 'static>(
    target: &DatabaseTarget,
    stop: Arc<AtomicBool>,
    server: Weak<T>,
) -> std::io::Result<Option<std::thread::JoinHandle<()>>> {
    let DatabaseTarget::Postgres(_) = target else {
        return Ok(None);
    };
    let target = target.clone();
    std::thread::Builder::new()
        .name("commit-listener".into())
        .spawn(move || {
            let stopped = || stop.load(Ordering::SeqCst) || server.strong_count() == 0;
            listen(&target, &stopped);
        })
        .map(Some)
}

/// Listens until `stopped`, reconnecting after a lost connection.
fn listen(target: &DatabaseTarget, stopped: &dyn Fn() -> bool) {
    while !stopped() {
        let error = match db::establish(target) {
            Ok(DbConnection::Pg(mut pg)) => match rounds(&mut pg, stopped) {
                Ok(()) => return,
                Err(error) => error.to_string(),
            },
            Ok(DbConnection::Sqlite(_)) => return,
            Err(error) => error.to_string(),
        };
        tracing::warn!(%error, "commit listener: reconnecting in a second");
        // Meanwhile the consumers' own polls carry on (streams once a second).
        std::thread::sleep(Duration::from_secs(1));
    }
}

#[derive(diesel::QueryableByName)]
struct BackendPid {
    #[diesel(sql_type = diesel::sql_types::Integer)]
    pid: i32,
}

/// The rounds on one connection, until `stopped` (`Ok`) or a failure.
fn rounds(pg: &mut PgConnection, stopped: &dyn Fn() -> bool) -> diesel::QueryResult<()> {
    pg.batch_execute(&format!("LISTEN {COMMIT_CHANNEL}"))?;
    let own: BackendPid = diesel::sql_query("SELECT pg_backend_pid() AS pid").get_result(pg)?;
    let mut passed_on = commit_bell::local_commits();
    // Commits of other processes while this one was not listening are not heard: ring once.
    commit_bell::ring();
    while !stopped() {
        let mut heard = false;
        for notification in pg.notifications_iter() {
            heard |= notification?.process_id != own.pid;
        }
        if heard {
            commit_bell::ring();
        }
        let commits = commit_bell::local_commits();
        if commits != passed_on {
            passed_on = commits;
            pg.batch_execute(&format!("NOTIFY {COMMIT_CHANNEL}"))?;
        }
        std::thread::sleep(LISTEN_ROUND);
    }
    Ok(())
}
