//! The real binary: one start-up line naming the database and mail transport without secrets,
//! a graceful stop on SIGTERM, short access lines, the `.eml` transport's line per mail, and
//! private files.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/process.rs"]
mod process;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{Backend, SmtpSink, TestDb};

/// Starts `turnpost-server serve` on port 0 (mail over SMTP, or `.eml` files without a URL);
/// returns the child, the start-up line, and a channel with the rest of stderr.
fn start(
    db_url: &str,
    smtp_url: Option<&str>,
    dir: &std::path::Path,
) -> (Child, String, mpsc::Receiver<String>) {
    start_command(
        Command::new(env!("CARGO_BIN_EXE_turnpost-server")),
        db_url,
        smtp_url,
        dir,
    )
}

/// [`start`] through `command` (the server binary, or a shell that sets limits and runs it).
fn start_command(
    mut command: Command,
    db_url: &str,
    smtp_url: Option<&str>,
    dir: &std::path::Path,
) -> (Child, String, mpsc::Receiver<String>) {
    match smtp_url {
        Some(url) => command.env("SMTP_URL", url),
        None => command.env_remove("SMTP_URL"),
    };
    let mut child = command
        .arg("serve")
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_DATA_DIR", dir)
        .env("DATABASE_URL", db_url)
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rx = process::stderr_lines(&mut child);
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(line) if line.contains("listening on") => return (child, line, rx),
            Ok(line) => seen.push(line),
            Err(_) => {
                let _ = child.kill();
                panic!("no start-up line; stderr so far:\n{}", seen.join("\n"));
            }
        }
    }
}

#[test]
fn startup_line_names_database_and_mail_without_secrets() {
    let db = TestDb::create(Backend::Postgres);
    // Trust authentication ignores the password, so it can be a marker.
    let mut url = url::Url::parse(&db.url).unwrap();
    url.set_password(Some("hunter2-db")).unwrap();
    let sink = SmtpSink::start();
    let smtp = format!("smtp://mailer:hunter2-smtp@127.0.0.1:{}", sink.port);
    let (mut child, line, rx) = start(url.as_str(), Some(&smtp), &db.dir);
    child.kill().unwrap();
    let _ = child.wait();
    let rest: Vec<String> = rx.try_iter().collect();
    assert!(line.contains("database: postgres (postgres://"), "{line}");
    assert!(line.contains(":***@"), "{line}");
    assert!(
        line.contains("mail: smtp (smtp://mailer:***@127.0.0.1"),
        "{line}"
    );
    for l in std::iter::once(&line).chain(&rest) {
        assert!(!l.contains("hunter2"), "secret in the log: {l}");
    }
}

#[test]
fn sigterm_stops_gracefully() {
    let db = TestDb::create(Backend::Sqlite);
    let sink = SmtpSink::start();
    let (mut child, line, rx) = start(&db.url, Some(&sink.url()), &db.dir);
    assert!(line.contains("database: sqlite ("), "{line}");
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(exit) = child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "server did not stop on SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    let rest: Vec<String> = rx.iter().collect();
    assert!(
        rest.iter().any(|l| l.contains("mail worker stopped")),
        "{rest:#?}"
    );
}

/// The embedded default (no `DATABASE_URL`, no `SMTP_URL`) keeps what other local users must
/// not read private: the data directory 0700; the database, its WAL and the `.eml` files 0600.
#[test]
fn data_dir_database_and_mail_files_are_private() {
    use std::os::unix::fs::PermissionsExt;

    let scratch = TestDb::create(Backend::Sqlite);
    let data = scratch.dir.join("fresh-data");
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .arg("serve")
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_DATA_DIR", &data)
        .env_remove("DATABASE_URL")
        .env_remove("SMTP_URL")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let rx = process::stderr_lines(&mut child);
    let address = loop {
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap();
        if let Some((_, rest)) = line.split_once("listening on http://") {
            break rest.split(';').next().unwrap().to_string();
        }
    };
    let body = r#"{"name":"private","email":"private@example.org"}"#;
    let mut stream = std::net::TcpStream::connect(&address).unwrap();
    write!(
        stream,
        "POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 202"), "{answer}");

    let mail_dir = data.join("mail");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let eml = loop {
        let found = std::fs::read_dir(&mail_dir).ok().and_then(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "eml"))
        });
        if let Some(path) = found {
            break path;
        }
        assert!(std::time::Instant::now() < deadline, "no .eml written");
        std::thread::sleep(Duration::from_millis(50));
    };
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700, "data dir");
    assert_eq!(mode(&mail_dir), 0o700, "mail dir");
    assert_eq!(mode(&eml), 0o600, "{}", eml.display());
    assert_eq!(mode(&data.join("turnpost.db")), 0o600, "database");
    let wal = data.join("turnpost.db-wal");
    if wal.exists() {
        assert_eq!(mode(&wal), 0o600, "WAL");
    }
    child.kill().unwrap();
    let _ = child.wait();
}

