//! `turnpost-server health`, a container's HEALTHCHECK: exit 0 when the server at the listen
//! address (or `--url`) answers `GET /v1/health` with 200, 1 when it answers anything else,
//! does not answer, or is down.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/process.rs"]
mod process;

use std::io::{Read as _, Write as _};
use std::process::Command;

use common::{Backend, TestDb};
use process::ServerProcess;

/// `health` with `args` and `env`; its exit code and its output (both streams).
fn health(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .env_clear()
        .env("NO_COLOR", "1")
        .envs(env.iter().copied())
        .current_dir(std::env::temp_dir())
        .arg("health")
        .args(args)
        .output()
        .unwrap();
    (
        output.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
    )
}

fn health_of(backend: Backend) {
    let db = TestDb::create(backend);
    let server = ServerProcess::start(&db, &[]);
    let address = server.base.trim_start_matches("http://").to_owned();
    let (code, said) = health(&["--url", &server.base], &[]);
    assert_eq!(code, 0, "{said}");
    assert!(said.contains("healthy"), "{said}");
    // The listen address from the configuration, as the container's HEALTHCHECK has it.
    let (code, said) = health(&[], &[("TURNPOST_LISTEN", &address)]);
    assert_eq!(code, 0, "{said}");
    server.kill();
    let (code, said) = health(&[], &[("TURNPOST_LISTEN", &address)]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("cannot reach the server"), "{said}");
}

#[test]
fn health_of_a_server_on_sqlite() {
    health_of(Backend::Sqlite);
}

#[test]
fn health_of_a_server_on_postgres() {
    health_of(Backend::Postgres);
}

#[test]
fn an_answer_other_than_200_or_a_bad_url_is_unhealthy() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().take(1) {
            let mut stream = stream.unwrap();
            // The whole request first, as a server does.
            let mut request = Vec::new();
            let mut byte = [0_u8; 1];
            while !request.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
                request.push(byte[0]);
            }
            stream
                .write_all(b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n")
                .unwrap();
        }
    });
    let (code, said) = health(&["--url", &format!("http://{address}")], &[]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("503"), "{said}");
    let (code, said) = health(&["--url", "https://example.org"], &[]);
    assert_eq!(code, 1, "{said}");
    assert!(said.contains("expected http://HOST:PORT"), "{said}");
}
