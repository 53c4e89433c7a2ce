//! The operator's side of the real binary: one configuration file read by every command (and
//! overridden by the environment), refused keys and values, `config` with masked secrets,
//! `mail-in` that never creates a database, `check` against live and dead services, `backup`
//! while moves are played, and JSON log lines.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
mod dovecot;

use std::io::{BufRead as _, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use common::{Backend, HeldPort, SmtpSink, TestApp, TestDb};
use diesel::prelude::*;
use serde_json::{json, Value};

/// The server binary with an empty environment (nothing leaks in from the test's), run from
/// the temporary directory.
fn server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnpost-server"));
    command
        .env_clear()
        .env("NO_COLOR", "1")
        .current_dir(std::env::temp_dir());
    command
}

/// Runs `command` with `stdin`; answers the exit code, stdout and stderr.
fn run(command: &mut Command, stdin: &[u8]) -> (i32, String, String) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!(
            "turnpost-ops-{name}-{}-{}",
            std::process::id(),
            turnpost_server::secrets::random_string(8, turnpost_server::secrets::LOWER_ALNUM)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).unwrap();
        path
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn setting<'a>(report: &'a Value, key: &str) -> &'a Value {
    report["settings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {report}"))
}

#[test]
fn the_file_sets_every_kind_of_value_and_the_environment_overrides_it() {
    let scratch = Scratch::new("config");
    let file = scratch.file(
        "turnpost.toml",
        "public_url = \"https://games.example.org\"\noutbox_sessions = 7\n\
         outbox_poll_ms = 500\nopen_signup = false\nlog_format = \"json\"\n\
         smtp_url = \"smtps://games:hunter2-smtp@smtp.example.org\"\n\
         database_url = \"postgres://turnpost:hunter2-db@db.example.org/turnpost\"\n",
    );
    let (code, out, err) = run(
        server()
            .args(["--config"])
            .arg(&file)
            .args(["config", "--json"])
            .env("TURNPOST_OUTBOX_SESSIONS", "9"),
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["file"], json!(file.display().to_string()));
    let expect = |key: &str, value: Value, source: &str| {
        let found = setting(&report, key);
        assert_eq!(found["value"], value, "{key}: {found}");
        assert_eq!(found["source"], source, "{key}: {found}");
    };
    expect("public_url", json!("https://games.example.org"), "file");
    expect("outbox_poll_ms", json!(500), "file");
    expect("open_signup", json!(false), "file");
    expect("log_format", json!("json"), "file");
    expect("outbox_sessions", json!(9), "environment");
    expect("listen", json!("127.0.0.1:8080"), "default");
    expect("imap_url", Value::Null, "default");
    expect(
        "smtp_url",
        json!("smtps://games:***@smtp.example.org"),
        "file",
    );
    assert_eq!(
        setting(&report, "outbox_sessions")["env"],
        "TURNPOST_OUTBOX_SESSIONS"
    );
    assert!(!out.contains("hunter2"), "{out}");
    // Every key is its environment variable's name: DATABASE_URL → database_url,
    // TURNPOST_PUBLIC_URL → public_url.
    for entry in report["settings"].as_array().unwrap() {
        let env = entry["env"].as_str().unwrap();
        let key = env
            .strip_prefix("TURNPOST_")
            .unwrap_or(env)
            .to_ascii_lowercase();
        assert_eq!(entry["key"], key.as_str(), "{entry}");
    }

    // The text form, with the file named by TURNPOST_CONFIG and a flag over both: valid TOML
    // that the server reads back.
    let (code, text, err) = run(
        server()
            .args(["config", "--outbox-poll-ms", "700"])
            .env("TURNPOST_CONFIG", &file)
            .env("DATABASE_URL", "sqlite:///var/lib/turnpost/turnpost.db"),
        b"",
    );
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains("hunter2"), "{text}");
    assert!(
        text.contains(&format!("# configuration file: {}", file.display())),
        "{text}"
    );
    assert!(
        text.contains("outbox_poll_ms = 700  # command line"),
        "{text}"
    );
    assert!(text.contains("open_signup = false  # file"), "{text}");
    assert!(
        text.contains(
            "database_url = \"sqlite:///var/lib/turnpost/turnpost.db\"  # environment DATABASE_URL"
        ),
        "{text}"
    );
    assert!(text.contains("# imap_url is not set (default)"), "{text}");
    // In the order of `--help`, whatever the source.
    let at = |key: &str| text.find(&format!("\n{key} = ")).unwrap();
    assert!(
        at("listen") < at("public_url") && at("public_url") < at("log_format"),
        "{text}"
    );
    let again = scratch.file("again.toml", &text.replace("***", "secret"));
    let (code, _, err) = run(server().arg("--config").arg(&again).arg("config"), b"");
    assert_eq!(
        code, 0,
        "the printed configuration is not readable: {err}\n{text}"
    );
}