/// A raw HTTP/1.1 request to the server; returns the status code.
fn request(address: &str, method: &str, path: &str, headers: &str, body: &str) -> u16 {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n{headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap()
}

/// Lines from `rx` until one contains `wanted` (or 20 s pass).
fn until(rx: &mpsc::Receiver<String>, wanted: &str, seen: &mut Vec<String>) -> String {
    loop {
        match rx.recv_timeout(Duration::from_secs(20)) {
            Ok(line) if line.contains(wanted) => {
                seen.push(line.clone());
                return line;
            }
            Ok(line) => seen.push(line),
            Err(_) => panic!("no line with `{wanted}`; so far:\n{}", seen.join("\n")),
        }
    }
}

#[test]
fn access_lines_are_short_and_eml_mails_are_logged_without_secrets() {
    let db = TestDb::create(Backend::Sqlite);
    let (mut child, started, rx) = start(&db.url, None, &db.dir);
    let mut seen = Vec::new();
    let address = started
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_string();

    // A sign-up: its code goes out as an .eml file, logged with recipient and subject.
    let json = "Content-Type: application/json\r\n";
    let body = r#"{"name":"anna","email":"anna@example.org"}"#;
    let status = request(&address, "POST", "/v1/accounts", json, body);
    assert!(status < 300, "sign-up answered {status}");
    let mail = until(&rx, "mail written to file", &mut seen);
    assert!(mail.contains("anna@example.org"), "{mail}");
    assert!(mail.contains("Your turnpost code"), "{mail}");
    assert!(mail.contains(".eml"), "{mail}");
    let file = std::fs::read_dir(db.dir.join("mail"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|ext| ext == "eml"))
        .unwrap();
    let eml = std::fs::read_to_string(file).unwrap();
    let code = eml
        .lines()
        .find_map(|line| line.strip_prefix("Subject: Your turnpost code: "))
        .unwrap()
        .trim()
        .to_string();
    assert!(code.len() >= 6, "{code}");

    // Refused requests: a bad token, a bad unsubscribe signature in the query.
    let status = request(
        &address,
        "GET",
        "/v1/me",
        "Authorization: Bearer tp_secret-token-123\r\n",
        "",
    );
    assert_eq!(status, 401);
    let refused = until(&rx, "method=GET route=/v1/me status=401", &mut seen);
    assert!(
        refused.contains(" INFO "),
        "refused requests are info: {refused}"
    );
    let status = request(
        &address,
        "GET",
        "/v1/unsubscribe?a=1&c=turn&s=sig-secret-456",
        "",
        "",
    );
    assert!(status >= 400, "{status}");
    let line = until(&rx, "route=/v1/unsubscribe ", &mut seen);
    // Method, route, status and duration: nothing else of the request.
    let access = line.split("turnpost::access: ").nth(1).unwrap();
    let words: Vec<&str> = access.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{line}");
    assert!(words[3].starts_with("ms="), "{line}");
    // A play link's pass, however the path spells "play", and an address (a reply key): the
    // route's pattern, or no route at all, is logged.
    for path in [
        "/games/1/pl%61y/1.2.pass-secret-789",
        "/games/1/%70lay/1.2.pass-secret-789",
        "/games/1/games+reply-secret-012@example.org",
    ] {
        let status = request(&address, "GET", path, "", "");
        assert!(status >= 300, "{path}: {status}");
        let line = until(&rx, "turnpost::access: method=GET route=", &mut seen);
        assert!(
            line.contains("route=/games/{id}/play/{pass} ") || line.contains("route=(unmatched) "),
            "{line}"
        );
    }

    child.kill().unwrap();
    let _ = child.wait();
    seen.extend(rx.try_iter());
    for line in &seen {
        for secret in [
            code.as_str(),
            "secret-token-123",
            "sig-secret-456",
            "pass-secret-789",
            "reply-secret-012",
        ] {
            assert!(!line.contains(secret), "`{secret}` in the log: {line}");
        }
    }
}

/// A raw HTTP/1.1 request with a bearer token and a JSON body; returns the status and the
/// JSON answer.
fn json_request(
    address: &str,
    method: &str,
    path: &str,
    token: &str,
    body: &str,
) -> (u16, serde_json::Value) {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\
         Authorization: Bearer {token}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response
        .split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap();
    let json = response
        .split_once("\r\n\r\n")
        .and_then(|(_, body)| {
            // Chunked answers: the JSON is the part between the first `{` and the last `}`.
            let start = body.find('{')?;
            let end = body.rfind('}')?;
            serde_json::from_str(body.get(start..=end)?).ok()
        })
        .unwrap_or(serde_json::Value::Null);
    (status, json)
}

/// Operators see one info line per game event: a challenge, its start, each move.
#[test]
fn game_events_are_logged_one_line_each() {
    let db = TestDb::create(Backend::Sqlite);
    let token = |name: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
            .args(["account", "create", "--name", name, "--email"])
            .arg(format!("{name}@example.org"))
            .env("TURNPOST_DATA_DIR", &db.dir)
            .env("DATABASE_URL", &db.url)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let (anna, bert) = (token("anna"), token("bert"));
    let (mut child, started, rx) = start(&db.url, None, &db.dir);
    let mut seen = Vec::new();
    let address = started
        .split("listening on http://")
        .nth(1)
        .and_then(|rest| rest.split(';').next())
        .unwrap()
        .to_string();

    let (status, game) = json_request(
        &address,
        "POST",
        "/v1/games",
        &anna,
        r#"{"kind":"kefren","seats":["anna","bert"]}"#,
    );
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_i64().unwrap();
    let line = until(&rx, "challenge made", &mut seen);
    assert!(line.contains(&format!("game={id}")), "{line}");
    let (status, _) = json_request(
        &address,
        "POST",
        &format!("/v1/games/{id}/accept"),
        &bert,
        "",
    );
    assert_eq!(status, 200);
    until(&rx, "game started", &mut seen);
    let (_, view) = json_request(&address, "GET", &format!("/v1/games/{id}"), &anna, "");
    let first = view["legal_moves"][0].as_str().unwrap().to_string();
    let (status, _) = json_request(
        &address,
        "POST",
        &format!("/v1/games/{id}/moves"),
        &anna,
        &format!(r#"{{"move":"{first}","ply":0}}"#),
    );
    assert_eq!(status, 201);
    let line = until(&rx, "move played", &mut seen);
    assert!(
        line.contains(" INFO ") && line.contains("moves=1"),
        "{line}"
    );
    for line in &seen {
        assert!(
            !line.contains("@example.org") || line.contains("mail written"),
            "{line}"
        );
        assert!(
            !line.contains(&anna) && !line.contains(&bert),
            "token in the log: {line}"
        );
    }
    child.kill().unwrap();
    let _ = child.wait();
}

/// The address in a start-up line (`listening on http://ADDRESS; …`).
fn listening_address(line: &str) -> String {
    let (_, rest) = line.split_once("listening on http://").unwrap();
    rest.split(';').next().unwrap().to_string()
}

/// One slow client: the headers of a sign-up (`POST /v1/accounts`, no token needed) announcing
/// 10 000 bytes, then a byte now and then.
fn slow_client(address: &str) -> Option<std::net::TcpStream> {
    let mut stream =
        std::net::TcpStream::connect_timeout(&address.parse().unwrap(), Duration::from_secs(1))
            .ok()?;
    stream
        .write_all(
            b"POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
              Content-Length: 10000\r\n\r\n{",
        )
        .ok()?;
    stream.set_nonblocking(true).ok()?;
    Some(stream)
}

/// More clients than the server may open files send their bodies a byte at a time: the server
/// never runs out of file descriptors, answers the slow bodies 408 when their time is up, and
/// answers everyone else within a bounded time.
#[test]
fn slow_bodies_do_not_starve_other_clients() {
    let db = TestDb::create(Backend::Sqlite);
    // A small limit on open files, as an operator's `ulimit -n` sets it (soft and hard).
    let mut command = Command::new("sh");
    command
        .args(["-c", "ulimit -n 256 && exec \"$0\" \"$@\""])
        .arg(env!("CARGO_BIN_EXE_turnpost-server"))
        .env("TURNPOST_REQUEST_BODY_TIMEOUT_MS", "2000");
    let (mut child, line, rx) = start_command(command, &db.url, None, &db.dir);
    let address = listening_address(&line);

    // 300 slow clients (those the kernel's backlog cannot hold fail to connect, and give up).
    let mut clients: Vec<std::net::TcpStream> =
        (0..300).filter_map(|_| slow_client(&address)).collect();
    assert!(clients.len() > 256, "only {} connected", clients.len());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let attack = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut timed_out = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) {
                clients.retain_mut(|client| {
                    let mut answer = [0_u8; 64];
                    match client.read(&mut answer) {
                        Ok(n) => {
                            if answer[..n].starts_with(b"HTTP/1.1 408") {
                                timed_out += 1;
                            }
                            false
                        }
                        Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                            client.write_all(b" ").is_ok()
                        }
                        Err(_) => false,
                    }
                });
                std::thread::sleep(Duration::from_millis(200));
            }
            timed_out
        })
    };

    for _ in 0..5 {
        let started = std::time::Instant::now();
        let mut stream = std::net::TcpStream::connect(&address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let read = stream.read_to_string(&mut answer);
        assert!(
            read.is_ok() && answer.starts_with("HTTP/1.1 200"),
            "health check unanswered after {:?}: {read:?} {answer:?}",
            started.elapsed()
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "health check took {:?}",
            started.elapsed()
        );
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let timed_out = attack.join().unwrap();
    child.kill().unwrap();
    let _ = child.wait();
    let log: Vec<String> = rx.try_iter().collect();
    assert!(
        !log.iter().any(|l| l.contains("Too many open files")),
        "{log:#?}"
    );
    assert!(timed_out > 0, "no slow body was answered 408");
}

/// Starts the server on `db_url`, kills it once it listens; answers its log up to then.
fn start_and_kill(db_url: &str, data: &std::path::Path) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .arg("serve")
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_DATA_DIR", data)
        .env("DATABASE_URL", db_url)
        .env_remove("SMTP_URL")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = Vec::new();
    for line in BufReader::new(child.stderr.take().unwrap()).lines() {
        let line = line.unwrap();
        let listening = line.contains("listening on");
        log.push(line);
        if listening {
            break;
        }
    }
    child.kill().unwrap();
    let _ = child.wait();
    assert!(
        log.last().is_some_and(|l| l.contains("listening on")),
        "{log:#?}"
    );
    log
}

