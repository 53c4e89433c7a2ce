//! What an operator meets at the edges, with the real binary: a refused setting from the
//! environment is a configuration error naming its key (exit 78, not a usage error), a range
//! names the real limit, an error is not said twice, and a closed stdout/stderr (`serve 2>&1 |
//! head -2`) neither stops the server nor makes it ignore SIGTERM.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{Backend, TestDb};

fn server(db: &TestDb) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnpost-server"));
    command
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("NO_COLOR", "1")
        .env_remove("DATABASE_URL")
        .env_remove("SMTP_URL")
        .env_remove("TURNPOST_CONFIG")
        .stdin(Stdio::null());
    command
}

fn stderr_of(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_refused_environment_value_is_a_configuration_error_naming_it() {
    let db = TestDb::create(Backend::Sqlite);
    let output = server(&db)
        .arg("serve")
        .env("TURNPOST_METRICS", "maybe")
        .output()
        .unwrap();
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(78), "{said}");
    assert!(
        said.contains("`metrics`") && said.contains("TURNPOST_METRICS") && said.contains("maybe"),
        "{said}"
    );
    // The real limit, from the environment and from the file alike.
    let output = server(&db)
        .arg("config")
        .env("TURNPOST_OUTBOX_SESSIONS", "-3")
        .output()
        .unwrap();
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(78), "{said}");
    assert!(said.contains("1..=64"), "{said}");
    assert!(!said.contains("4294967295"), "{said}");
    let file = db.dir.join("turnpost.toml");
    std::fs::write(&file, "outbox_sessions = -3\n").unwrap();
    let output = server(&db)
        .arg("--config")
        .arg(&file)
        .arg("config")
        .output()
        .unwrap();
    let said = stderr_of(&output);
    assert_eq!(output.status.code(), Some(78), "{said}");
    assert!(
        said.contains("1..=64") && !said.contains("4294967295"),
        "{said}"
    );
    // An unknown flag is still clap's usage error.
    let output = server(&db).arg("--no-such-flag").output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr_of(&output));
}

#[test]
fn a_backup_over_an_existing_file_says_why_once() {
    let db = TestDb::create(Backend::Sqlite);
    let output = server(&db).arg("migrate").output().unwrap();
    assert!(output.status.success(), "{}", stderr_of(&output));
    let target = db.dir.join("copy.db");
    std::fs::write(&target, "mine").unwrap();
    let output = server(&db).arg("backup").arg(&target).output().unwrap();
    let said = stderr_of(&output);
    assert!(!output.status.success(), "{said}");
    assert_eq!(said.matches("os error 17").count(), 1, "{said}");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
}

/// A status code from a raw GET.
fn get(address: &str, path: &str) -> Option<u16> {
    let mut stream = std::net::TcpStream::connect(address).ok()?;
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .ok()?;
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn closed_output_neither_stops_the_server_nor_its_sigterm() {
    let db = TestDb::create(Backend::Sqlite);
    let mut child = server(&db)
        .arg("serve")
        .env("RUST_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read up to the start-up line, as `head` would, then close both pipes.
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "no start-up line");
        if let Some((_, rest)) = line.split_once("listening on http://") {
            break rest.split(';').next().unwrap().trim().to_owned();
        }
    };
    drop(stderr);
    drop(child.stdout.take());
    // Every request writes an access line into the closed pipe.
    for _ in 0..20 {
        assert_eq!(get(&address, "/v1/health"), Some(200));
    }
    assert!(child.try_wait().unwrap().is_none(), "the server stopped");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the server ignored SIGTERM with its output closed");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
}
