//! The Postfix recipes of `docs/operators.md` (kept in `examples/postfix/`), run against a real
//! Postfix from Debian's packages: a player's reply sent to Postfix over SMTP reaches the game.
//! Over LMTP (`serve` with `lmtp_listen`): the move is played; a reply to an unknown key is
//! refused at RCPT with 550 and bounced by Postfix; with the server down the reply is deferred
//! and delivered once the server is back. Over the pipe to `mail-in`: the move is played; a
//! configuration error defers the reply (75), never bounces it, and it is delivered once fixed.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;
mod postfix_instance;
#[path = "common/process.rs"]
mod process;

use std::time::{Duration, Instant};

use common::{Backend, Received, SmtpSink, TestDb};
use diesel::prelude::*;
use postfix_instance::{recipe, Postfix};
use process::ServerProcess;
use serde_json::{json, Value};
use turnpost_server::db::schema::moves;
use turnpost_shared::{AnyGame, GameKind, Options};

const MAIL_FROM: &str = "turnpost <games@turnpost.test>";
/// The reply addresses' domain, in place of the recipes' `play.example.org`.
const DOMAIN: &str = "turnpost.test";

/// A server process on a fresh database, its mail caught by a sink, and two players.
struct Table {
    db: TestDb,
    smtp: SmtpSink,
    env: Vec<(String, String)>,
    server: Option<ServerProcess>,
    http: reqwest::Client,
    anna: String,
    bob: String,
}

impl Table {
    fn open(backend: Backend, extra: &[(&str, &str)]) -> Self {
        let db = TestDb::create(backend);
        let smtp = SmtpSink::start();
        let mut env = vec![
            ("SMTP_URL".to_owned(), smtp.url()),
            ("TURNPOST_MAIL_FROM".to_owned(), MAIL_FROM.to_owned()),
            (
                "TURNPOST_PUBLIC_URL".to_owned(),
                "http://turnpost.test".to_owned(),
            ),
            ("TURNPOST_OUTBOX_POLL_MS".to_owned(), "50".to_owned()),
            ("TURNPOST_BOT_POLL_MS".to_owned(), "0".to_owned()),
        ];
        env.extend(
            extra
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
        );
        let mut table = Self {
            db,
            smtp,
            env,
            server: None,
            http: reqwest::Client::builder()
                .pool_idle_timeout(Duration::from_secs(2))
                .build()
                .unwrap(),
            anna: String::new(),
            bob: String::new(),
        };
        table.start_server();
        let pool = table.db.pool();
        table.anna = play::player(&pool, "anna");
        table.bob = play::player(&pool, "bob");
        table
    }

    fn start_server(&mut self) {
        let pairs: Vec<(&str, &str)> = self
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        self.server = Some(ServerProcess::start(&self.db, &pairs));
    }

    async fn api(&self, method: reqwest::Method, path: &str, token: &str, body: Value) -> Value {
        let base = self.server.as_ref().unwrap().base.clone();
        let answer = self
            .http
            .request(method, format!("{base}{path}"))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        answer.json().await.unwrap()
    }

    /// anna challenges bob to Kefren, bob accepts; the game and anna's first turn card.
    async fn started(&self) -> (i64, Received) {
        let view = self
            .api(
                reqwest::Method::POST,
                "/v1/games",
                &self.anna,
                json!({"kind": "kefren", "seats": ["anna", "bob"]}),
            )
            .await;
        let game = view["id"].as_i64().unwrap();
        let view = self
            .api(
                reqwest::Method::POST,
                &format!("/v1/games/{game}/accept"),
                &self.bob,
                json!({}),
            )
            .await;
        assert_eq!(view["status"], "active", "{view}");
        (game, self.card("anna@example.org", 0).await)
    }