/// A data directory and database left readable by others (0755, 0644 with `-wal` and `-shm`,
/// as an earlier version or an operator's umask made them) are made private at start, and the
/// log says so.
#[test]
fn loose_data_dir_and_database_are_tightened_at_start() {
    use std::os::unix::fs::PermissionsExt;

    let scratch = TestDb::create(Backend::Sqlite);
    let data = scratch.dir.join("loose-data");
    let database = data.join("turnpost.db");
    let url = format!("sqlite://{}", database.display());
    // Killed, not stopped: the WAL and shared-memory files stay, as after a crash.
    start_and_kill(&url, &data);
    let set = |path: &std::path::Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    let files = ["turnpost.db", "turnpost.db-wal", "turnpost.db-shm"];
    for name in files {
        if !data.join(name).exists() {
            std::fs::write(data.join(name), "").unwrap();
        }
        set(&data.join(name), 0o644);
    }
    set(&data, 0o755);

    let log = start_and_kill(&url, &data);
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&data), 0o700, "data dir");
    for name in files {
        assert_eq!(mode(&data.join(name)), 0o600, "{name}");
    }
    for path in [data.clone(), database.clone()] {
        let path = path.display().to_string();
        assert!(
            log.iter()
                .any(|l| l.contains("made private") && l.contains(&path)),
            "no line for {path}: {log:#?}"
        );
    }
}
