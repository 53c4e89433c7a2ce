//! Safe migrations with the real binary: any number of processes started together on an empty
//! database all come up (one migrates, the others wait for it), a database a newer binary
//! migrated is refused with exit 78 unless `--allow-newer-database`, and `serve --no-migrate`
//! leaves migrating to `turnpost-server migrate`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/process.rs"]
mod process;

use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{Backend, TestDb};
use diesel::{Connection, RunQueryDsl};

/// The binary with `args`, configured for `db` (port 0, no SMTP).
fn server(db: &TestDb, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnpost-server"));
    command
        .args(args)
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_DB_POOL_SIZE", "4")
        .env("RUST_LOG", "warn,turnpost_server::app=info")
        .env("NO_COLOR", "1")
        .env_remove("SMTP_URL")
        .env_remove("TURNPOST_PUBLIC_URL");
    command
}

/// A started server and the channel its stderr lines arrive on.
fn spawn(db: &TestDb, args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let mut child = server(db, args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rx = process::stderr_lines(&mut child);
    (child, rx)
}

/// Waits for `child`'s start-up line; panics with its stderr (and exit status) without one.
fn wait_listening(child: &mut Child, rx: &mpsc::Receiver<String>, which: usize) {
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.contains("listening on") => return,
            Ok(line) => seen.push(line),
            Err(_) => {
                let status = child.try_wait().unwrap();
                let _ = child.kill();
                panic!(
                    "process {which} did not come up (exit {status:?}); stderr:\n{}",
                    seen.join("\n")
                );
            }
        }
    }
}

/// Starts `count` servers at once on a fresh, empty database: every one must come up.
fn start_together(backend: Backend, count: usize) {
    let db = TestDb::create(backend);
    let mut started: Vec<_> = (0..count).map(|_| spawn(&db, &["serve"])).collect();
    for (which, (child, rx)) in started.iter_mut().enumerate() {
        wait_listening(child, rx, which);
    }
    for (mut child, _) in started {
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[test]
fn two_processes_start_together_on_an_empty_postgres_database() {
    for _ in 0..3 {
        start_together(Backend::Postgres, 2);
    }
}

#[test]
fn five_processes_start_together_on_an_empty_postgres_database() {
    for _ in 0..2 {
        start_together(Backend::Postgres, 5);
    }
}

#[test]
fn five_processes_start_together_on_an_empty_sqlite_database() {
    start_together(Backend::Sqlite, 5);
}

fn run(db: &TestDb, args: &[&str]) -> Output {
    server(db, args).stdin(Stdio::null()).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Migrates `db` with `turnpost-server migrate`, then records a migration this binary does not
/// know, as a newer version would have.
fn migrated_by_a_newer_binary(db: &TestDb) {
    let output = run(db, &["migrate"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let insert = "INSERT INTO __diesel_schema_migrations (version) VALUES ('29990101000000')";
    match db.backend() {
        Backend::Postgres => {
            let mut conn = diesel::PgConnection::establish(&db.url).unwrap();
            diesel::sql_query(insert).execute(&mut conn).unwrap();
        }
        Backend::Sqlite => {
            let path = db.url.trim_start_matches("sqlite://");
            let mut conn = diesel::SqliteConnection::establish(path).unwrap();
            diesel::sql_query(insert).execute(&mut conn).unwrap();
        }
    }
}

fn newer_database_is_refused(backend: Backend) {
    let db = TestDb::create(backend);
    migrated_by_a_newer_binary(&db);
    for args in [
        &["serve"][..],
        &["serve", "--no-migrate"],
        &["migrate"],
        &["ratings", "rebuild"],
    ] {
        let output = run(&db, args);
        let said = stderr(&output);
        assert_eq!(output.status.code(), Some(78), "{args:?}: {said}");
        assert!(
            said.contains("migrated by a newer turnpost-server") && said.contains("29990101000000"),
            "{args:?}: {said}"
        );
        assert!(!said.contains("listening on"), "{args:?}: {said}");
    }
    // `check` does not call it up to date.
    let output = run(&db, &["check"]);
    let said = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(!output.status.success(), "{said}");
    assert!(
        said.contains("migrated by a newer turnpost-server") && !said.contains("up to date"),
        "{said}"
    );
    // The operator's explicit choice: it serves.
    let (mut child, rx) = spawn(&db, &["serve", "--allow-newer-database"]);
    wait_listening(&mut child, &rx, 0);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn a_newer_postgres_database_is_refused_with_78() {
    newer_database_is_refused(Backend::Postgres);
}

#[test]
fn a_newer_sqlite_database_is_refused_with_78() {
    newer_database_is_refused(Backend::Sqlite);
}

#[test]
fn no_migrate_leaves_migrating_to_the_migrate_command() {
    let db = TestDb::create(Backend::Postgres);
    let output = run(&db, &["serve", "--no-migrate"]);
    let said = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{said}");
    assert!(said.contains("turnpost-server migrate"), "{said}");
    let output = run(&db, &["migrate"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (mut child, rx) = spawn(&db, &["serve", "--no-migrate"]);
    wait_listening(&mut child, &rx, 0);
    let _ = child.kill();
    let _ = child.wait();
}
