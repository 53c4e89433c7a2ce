//! No secret in any log: every route of the route table (API and pages, added later ones too)
//! is asked by the real binary with a secret in each path parameter and in the query, and
//! neither the text nor the JSON log may show one.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/process.rs"]
mod process;

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{Backend, TestDb};

/// `pattern` with its `{name}` (or `{name:regex}`) parameters filled by secrets numbered from
/// `first`; returns the path and the secrets used.
fn filled(pattern: &str, first: usize) -> (String, Vec<String>) {
    let mut path = String::new();
    let mut secrets = Vec::new();
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        path.push_str(&rest[..open]);
        let close = rest[open..].find('}').unwrap() + open;
        let secret = format!("s3cr3t{}x", first + secrets.len());
        path.push_str(&secret);
        secrets.push(secret);
        rest = &rest[close + 1..];
    }
    path.push_str(rest);
    (path, secrets)
}

/// Sends one request and reads the answer, whatever it is (a stream may stay open: cut after
/// two seconds).
fn send(address: &str, method: &str, target: &str) {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(2)))
        .unwrap();
    write!(
        stream,
        "{method} {target} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 0\r\n\r\n"
    )
    .unwrap();
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
}

/// Starts the binary with `log_format`, asks every route, stops it; returns its log and the
/// secrets it was sent, and how many access lines there were.
fn walk(log_format: &str) -> (Vec<String>, Vec<String>, usize) {
    let db = TestDb::create(Backend::Sqlite);
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .arg("serve")
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_LOG_FORMAT", log_format)
        .env("TURNPOST_METRICS", "true")
        .env("RUST_LOG", "trace")
        .env("NO_COLOR", "1")
        .env_remove("SMTP_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rx = process::stderr_lines(&mut child);
    let mut log = Vec::new();
    let address = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no start-up line:\n{}", log.join("\n")));
        let found = line.split_once("listening on http://").map(|(_, rest)| {
            rest.split([';', '"', ' '])
                .next()
                .unwrap_or(rest)
                .to_owned()
        });
        log.push(line);
        if let Some(address) = found {
            break address;
        }
    };
    let mut secrets = Vec::new();
    let mut asked = 0;
    let routes = turnpost_server::routes::table()
        .routes()
        .into_iter()
        .chain(turnpost_server::web::table().routes());
    for (method, pattern) in routes {
        let (path, mut used) = filled(&pattern, secrets.len());
        // Long enough not to turn up by chance in a random temporary path the log names.
        let query = format!("qs3cr3t{}x", secrets.len() + used.len());
        used.push(query.clone());
        // The route itself, the same path with a secret query, and a path one segment longer
        // (no route: a link cut or extended on the way, as mail scanners do).
        for target in [
            path.clone(),
            format!("{path}?s={query}&c={query}"),
            format!("{path}/{query}"),
        ] {
            send(&address, method.as_str(), &target);
            asked += 1;
        }
        secrets.extend(used);
    }
    assert!(
        asked > 100,
        "only {asked} requests: is the route table empty?"
    );
    // The last request's line, then stop.
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    let _ = child.wait();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        log.push(line);
    }
    let access = log
        .iter()
        .filter(|line| line.contains("turnpost::access"))
        .count();
    (log, secrets, access)
}

/// Walks the routes with `log_format`; asserts no secret is in the log; returns the log.
fn assert_no_secret(log_format: &str) -> Vec<String> {
    let (log, secrets, access) = walk(log_format);
    assert!(
        access > 100,
        "{log_format}: only {access} access lines:\n{}",
        log.join("\n")
    );
    for line in &log {
        for secret in &secrets {
            assert!(
                !line.contains(secret.as_str()),
                "{log_format} log shows `{secret}`: {line}"
            );
        }
    }
    log
}

#[test]
fn no_route_logs_a_secret_in_text() {
    let _ = assert_no_secret("text");
}

#[test]
fn no_route_logs_a_secret_in_json_whose_access_lines_have_fields() {
    let log = assert_no_secret("json");
    let line = log
        .iter()
        .find(|line| line.contains("turnpost::access") && line.contains("\"/v1/health\""))
        .unwrap_or_else(|| panic!("no access line for /v1/health:\n{}", log.join("\n")));
    let json: serde_json::Value = serde_json::from_str(line).unwrap();
    let fields = &json["fields"];
    assert_eq!(fields["method"], "GET", "{line}");
    assert_eq!(fields["route"], "/v1/health", "{line}");
    assert_eq!(fields["status"], 200, "{line}");
    assert!(fields["ms"].is_u64(), "{line}");
}