#[test]
fn bad_files_keys_and_values_are_refused_naming_the_key() {
    let scratch = Scratch::new("refused");
    let cases = [
        (
            "pubilc_url = \"https://x.example\"\n",
            "unknown key `pubilc_url`",
        ),
        (
            "outbox_sessions = \"many\"\n",
            "key `outbox_sessions`: expected a whole number, got string",
        ),
        (
            "outbox_poll_ms = -5\n",
            "key `outbox_poll_ms`: expected a whole number, got -5",
        ),
        (
            "open_signup = \"yes\"\n",
            "key `open_signup`: expected true or false",
        ),
        (
            "log_format = \"xml\"\n",
            "key `log_format`: expected one of \"text\", \"json\"",
        ),
        (
            "db_pool_size = 99999999999\n",
            "key `db_pool_size`: expected a whole number",
        ),
        ("listen = \n", "is not valid TOML"),
        ("[smtp]\nurl = \"smtps://x\"\n", "unknown key `smtp`"),
        (
            "public_url = \"ftp://games.example.org\"\n",
            "public_url (TURNPOST_PUBLIC_URL) must be an http:// or https:// URL",
        ),
        (
            "outbox_sessions = -3\n",
            "key `outbox_sessions`: expected a whole number, got -3 (-3 is not in 1..=64)",
        ),
        (
            "mail_composers = -3\n",
            "key `mail_composers`: expected a whole number, got -3 (-3 is not in 1..=64)",
        ),
        (
            "mail_catch_up_ms = \"soon\"\n",
            "key `mail_catch_up_ms`: expected a whole number, got string",
        ),
    ];
    for (n, (text, wanted)) in cases.iter().enumerate() {
        let file = scratch.file(&format!("bad-{n}.toml"), text);
        for command in ["config", "check"] {
            let (code, _, err) = run(server().arg("--config").arg(&file).arg(command), b"");
            assert_eq!(code, 78, "{command} with {text:?}: {err}");
            assert!(err.contains(wanted), "{command} with {text:?}: {err}");
        }
        // An MTA's pipe: 75, so the reply is kept and retried once the operator fixed it.
        let (code, _, err) = run(server().arg("--config").arg(&file).arg("mail-in"), b"");
        assert_eq!(code, 75, "mail-in with {text:?}: {err}");
    }
    let missing = scratch.0.join("absent.toml");
    let (code, _, err) = run(server().arg("--config").arg(&missing).arg("config"), b"");
    assert_eq!(code, 78, "{err}");
    assert!(
        err.contains("cannot read the configuration file") && err.contains("absent.toml"),
        "{err}"
    );
    // Nothing was created by any of these runs.
    assert!(!std::env::temp_dir().join("turnpost-data").exists());
}

