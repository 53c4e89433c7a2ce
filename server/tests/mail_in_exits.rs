//! `mail-in` never has a reply bounced for our own trouble: everything an operator can fix
//! (a refused configuration, migrations due, a database down) exits 75 so the MTA keeps the
//! reply; stderr (which an MTA puts into its notices) is one line with the sender and the
//! Message-ID and none of our configuration; the full log goes to `mail_in_log`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::io::Write as _;
use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Stdio};

use common::{Backend, TestDb};
use diesel::{Connection, RunQueryDsl};

const MESSAGE: &[u8] = b"From: Anna <anna@example.org>\r\nTo: games+x@example.org\r\n\
Message-ID: <reply-17@example.org>\r\nSubject: Re: your move\r\n\r\nF3-E4\r\n";

/// `mail-in` with `MESSAGE` on stdin; its exit code and stderr.
fn mail_in(mut command: Command) -> (i32, String) {
    let mut child = command
        .arg("mail-in")
        .env("NO_COLOR", "1")
        .env_remove("RUST_LOG")
        .env_remove("SMTP_URL")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(MESSAGE).unwrap();
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().unwrap(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn server() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_turnpost-server"));
    command
        .env_remove("DATABASE_URL")
        .env_remove("TURNPOST_CONFIG");
    command
}

/// The one line of a refusal: exit 75, sender and Message-ID, none of `hidden`.
fn assert_kept(code: i32, stderr: &str, hidden: &[&str]) {
    assert_eq!(code, 75, "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line on stderr: {stderr}");
    assert!(
        lines[0].contains("<reply-17@example.org>") && lines[0].contains("anna@example.org"),
        "{stderr}"
    );
    assert!(lines[0].contains("try again later"), "{stderr}");
    for secret in hidden {
        assert!(!stderr.contains(secret), "`{secret}` on stderr: {stderr}");
    }
}

#[test]
fn a_refused_configuration_is_kept_for_a_retry_without_showing_it() {
    let db = TestDb::create(Backend::Sqlite);
    let file = db.dir.join("turnpost.toml");
    std::fs::write(
        &file,
        "smtp_password_hint = \"hunter2\"\ndatabase_url = \"sqlite:///srv/secret-place.db\"\n",
    )
    .unwrap();
    let (code, stderr) = mail_in({
        let mut command = server();
        command.arg("--config").arg(&file);
        command
    });
    assert_kept(
        code,
        &stderr,
        &[
            "hunter2",
            "secret-place",
            "unknown key",
            "known keys",
            "turnpost.toml",
        ],
    );
    // A value the command line parser refuses (clap's usage error) is ours too.
    let (code, stderr) = mail_in({
        let mut command = server();
        command
            .env("TURNPOST_METRICS", "maybe")
            .env("TURNPOST_DATA_DIR", &db.dir);
        command
    });
    assert_kept(code, &stderr, &["--metrics", "maybe"]);
}

#[test]
fn a_database_down_or_with_migrations_due_is_kept_for_a_retry_and_logged_to_the_file() {
    let db = TestDb::create(Backend::Postgres);
    let log = db.dir.join("mail-in.log");
    // Down: nothing listens on port 1.
    let (code, stderr) = mail_in({
        let mut command = server();
        command
            .env(
                "DATABASE_URL",
                "postgres://turnpost:pw-secret@127.0.0.1:1/turnpost",
            )
            .env("TURNPOST_DATA_DIR", &db.dir)
            .env("TURNPOST_MAIL_IN_LOG", &log);
        command
    });
    assert_kept(code, &stderr, &["pw-secret", "127.0.0.1"]);
    assert!(stderr.contains("does not answer"), "{stderr}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("cannot reach the database")
            && logged.contains("reply-17@example.org")
            && logged.contains("anna@example.org"),
        "{logged}"
    );
    assert!(!logged.contains("pw-secret"), "{logged}");
    let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // Migrations due: a new binary installed, its server not restarted yet.
    let output = server()
        .arg("migrate")
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let mut conn = diesel::PgConnection::establish(&db.url).unwrap();
    diesel::sql_query(
        "DELETE FROM __diesel_schema_migrations WHERE version = \
         (SELECT max(version) FROM __diesel_schema_migrations)",
    )
    .execute(&mut conn)
    .unwrap();
    let (code, stderr) = mail_in({
        let mut command = server();
        command
            .env("DATABASE_URL", &db.url)
            .env("TURNPOST_DATA_DIR", &db.dir)
            .env("TURNPOST_MAIL_IN_LOG", &log);
        command
    });
    assert_kept(code, &stderr, &[&db.url]);
    assert!(stderr.contains("migrations are due"), "{stderr}");
    let logged = std::fs::read_to_string(&log).unwrap();
    assert!(
        logged.contains("not migrated (1 migration due)"),
        "{logged}"
    );
}

/// `GET /metrics` of a server at `address`, as text.
fn scrape(address: &str) -> String {
    use std::io::Read as _;
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /metrics HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
}

#[test]
fn pipe_deliveries_show_in_every_servers_metrics() {
    use std::io::BufRead as _;
    let db = TestDb::create(Backend::Sqlite);
    let mut serving = server()
        .arg("serve")
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env("TURNPOST_LISTEN", "127.0.0.1:0")
        .env("TURNPOST_METRICS", "true")
        .env("RUST_LOG", "info")
        .env("NO_COLOR", "1")
        .env_remove("SMTP_URL")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(serving.stderr.take().unwrap()).lines();
    let address = loop {
        let line = lines.next().expect("no start-up line").unwrap();
        if let Some((_, rest)) = line.split_once("listening on http://") {
            break rest.split(';').next().unwrap().trim().to_owned();
        }
    };
    // Keep reading, so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines {});
    let line = "turnpost_mail_in_deliveries_total{outcome=\"ignored\"}";
    assert!(!scrape(&address).contains(line));
    for n in 1..=2 {
        let (code, stderr) = mail_in({
            let mut command = server();
            command
                .env("DATABASE_URL", &db.url)
                .env("TURNPOST_DATA_DIR", &db.dir);
            command
        });
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("ignored"), "{stderr}");
        let text = scrape(&address);
        assert!(text.contains(&format!("{line} {n}")), "{text}");
    }
    let _ = serving.kill();
    let _ = serving.wait();
}