    /// The turn card of ply `ply` sent to `to`.
    async fn card(&self, to: &str, ply: usize) -> Received {
        let marker = format!("p{ply}@");
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(card) = self
                .smtp
                .messages_to(to)
                .into_iter()
                .find(|m| m.header("Reply-To").is_some_and(|r| r.contains(&marker)))
            {
                return card;
            }
            assert!(
                Instant::now() < deadline,
                "no turn card of ply {ply} for {to}"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn moves_played(&self, game: i64) -> i64 {
        let mut pooled = self.db.pool().get().unwrap();
        let conn: &mut turnpost_server::db::DbConnection = &mut pooled;
        moves::table
            .filter(moves::game_id.eq(game))
            .count()
            .get_result(conn)
            .unwrap()
    }

    /// Waits (60 s at most: Postfix retries deferred mail every second or two, and is asked
    /// to every 5 s) until `game` has `count` moves.
    async fn wait_moves(&self, game: i64, count: i64, postfix: &Postfix) {
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut flushed = Instant::now();
        while self.moves_played(game) < count {
            if flushed.elapsed() > Duration::from_secs(5) {
                postfix.flush();
                flushed = Instant::now();
            }
            assert!(
                Instant::now() < deadline,
                "game {game} has {} moves, not {count}; Postfix's log:\n{}",
                self.moves_played(game),
                postfix.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(self.moves_played(game), count);
    }
}

/// The reply address of a card.
fn reply_to(mail: &Received) -> String {
    let header = mail.header("Reply-To").expect("game mails carry Reply-To");
    let address = header
        .rsplit_once('<')
        .map_or(header.as_str(), |(_, rest)| rest.trim_end_matches('>'))
        .to_owned();
    assert!(address.ends_with(&format!("@{DOMAIN}")), "{address}");
    address
}

/// A plain-text reply.
fn reply(from: &str, to: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: <{id}@client.example>\r\nSubject: Re: Kefren\r\n\
         Date: Sun, 29 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=us-ascii\r\n\r\n{body}\r\n\r\n> Your move in Kefren.\r\n"
    )
    .into_bytes()
}

/// The first two moves of a Kefren game (anna's, then bob's).
fn two_moves() -> (String, String) {
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    let moves = play::simulate(&start, 7, 400);
    (moves[0].clone(), moves[1].clone())
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

async fn lmtp_way(backend: Backend) {
    // The port is chosen first: Postfix is configured with it, and the server is restarted on it.
    let lmtp = format!("127.0.0.1:{}", free_port());
    let mut table = Table::open(backend, &[("TURNPOST_LMTP_LISTEN", &lmtp)]);
    let main_cf = recipe("main.cf-lmtp")
        .replace("play.example.org", DOMAIN)
        .replace("127.0.0.1:2424", &lmtp);
    assert!(main_cf.contains(&format!("lmtp:inet:{lmtp}")), "{main_cf}");
    let postfix = Postfix::start(&main_cf, "");
    let (game, card) = table.started().await;
    let (first, second) = two_moves();

    postfix.send(
        "anna@example.org",
        &reply_to(&card),
        &reply("anna@example.org", &reply_to(&card), "lmtp-1", &first),
    );
    table.wait_moves(game, 1, &postfix).await;
    postfix.wait_log(&["relay=127.0.0.1", "status=sent", "250 2.0.0 delivered"]);

    // A key that is not ours: refused at RCPT, bounced by Postfix at once, nothing played.
    let forged = format!("games+aaaaaaaaaaaaaaaaaaaaaaaaaag{game}s1p0@{DOMAIN}");
    postfix.send(
        "anna@example.org",
        &forged,
        &reply("anna@example.org", &forged, "lmtp-2", &second),
    );
    let bounced = postfix.wait_log(&["status=bounced", "550 5.1.1"]);
    assert!(bounced.contains("RCPT TO"), "{bounced}");
    postfix.wait_log(&["sender non-delivery notification"]);
    assert_eq!(table.moves_played(game), 1);

    // The server down: deferred (kept), then delivered once it is back on the same port.
    let card = table.card("bob@example.org", 1).await;
    table.server.take().unwrap().kill();
    postfix.send(
        "bob@example.org",
        &reply_to(&card),
        &reply("bob@example.org", &reply_to(&card), "lmtp-3", &second),
    );
    let deferred = postfix.wait_log(&["status=deferred", "Connection refused"]);
    assert!(deferred.contains("dsn=4."), "{deferred}");
    assert_eq!(postfix.queued(), 1, "{}", postfix.log());
    assert_eq!(table.moves_played(game), 1);
    table.start_server();
    table.wait_moves(game, 2, &postfix).await;
    let log = postfix.log();
    assert_eq!(
        log.lines()
            .filter(|l| l.contains("postfix/lmtp") && l.contains("status=bounced"))
            .count(),
        1,
        "only the forged key bounced:\n{log}"
    );
}

#[tokio::test]
async fn postfix_delivers_over_lmtp_sqlite() {
    lmtp_way(Backend::Sqlite).await;
}

#[tokio::test]
async fn postfix_delivers_over_lmtp_postgres() {
    lmtp_way(Backend::Postgres).await;
}

async fn pipe_way(backend: Backend) {
    let table = Table::open(backend, &[]);
    // `mail-in` reads the server's configuration from a file, as the recipe has it.
    let config = table.db.dir.join("turnpost.toml");
    let settings = format!(
        "database_url = \"{}\"\ndata_dir = \"{}\"\nmail_from = \"{MAIL_FROM}\"\n\
         public_url = \"http://turnpost.test\"\n",
        table.db.url,
        table.db.dir.display()
    );
    std::fs::write(&config, &settings).unwrap();
    // Postfix's pipe runs `mail-in` as an unprivileged user (here `nobody`, there `turnpost`):
    // it must reach the configuration and, with SQLite, the database file and its directory.
    let status = std::process::Command::new("chown")
        .args(["-R", "nobody:nogroup"])
        .arg(&table.db.dir)
        .status()
        .unwrap();
    assert!(status.success());
    let main_cf = recipe("main.cf-pipe").replace("play.example.org", DOMAIN);
    let master_cf = recipe("master.cf-pipe")
        .replace("user=turnpost", "user=nobody")
        .replace(
            "/usr/local/bin/turnpost-server",
            env!("CARGO_BIN_EXE_turnpost-server"),
        )
        .replace("/etc/turnpost/turnpost.toml", &config.display().to_string());
    let postfix = Postfix::start(&main_cf, &master_cf);
    let (game, card) = table.started().await;
    let (first, second) = two_moves();

    postfix.send(
        "anna@example.org",
        &reply_to(&card),
        &reply("anna@example.org", &reply_to(&card), "pipe-1", &first),
    );
    table.wait_moves(game, 1, &postfix).await;
    postfix.wait_log(&["relay=turnpost", "status=sent"]);

    // A configuration error (a key no version knows): 75, deferred, not bounced; delivered once
    // the file is fixed.
    std::fs::write(&config, format!("{settings}no_such_setting = 1\n")).unwrap();
    let card = table.card("bob@example.org", 1).await;
    postfix.send(
        "bob@example.org",
        &reply_to(&card),
        &reply("bob@example.org", &reply_to(&card), "pipe-2", &second),
    );
    let deferred = postfix.wait_log(&["relay=turnpost", "status=deferred"]);
    assert!(deferred.contains("temporary failure"), "{deferred}");
    assert!(
        !deferred.contains("no_such_setting") && !deferred.contains(&table.db.url),
        "our configuration in Postfix's notice: {deferred}"
    );
    assert_eq!(table.moves_played(game), 1);
    // Postfix retries deferred mail every second or two here (its backoff is set short).
    std::fs::write(&config, &settings).unwrap();
    table.wait_moves(game, 2, &postfix).await;
    let log = postfix.log();
    assert!(!log.contains("status=bounced"), "{log}");
}

#[tokio::test]
async fn postfix_pipes_to_mail_in_sqlite() {
    pipe_way(Backend::Sqlite).await;
}

#[tokio::test]
async fn postfix_pipes_to_mail_in_postgres() {
    pipe_way(Backend::Postgres).await;
}