/// `mail-in` on a database the server does not use: exit 75 (the MTA keeps the reply), the
/// log naming what it looked at, nothing created; on a database that does not answer: 75.
#[test]
fn mail_in_never_creates_a_database() {
    let scratch = Scratch::new("mail-in");
    let message = b"From: anna@example.org\r\nTo: games+x@example.org\r\nMessage-ID: <m1@example.org>\r\n\r\nF3-E4\r\n";
    // A data directory that does not exist.
    let data = scratch.0.join("absent");
    let (code, _, err) = run(
        server().arg("mail-in").env("TURNPOST_DATA_DIR", &data),
        message,
    );
    assert_eq!(code, 75, "{err}");
    assert!(
        err.contains(&data.join("turnpost.db").display().to_string()),
        "{err}"
    );
    assert!(!data.exists(), "mail-in created {}", data.display());
    // An SQLite file without turnpost's tables.
    let empty = scratch.file("empty.db", "");
    let (code, _, err) = run(
        server()
            .arg("mail-in")
            .env("DATABASE_URL", format!("sqlite://{}", empty.display())),
        message,
    );
    assert_eq!(code, 75, "{err}");
    assert!(
        err.contains("not migrated") && err.contains("empty.db"),
        "{err}"
    );
    assert_eq!(
        std::fs::metadata(&empty).unwrap().len(),
        0,
        "mail-in wrote to it"
    );
    // A PostgreSQL database without turnpost's tables: it stays without any.
    let db = TestDb::create(Backend::Postgres);
    let (code, _, err) = run(
        server().arg("mail-in").env("DATABASE_URL", &db.url),
        message,
    );
    assert_eq!(code, 75, "{err}");
    assert!(err.contains("not migrated"), "{err}");
    let mut conn = diesel::PgConnection::establish(&db.url).unwrap();
    #[derive(QueryableByName)]
    struct Count {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    let tables = diesel::sql_query(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'public'",
    )
    .get_result::<Count>(&mut conn)
    .unwrap();
    assert_eq!(tables.n, 0, "mail-in created tables");
    // PostgreSQL that does not answer: the MTA should try again.
    let (code, _, err) = run(
        server()
            .arg("mail-in")
            .env("DATABASE_URL", "postgres://postgres@127.0.0.1:1/turnpost"),
        message,
    );
    assert_eq!(code, 75, "{err}");
    assert!(err.contains("cannot reach the database"), "{err}");
}

/// Every check passes against live services, and each fails, on its own line, against dead
/// ones; a wrong IMAP password fails at login.
#[test]
fn check_reports_live_and_dead_services() {
    let db = TestDb::create(Backend::Sqlite);
    let _ = common::migrated(&db);
    let smtp = SmtpSink::start();
    let dovecot = dovecot::Dovecot::start();
    let data = db.dir.join("data");
    turnpost_server::private_files::create_dir(&data).unwrap();
    let (code, out, err) = run(
        server()
            .arg("check")
            .env("DATABASE_URL", &db.url)
            .env("TURNPOST_DATA_DIR", &data)
            .env("SMTP_URL", smtp.url())
            .env("TURNPOST_IMAP_URL", dovecot.url("INBOX"))
            .env("TURNPOST_PUBLIC_URL", "http://localhost:8080"),
        b"",
    );
    assert_eq!(code, 0, "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (line, name) in lines
        .iter()
        .zip(["database", "smtp", "imap", "public_url", "data_dir"])
    {
        assert!(line.starts_with("ok ") && line.contains(name), "{out}");
    }
    assert!(out.contains("migrations up to date"), "{out}");
    assert!(out.contains("answered EHLO"), "{out}");
    // The sink offers neither PIPELINING nor CHUNKING: mail goes one command at a time.
    assert!(out.contains("no PIPELINING"), "{out}");
    assert!(out.contains("login and select done"), "{out}");
    assert!(out.contains("localhost resolves to"), "{out}");
    assert!(out.contains("mode 700, writable"), "{out}");
    assert!(smtp.messages().is_empty(), "check sent mail");

    let wrong = dovecot.url("INBOX").replace(":secret@", ":wrong@");
    let (code, out, _) = run(
        server()
            .arg("check")
            .env("DATABASE_URL", &db.url)
            .env("TURNPOST_DATA_DIR", &data)
            .env("SMTP_URL", smtp.url())
            .env("TURNPOST_IMAP_URL", wrong)
            .env("TURNPOST_PUBLIC_URL", "http://localhost:8080"),
        b"",
    );
    assert_eq!(code, 1, "{out}");
    let imap = out.lines().find(|l| l.contains("imap")).unwrap();
    assert!(imap.starts_with("FAIL") && imap.contains("login"), "{out}");
    assert!(!out.contains(":wrong@"), "the password is shown: {out}");

    // Everything dead: PostgreSQL not listening, an SMTP port that refuses, an IMAP port with
    // no server, a host that does not resolve.
    let closed = HeldPort::new();
    let (code, out, err) = run(
        server()
            .arg("check")
            .env("DATABASE_URL", "postgres://postgres@127.0.0.1:1/turnpost")
            .env("SMTP_URL", closed.url())
            .env("TURNPOST_IMAP_URL", "imap://games:secret@127.0.0.1:1/INBOX")
            .env("TURNPOST_PUBLIC_URL", "https://turnpost.invalid"),
        b"",
    );
    assert_eq!(code, 1, "{out}\n{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    for (line, name) in lines.iter().zip(["database", "smtp", "imap", "public_url"]) {
        assert!(line.starts_with("FAIL") && line.contains(name), "{out}");
    }
    assert!(out.contains("cannot reach the database"), "{out}");
    assert!(out.contains("cannot resolve turnpost.invalid"), "{out}");
    // PostgreSQL and an SMTP relay: the data directory is not used.
    assert!(
        lines[4].starts_with("ok") && lines[4].contains("not used"),
        "{out}"
    );
    assert!(err.contains("4 checks failed"), "{err}");
    // A data directory others may enter and no database in it: both reported, nothing created.
    let open_dir = db.dir.join("open");
    std::fs::create_dir(&open_dir).unwrap();
    {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(&open_dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let (code, out, _) = run(
        server()
            .arg("check")
            .env("TURNPOST_DATA_DIR", &open_dir)
            .env("TURNPOST_PUBLIC_URL", "http://localhost:8080"),
        b"",
    );
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("FAIL") && lines[0].contains("no SQLite database at"),
        "{out}"
    );
    assert!(
        lines[4].starts_with("FAIL")
            && lines[4].contains("mode 755")
            && lines[4].contains("chmod 700"),
        "{out}"
    );
    assert!(!open_dir.join("turnpost.db").exists());
}

/// Backups taken while two players keep moving open and pass `PRAGMA integrity_check`, and hold
/// the moves played before they began.
#[actix_web::test]
async fn backup_while_moves_are_played() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let pool = app.pool.clone();
    let players = [play::player(&pool, "anna"), play::player(&pool, "bob")];
    let mut games = Vec::new();
    for _ in 0..4 {
        let view = common::post(
            &app,
            "/v1/games",
            &players[0],
            json!({"kind": "kefren", "seats": ["anna", "bob"]}),
        )
        .await;
        let id = view.body["id"].as_i64().unwrap();
        let accepted = common::post(
            &app,
            &format!("/v1/games/{id}/accept"),
            &players[1],
            json!({}),
        )
        .await;
        assert_eq!(accepted.status, 200, "{accepted:?}");
        games.push(id);
    }
    let base = app.base.clone();
    let http = app.http.clone();
    let tokens = players.clone();
    let mover = actix_web::rt::spawn(async move {
        let view_as = |id: i64, token: String| {
            let request = http
                .get(format!("{base}/v1/games/{id}"))
                .bearer_auth(token)
                .send();
            async move { request.await.unwrap().json::<Value>().await.unwrap() }
        };
        let mut played = 0;
        for _round in 0..40 {
            for id in &games {
                let view = view_as(*id, tokens[0].clone()).await;
                if view["status"] != "active" {
                    continue;
                }
                // Seat 1 is anna's, seat 2 bob's.
                let seat = view["to_move"].as_u64().unwrap_or(1) as usize;
                let token = &tokens[(seat + 1) % 2];
                let view = view_as(*id, token.clone()).await;
                let Some(first) = view["legal_moves"][0].as_str() else {
                    continue;
                };
                let answer = http
                    .post(format!("{base}/v1/games/{id}/moves"))
                    .bearer_auth(token)
                    .json(&json!({"move": first, "ply": view["ply"]}))
                    .send()
                    .await
                    .unwrap();
                if answer.status() == 201 {
                    played += 1;
                }
            }
        }
        played
    });
    let scratch = Scratch::new("backup");
    let mut copies = Vec::new();
    for n in 0..3 {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let file = scratch.0.join(format!("copy-{n}.db"));
        let (code, _, err) = run(
            server()
                .args(["backup"])
                .arg(&file)
                .env("DATABASE_URL", &app.db.url),
            b"",
        );
        assert_eq!(code, 0, "{err}");
        assert!(err.contains("integrity check ok"), "{err}");
        copies.push(file);
    }
    let played = mover.await.unwrap();
    assert!(played > 0, "no move was played");
    let mut previous = 0;
    for file in &copies {
        let moves = check_copy(file);
        assert!(
            moves >= previous,
            "{} holds fewer moves than the copy before",
            file.display()
        );
        previous = moves;
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(file).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{}", file.display());
    }
    // A copy is never written over, and PostgreSQL is pointed to pg_dump.
    let (code, _, err) = run(
        server()
            .arg("backup")
            .arg(&copies[0])
            .env("DATABASE_URL", &app.db.url),
        b"",
    );
    assert_ne!(code, 0);
    assert!(err.contains("cannot create"), "{err}");
    let (code, _, err) = run(
        server()
            .arg("backup")
            .arg(scratch.0.join("pg.db"))
            .env("DATABASE_URL", common::DEFAULT_PG),
        b"",
    );
    assert_ne!(code, 0);
    assert!(err.contains("pg_dump"), "{err}");
}

/// Opens a backup, checks it, and counts its moves.
fn check_copy(file: &Path) -> i64 {
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let mut conn = diesel::SqliteConnection::establish(file.to_str().unwrap()).unwrap();
    let verdict = diesel::sql_query("PRAGMA integrity_check")
        .load::<Check>(&mut conn)
        .unwrap();
    assert_eq!(verdict.len(), 1);
    assert_eq!(verdict[0].integrity_check, "ok");
    use turnpost_server::db::schema::moves;
    moves::table.count().get_result(&mut conn).unwrap()
}

#[path = "common/play.rs"]
mod play;

/// `log_format = "json"`: every log line of the server is one JSON object.
#[test]
fn json_log_lines() {
    let db = TestDb::create(Backend::Sqlite);
    let scratch = Scratch::new("json-log");
    let file = scratch.file(
        "turnpost.toml",
        &format!(
            "log_format = \"json\"\nlisten = \"127.0.0.1:0\"\ndatabase_url = {}\ndata_dir = {}\n",
            serde_json::to_string(&db.url).unwrap(),
            serde_json::to_string(&db.dir.display().to_string()).unwrap(),
        ),
    );
    let mut child = server()
        .arg("--config")
        .arg(&file)
        .arg("serve")
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!("no start-up line: {seen:?}")
            });
        let event: Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        assert!(
            event["level"].is_string() && event["timestamp"].is_string(),
            "{line}"
        );
        let listening = event["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("listening on"));
        seen.push(line);
        if listening {
            break;
        }
    }
    child.kill().unwrap();
    let _ = child.wait();
}

/// The example configuration in `contrib/` is read without complaint.
#[test]
fn the_example_configuration_file_is_valid() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../contrib/turnpost.toml");
    let (code, out, err) = run(
        server()
            .arg("--config")
            .arg(&file)
            .args(["config", "--json"]),
        b"",
    );
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(setting(&report, "data_dir")["value"], "/var/lib/turnpost");
    assert_eq!(setting(&report, "data_dir")["source"], "file");
}

/// The operators' guide's table of keys (docs/operators.md, linked from the README) names every
/// key the server reads.
#[test]
fn the_readme_lists_every_key() {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/operators.md"))
            .unwrap();
    let table = readme
        .split("## Configuration")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap();
    let (code, out, err) = run(server().args(["config", "--json"]), b"");
    assert_eq!(code, 0, "{err}");
    let report: Value = serde_json::from_str(&out).unwrap();
    for entry in report["settings"].as_array().unwrap() {
        let key = entry["key"].as_str().unwrap();
        assert!(
            table.contains(&format!("| `{key}`")) || table.contains(&format!(" / `{key}` |")),
            "docs/operators.md's Configuration table lacks `{key}`"
        );
    }
}
