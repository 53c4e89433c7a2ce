//! Play by email with the real parts: the `turnpost-server` binary serving (mail out through
//! real SMTP to the in-process sink), replies fed to `turnpost-server mail-in` on stdin or
//! delivered to a real Dovecot mailbox the server watches. Replies are shaped like those of
//! Gmail (quoted-printable, HTML beside), Outlook (original message block), Apple Mail (HTML
//! only, base64) and Thunderbird (ISO-8859-1, signature).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
mod dovecot;
#[path = "common/play.rs"]
mod play;
#[path = "common/process.rs"]
mod process;

use std::io::Write as _;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use common::{Backend, Received, SmtpSink, TestDb};
use diesel::prelude::*;
use dovecot::Dovecot;
use process::ServerProcess;
use serde_json::{json, Value};
use turnpost_server::db::schema::{inbound_mail, mail_outbox, moves};
use turnpost_server::inbound::InboundMessage;
use turnpost_shared::{AnyGame, GameKind, Options};

const MAIL_FROM: &str = "turnpost <games@turnpost.test>";

/// How replies reach the server.
#[derive(Clone, Copy)]
enum Delivery<'a> {
    /// `turnpost-server mail-in` on stdin, one process per message.
    MailIn,
    /// Appended to the INBOX the server watches.
    Imap(&'a Dovecot),
}

/// A server with its database, SMTP sink and settings, and two players.
struct Table {
    db: TestDb,
    smtp: SmtpSink,
    env: Vec<(String, String)>,
    server: Option<ServerProcess>,
    http: reqwest::Client,
    anna: String,
    bob: String,
    counter: std::cell::Cell<usize>,
}

impl Table {
    fn open(
        backend: Backend,
        imap: Option<&Dovecot>,
        servers: usize,
    ) -> (Self, Vec<ServerProcess>) {
        Self::open_with(backend, imap, servers, &[])
    }

    fn open_with(
        backend: Backend,
        imap: Option<&Dovecot>,
        servers: usize,
        extra: &[(&str, &str)],
    ) -> (Self, Vec<ServerProcess>) {
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
        if let Some(dovecot) = imap {
            env.push(("TURNPOST_IMAP_URL".to_owned(), dovecot.url("INBOX")));
            env.push(("TURNPOST_IMAP_POLL_MS".to_owned(), "100".to_owned()));
            env.push(("TURNPOST_IMAP_DONE_FOLDER".to_owned(), "Done".to_owned()));
        }
        let pairs: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let mut processes: Vec<ServerProcess> = (0..servers.max(1))
            .map(|_| ServerProcess::start(&db, &pairs))
            .collect();
        let pool = db.pool();
        let anna = play::player(&pool, "anna");
        let bob = play::player(&pool, "bob");
        let server = processes.remove(0);
        (
            Self {
                db,
                smtp,
                env,
                server: Some(server),
                // Idle connections are dropped before the server's keep-alive (5 s) ends
                // them: a pooled connection reused as the server closes it fails the request
                // (seen once while the test waited for mail through IMAP).
                http: reqwest::Client::builder()
                    .pool_idle_timeout(Duration::from_secs(2))
                    .build()
                    .unwrap(),
                anna,
                bob,
                counter: std::cell::Cell::new(0),
            },
            processes,
        )
    }

    fn base(&self) -> String {
        self.server.as_ref().unwrap().base.clone()
    }

    async fn api(&self, method: reqwest::Method, path: &str, token: &str, body: Value) -> Value {
        let answer = self
            .http
            .request(method, format!("{}{path}", self.base()))
            .bearer_auth(token)
            .json(&body)
            .send()
            .await
            .unwrap();
        answer.json().await.unwrap()
    }

    /// anna challenges bob to Kefren (anna is seat 1, Black, and moves first).
    async fn challenge(&self) -> i64 {
        let view = self
            .api(
                reqwest::Method::POST,
                "/v1/games",
                &self.anna,
                json!({"kind": "kefren", "seats": ["anna", "bob"]}),
            )
            .await;
        view["id"].as_i64().unwrap()
    }

    async fn game(&self, id: i64) -> Value {
        self.api(
            reqwest::Method::GET,
            &format!("/v1/games/{id}"),
            &self.anna,
            Value::Null,
        )
        .await
    }

    /// Runs `mail-in` with the server's settings (or `database_url` instead of the real one);
    /// answers its exit code and stderr.
    fn mail_in_with(&self, raw: &[u8], database_url: &str) -> (i32, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
            .arg("mail-in")
            .env("DATABASE_URL", database_url)
            .env("TURNPOST_DATA_DIR", &self.db.dir)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(raw).unwrap();
        let output = child.wait_with_output().unwrap();
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    }

    fn mail_in(&self, raw: &[u8]) -> (i32, String) {
        self.mail_in_with(raw, &self.db.url)
    }

    fn deliver(&self, how: Delivery<'_>, raw: &[u8]) {
        match how {
            Delivery::MailIn => {
                let (code, stderr) = self.mail_in(raw);
                assert_eq!(code, 0, "mail-in failed:\n{stderr}");
            }
            Delivery::Imap(dovecot) => dovecot.append("INBOX", raw),
        }
    }

    /// Runs `query` once the servers have composed the mail of every game event so far (they
    /// run in their own processes, so waiting here holds nothing up).
    fn count<T>(&self, query: impl FnOnce(&mut turnpost_server::db::DbConnection) -> T) -> T {
        let mut conn = self.db.pool().get().unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while turnpost_server::db::events::waiting(&mut conn).unwrap() > 0 {
            assert!(
                std::time::Instant::now() < deadline,
                "game events still wait for their mail"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        query(&mut conn)
    }

    fn outbox_rows(&self) -> i64 {
        self.count(|conn| mail_outbox::table.count().get_result(conn).unwrap())
    }

    fn outbox_rows_to(&self, to: &str) -> i64 {
        self.count(|conn| {
            mail_outbox::table
                .filter(mail_outbox::recipient.eq(to))
                .count()
                .get_result(conn)
                .unwrap()
        })
    }

    fn moves_played(&self, game: i64) -> i64 {
        self.count(|conn| {
            moves::table
                .filter(moves::game_id.eq(game))
                .count()
                .get_result(conn)
                .unwrap()
        })
    }

    fn handled(&self) -> i64 {
        self.count(|conn| inbound_mail::table.count().get_result(conn).unwrap())
    }

    /// `from` replies (shape `shape`) to `address` with `body` through `mail-in`; answers the
    /// first new mail to `from` that is `wanted` (`what` names it in a failure).
    async fn answer(
        &self,
        from: &str,
        (shape, address, body): (usize, &str, &str),
        what: &str,
        wanted: impl Fn(&Received) -> bool,
    ) -> Received {
        let before = self.smtp.messages_to(from).len();
        let id = self.next_id();
        self.deliver(Delivery::MailIn, &reply(shape, from, address, &id, body));
        wait_mail(&self.smtp, from, before, what, wanted).await
    }

    /// A fresh Message-ID.
    fn next_id(&self) -> String {
        self.counter.set(self.counter.get() + 1);
        format!(
            "<reply-{}-{}@client.example>",
            self.counter.get(),
            std::process::id()
        )
    }
}

/// The text of a received mail (its text part, decoded).
fn text_of(mail: &Received) -> String {
    InboundMessage::read(mail.data.as_bytes()).unwrap().text()
}

/// Waits for a mail to `to` that `wanted` accepts, among those after the first `skip`.
async fn wait_mail(
    smtp: &SmtpSink,
    to: &str,
    skip: usize,
    what: &str,
    wanted: impl Fn(&Received) -> bool,
) -> Received {
    // As the shared SMTP sink's wait: generous for a loaded machine (the mail worker yields to
    // busier work for up to `mail_catch_up_ms`), and returning as soon as the mail is there.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(found) = smtp.messages_to(to).into_iter().skip(skip).find(&wanted) {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no {what} for {to} within 60 s; got:\n{}",
            smtp.messages_to(to)
                .iter()
                .map(|m| format!("{:?}\n{}", m.header("Reply-To"), text_of(m)))
                .collect::<Vec<_>>()
                .join("\n----\n")
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The reply address of a mail, checked to name `ply`.
fn reply_to(mail: &Received) -> String {
    let header = mail.header("Reply-To").expect("game mails carry Reply-To");
    let address = header
        .rsplit_once('<')
        .map_or(header.as_str(), |(_, rest)| rest.trim_end_matches('>'))
        .to_owned();
    assert!(
        address.starts_with("games+") && address.ends_with("@turnpost.test"),
        "{address}"
    );
    address
}

/// A reply with `body` as its first lines, from `from` to `to`, in one of four client shapes.
fn reply(shape: usize, from: &str, to: &str, id: &str, body: &str) -> Vec<u8> {
    let head = format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: {id}\r\nIn-Reply-To: <card@turnpost.test>\r\n\
         Date: Tue, 24 Nov 2026 10:00:00 +0000\r\nSubject: Re: Kefren\r\nMIME-Version: 1.0\r\n"
    );
    let quoted = "> Your move in Kefren.\r\n> resign\r\n";
    let text = match shape % 4 {
        // Gmail: quoted-printable text beside HTML with the original in a blockquote.
        0 => format!(
            "Content-Type: multipart/alternative; boundary=\"b0\"\r\n\r\n--b0\r\n\
             Content-Type: text/plain; charset=\"UTF-8\"\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n\
             {body}\r\n\r\nOn Tue, Nov 24, 2026 at 9:58=E2=80=AFAM turnpost <games@turnpost.test> wrote:\r\n\r\n{quoted}\r\n\
             --b0\r\nContent-Type: text/html; charset=\"UTF-8\"\r\n\r\n<div dir=\"ltr\">{}</div>\
             <blockquote>resign</blockquote>\r\n--b0--\r\n",
            body.replace("\r\n", "<br>")
        ),
        // Outlook: the original after a separator block.
        1 => format!(
            "Content-Type: text/plain; charset=\"us-ascii\"\r\n\r\n{body}\r\n\r\n\
             -----Original Message-----\r\nFrom: turnpost <games@turnpost.test>\r\n\
             Sent: Tuesday, November 24, 2026 9:58 AM\r\n\r\nresign\r\n"
        ),
        // Apple Mail: HTML only, base64.
        2 => {
            let html = format!(
                "<html><body><div>{}</div><br><blockquote type=\"cite\">resign</blockquote></body></html>",
                body.replace("\r\n", "<br>")
            );
            let encoded = base64::engine::general_purpose::STANDARD.encode(html);
            format!(
                "Content-Type: text/html; charset=\"utf-8\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{encoded}\r\n"
            )
        }
        // Thunderbird: ISO-8859-1, quoted original and a signature.
        _ => {
            let mut bytes = format!(
                "Content-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n\
                 {body}\r\n\r\nOn 24.11.26 09:58, turnpost wrote:\r\n{quoted}\r\n-- \r\nJos"
            )
            .into_bytes();
            bytes.extend_from_slice(&[0xe9, b'\r', b'\n']);
            let mut all = head.into_bytes();
            all.extend_from_slice(&bytes);
            return all;
        }
    };
    format!("{head}{text}").into_bytes()
}

/// A Kefren game the test policy finishes in few moves: the moves, from the start.
fn short_kefren() -> Vec<String> {
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    (0..60)
        .map(|seed| play::simulate(&start, seed, 400))
        .filter(|moves| {
            let mut game = start.clone();
            for m in moves {
                game = game.play(m).unwrap().0;
            }
            game.status().is_over()
        })
        .min_by_key(Vec::len)
        .expect("a seed that finishes")
}

/// A whole Kefren game by mail alone: bob accepts anna's challenge by replying, then each plays
/// every move by replying to their turn card, until the game is over.
async fn whole_game(backend: Backend, imap: bool) {
    let dovecot = imap.then(Dovecot::start);
    let how = dovecot.as_ref().map_or(Delivery::MailIn, Delivery::Imap);
    let (table, _) = Table::open(backend, dovecot.as_ref(), 1);
    let game = table.challenge().await;
    let challenge = wait_mail(&table.smtp, "bob@example.org", 0, "challenge", |_| true).await;
    assert!(
        text_of(&challenge).contains("reply to this mail with accept or decline"),
        "{}",
        text_of(&challenge)
    );
    let id = table.next_id();
    let raw = reply(
        0,
        "Bob <bob@example.org>",
        &reply_to(&challenge),
        &id,
        "Accept",
    );
    table.deliver(how, &raw);

    let moves = short_kefren();
    eprintln!("a Kefren game of {} moves, by mail", moves.len());
    let players = ["anna@example.org", "bob@example.org"];
    for (ply, mv) in moves.iter().enumerate() {
        let to = players[ply % 2];
        let marker = format!("p{ply}@");
        let card = wait_mail(
            &table.smtp,
            to,
            0,
            &format!("turn card for ply {ply}"),
            |m| {
                m.header("Reply-To").is_some_and(|r| r.contains(&marker))
                    && text_of(m).contains("Or simply reply to this mail with your move")
            },
        )
        .await;
        let id = table.next_id();
        let raw = reply(ply, to, &reply_to(&card), &id, mv);
        table.deliver(how, &raw);
    }
    // Both players get the game-over mail; the server has every move.
    for to in players {
        wait_mail(&table.smtp, to, 0, "game-over mail", |m| {
            text_of(m).contains("is over")
        })
        .await;
    }
    let view = table.game(game).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["ply"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(table.moves_played(game) as usize, moves.len());
    // One record per reply: the accept and every move.
    assert_eq!(table.handled() as usize, moves.len() + 1);
    // A confirmation with the board went to each mover.
    let confirmations = table
        .smtp
        .messages_to("anna@example.org")
        .iter()
        .filter(|m| text_of(m).contains("Done in"))
        .count();
    assert!(confirmations > 0, "anna got no confirmation");
    // Every mail is automatic (RFC 3834), so no autoresponder answers it: the answers to
    // a player's mail as auto-replied, the rest as auto-generated.
    for mail in table.smtp.messages_to("anna@example.org") {
        let expected = if text_of(&mail).contains("Done in") {
            "auto-replied"
        } else {
            "auto-generated"
        };
        assert_eq!(
            mail.header("Auto-Submitted").as_deref(),
            Some(expected),
            "{}",
            text_of(&mail)
        );
    }
    if let Some(dovecot) = &dovecot {
        // Every reply was moved to the done folder.
        let deadline = Instant::now() + Duration::from_secs(10);
        while dovecot.count("INBOX") > 0 {
            assert!(Instant::now() < deadline, "INBOX not emptied");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(dovecot.count("Done") as usize, moves.len() + 1);
    }
}

async fn whole_game_through_mail_in(backend: Backend) {
    whole_game(backend, false).await;
}

async fn whole_game_through_imap(backend: Backend) {
    whole_game(backend, true).await;
}

/// Starts a game (accepted through the API) and waits for anna's first turn card.
async fn started(table: &Table) -> (i64, Received) {
    let game = table.challenge().await;
    let view = table
        .api(
            reqwest::Method::POST,
            &format!("/v1/games/{game}/accept"),
            &table.bob,
            json!({}),
        )
        .await;
    assert_eq!(view["status"], "active", "{view}");
    let card = wait_mail(&table.smtp, "anna@example.org", 0, "first turn card", |m| {
        m.header("Reply-To").is_some()
    })
    .await;
    (game, card)
}

/// Mail that must not act: another player's From with a seat's key, a key changed by one
/// character, an address without a key, turnpost's own address, auto-replies and bounces. Each
/// is accepted by `mail-in` (exit 0), plays nothing and sends nothing.
async fn forged_unknown_and_automatic_mail_do_nothing(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let address = reply_to(&card);
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let outbox = table.outbox_rows();
    let mut tampered = address.clone();
    let at = tampered.find('+').unwrap() + 1;
    let changed = if &tampered[at..=at] == "a" { "b" } else { "a" };
    tampered.replace_range(at..=at, changed);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        (
            "forged sender",
            reply(1, "bob@example.org", &address, &table.next_id(), &first),
        ),
        (
            "sender in another domain",
            reply(
                1,
                "anna@example.org.evil",
                &address,
                &table.next_id(),
                &first,
            ),
        ),
        (
            "unknown key",
            reply(1, "anna@example.org", &tampered, &table.next_id(), &first),
        ),
        (
            "no key",
            reply(
                1,
                "anna@example.org",
                "games@turnpost.test",
                &table.next_id(),
                &first,
            ),
        ),
        (
            "own address",
            reply(1, "games@turnpost.test", &address, &table.next_id(), &first),
        ),
        ("not a message", b"just some bytes".to_vec()),
        (
            "the player's address as the display name",
            reply(
                1,
                "\"anna@example.org\" <bob@example.org>",
                &address,
                &table.next_id(),
                &first,
            ),
        ),
        (
            "the player's address as an encoded display name",
            reply(
                1,
                "=?utf-8?q?anna=40example.org?= <bob@example.org>",
                &address,
                &table.next_id(),
                &first,
            ),
        ),
        (
            "the player among several senders",
            reply(
                1,
                "anna@example.org, bob@example.org",
                &address,
                &table.next_id(),
                &first,
            ),
        ),
        (
            "the player in a second From header",
            reply(
                1,
                "bob@example.org\r\nFrom: anna@example.org",
                &address,
                &table.next_id(),
                &first,
            ),
        ),
        (
            "larger than the limit",
            reply(
                1,
                "anna@example.org",
                &address,
                &table.next_id(),
                &format!("{first}\r\n{}", "A".repeat(76).repeat(30_000)),
            ),
        ),
        (
            "the local part in another case",
            reply(1, "Anna@example.org", &address, &table.next_id(), &first),
        ),
    ];
    let mut automatic = Vec::new();
    for header in [
        "Auto-Submitted: auto-replied",
        "Precedence: bulk",
        "Precedence: auto_reply",
        "X-Autoreply: yes",
        "Return-Path: <>",
    ] {
        let mut raw = format!("{header}\r\n").into_bytes();
        raw.extend(reply(
            1,
            "anna@example.org",
            &address,
            &table.next_id(),
            &first,
        ));
        automatic.push((header, raw));
    }
    for (what, raw) in cases
        .iter()
        .map(|(w, r)| (*w, r))
        .chain(automatic.iter().map(|(w, r)| (*w, r)))
    {
        let (code, stderr) = table.mail_in(raw);
        assert_eq!(code, 0, "{what}: {stderr}");
        assert!(stderr.contains("ignored"), "{what}: {stderr}");
        assert_eq!(table.moves_played(game), 0, "{what} played a move");
        assert_eq!(table.outbox_rows(), outbox, "{what} sent a mail");
        assert_eq!(table.handled(), 0, "{what} was recorded as acting");
    }
    // The same reply from the right sender plays.
    let (code, stderr) = table.mail_in(&reply(
        1,
        "anna@Example.ORG",
        &address,
        &table.next_id(),
        &first,
    ));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(table.moves_played(game), 1, "{stderr}");
}

/// A duplicate delivery acts once; a move in reply to an outdated card is refused as stale with
/// the board as it is; a syntax error is answered with a caret; confirmations can be turned
/// off; a reply to a finished game gets a "game over" answer.
async fn duplicate_stale_refused_and_over(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let anna_card = reply_to(&card);
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    let first = start.legal_moves()[0].clone();
    let id = table.next_id();
    // Written in lower case: the confirmation names the move in the game's notation, and
    // what was written.
    let written = first.to_lowercase();
    let raw = reply(0, "anna@example.org", &anna_card, &id, &written);
    assert_eq!(table.mail_in(&raw).0, 0);
    assert_eq!(table.moves_played(game), 1);
    let confirmation = wait_mail(&table.smtp, "anna@example.org", 1, "confirmation", |m| {
        text_of(m).contains("Done in")
    })
    .await;
    assert!(
        text_of(&confirmation).contains(&format!(
            "Done in Kefren #{game}: played {first} (written {written})."
        )),
        "{}",
        text_of(&confirmation)
    );
    // The same message again (the MTA retried, or IMAP and a forward both delivered it).
    let outbox = table.outbox_rows();
    let (code, stderr) = table.mail_in(&raw);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("handled before"), "{stderr}");
    assert_eq!(table.moves_played(game), 1);
    assert_eq!(table.outbox_rows(), outbox);

    // bob's card for ply 1; he answers with an unreadable move first, then correctly.
    let bob_card = wait_mail(&table.smtp, "bob@example.org", 0, "bob's turn card", |m| {
        m.header("Reply-To").is_some_and(|r| r.contains("p1@"))
    })
    .await;
    let bob_address = reply_to(&bob_card);
    let refusal = table
        .answer(
            "bob@example.org",
            (1, &bob_address, "F18-Q99\r\nresign"),
            "refusal",
            |_| true,
        )
        .await;
    let text = text_of(&refusal);
    assert!(
        text.contains("This line of your reply was refused"),
        "{text}"
    );
    assert!(text.contains("^"), "caret under the syntax error:\n{text}");
    // Said for a player: which word, what was expected, a move as an example.
    let example = start.play(&first).unwrap().0.legal_moves()[0].clone();
    assert!(
        text.contains(&format!(
            "In \"F18-Q99\", the \"Q\" after \"F18-\" does not fit: expected a cell (a letter \
             a-i and a number). For example: {example}."
        )),
        "{text}"
    );
    assert!(!text.contains("at byte"), "{text}");
    assert!(text.contains("The line after it was not run."), "{text}");
    assert!(text.contains("legal moves, for example"), "{text}");
    assert_eq!(
        reply_to(&refusal),
        bob_address,
        "the answer keeps the seat's address"
    );
    assert_eq!(
        table.game(game).await["status"],
        "active",
        "resign after the refusal did not run"
    );

    // bob's address with its ply edited to a move not reached: the ply is signed, so the
    // address is not his any more: nothing played, nothing sent.
    let edited = bob_address.replace("p1@", "p99@");
    let second = start.play(&first).unwrap().0.legal_moves()[0].clone();
    let outbox = table.outbox_rows();
    let (code, stderr) = table.mail_in(&reply(
        1,
        "bob@example.org",
        &edited,
        &table.next_id(),
        &second,
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("wrong reply key"), "{stderr}");
    assert_eq!(table.outbox_rows(), outbox);
    assert_eq!(table.moves_played(game), 1);

    // A line with control characters (a NUL, quoted-printable `=00`; an escape) is refused and
    // answered like any other, on both backends.
    let before = table.smtp.messages_to("bob@example.org").len();
    let id = table.next_id();
    let (code, stderr) = table.mail_in(&reply(
        0,
        "bob@example.org",
        &bob_address,
        &id,
        "F18=00-F17=1B[31m",
    ));
    assert_eq!(code, 0, "{stderr}");
    let refusal = wait_mail(&table.smtp, "bob@example.org", before, "refusal", |_| true).await;
    let text = text_of(&refusal);
    assert!(
        text.contains("This line of your reply was refused"),
        "{text}"
    );
    assert!(!text.contains('\0') && !text.contains('\u{1b}'), "{text:?}");
    assert_eq!(table.moves_played(game), 1);

    // anna turns confirmations off; bob's move is then confirmed to nobody.
    let settings = table
        .api(
            reqwest::Method::PATCH,
            "/v1/me/notifications",
            &table.bob,
            json!({"categories": {"mail_confirmations": false}}),
        )
        .await;
    assert_eq!(
        settings["categories"]["mail_confirmations"], false,
        "{settings}"
    );
    let after_first = start.play(&first).unwrap().0;
    let second = after_first.legal_moves()[0].clone();
    let to_bob = table.outbox_rows_to("bob@example.org");
    let id = table.next_id();
    assert_eq!(
        table
            .mail_in(&reply(2, "bob@example.org", &bob_address, &id, &second))
            .0,
        0
    );
    assert_eq!(table.moves_played(game), 2);
    assert_eq!(
        table.outbox_rows_to("bob@example.org"),
        to_bob,
        "no confirmation"
    );

    // anna answers her first card again, with a new message: stale.
    let third = after_first.play(&second).unwrap().0.legal_moves()[0].clone();
    let stale = table
        .answer(
            "anna@example.org",
            (3, &anna_card, &third),
            "stale answer",
            |m| text_of(m).contains("Stale"),
        )
        .await;
    assert!(
        text_of(&stale).contains("was for move 1, and the game has moved on to move 3"),
        "{}",
        text_of(&stale)
    );
    assert!(
        reply_to(&stale).contains("p2@"),
        "the answer's address shows the current ply"
    );
    assert_eq!(table.moves_played(game), 2);
    // bob answers his card again while it is anna's turn: the answer does not ask him for a
    // move (issue 47).
    let bobs_stale = table
        .answer(
            "bob@example.org",
            (3, &bob_address, &third),
            "stale answer on the other's turn",
            |m| text_of(m).contains("Stale"),
        )
        .await;
    let text = text_of(&bobs_stale);
    assert!(
        text.contains("it is anna's turn now: a new turn card comes when it is yours."),
        "{text}"
    );
    assert!(
        !text.contains("reply to this mail with your move"),
        "{text}"
    );
    assert_eq!(table.moves_played(game), 2);

    // anna resigns by mail; a later reply gets "game over".
    let id = table.next_id();
    assert_eq!(
        table
            .mail_in(&reply(
                0,
                "anna@example.org",
                &reply_to(&stale),
                &id,
                "resign"
            ))
            .0,
        0
    );
    assert_eq!(table.game(game).await["status"], "finished");
    let over = table
        .answer(
            "bob@example.org",
            (2, &bob_address, &third),
            "game-over answer",
            |m| text_of(m).contains("Game over"),
        )
        .await;
    assert!(
        text_of(&over).contains("The game is over"),
        "{}",
        text_of(&over)
    );
    // An empty reply gets the help.
    let help = table
        .answer("bob@example.org", (1, &bob_address, ""), "help", |m| {
            text_of(m).contains("one command per line")
        })
        .await;
    assert!(text_of(&help).contains("draw offer"));
}

/// The database is down while `mail-in` runs (PostgreSQL) or the SQLite file is not where the
/// configuration says (nothing created): exit 75, nothing done; the MTA's retry plays the move
/// once.
async fn database_down_during_mail_in(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let id = table.next_id();
    let raw = reply(0, "anna@example.org", &reply_to(&card), &id, &first);
    let (down, expected) = match backend {
        // Nothing listens on port 1.
        Backend::Postgres => ("postgres://postgres@127.0.0.1:1/turnpost".to_owned(), 75),
        Backend::Sqlite => ("sqlite:///proc/turnpost-absent/turnpost.db".to_owned(), 75),
    };
    let (code, stderr) = table.mail_in_with(&raw, &down);
    assert_eq!(code, expected, "{stderr}");
    assert_eq!(table.moves_played(game), 0);
    for _retry in 0..2 {
        let (code, stderr) = table.mail_in(&raw);
        assert_eq!(code, 0, "{stderr}");
    }
    assert_eq!(table.moves_played(game), 1);
    assert_eq!(table.handled(), 1);
}

/// `mail-in` with nothing in its environment but `TURNPOST_CONFIG`: it reads the database, the
/// sender and the public URL from the server's configuration file, plays the move, and its
/// answer links to the configured public URL.
async fn mail_in_reads_the_configuration_file(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let raw = reply(
        1,
        "anna@example.org",
        &reply_to(&card),
        &table.next_id(),
        &first,
    );
    let file = table.db.dir.join("turnpost.toml");
    let quoted = |text: &str| serde_json::to_string(text).unwrap();
    std::fs::write(
        &file,
        format!(
            "database_url = {}\ndata_dir = {}\nsmtp_url = {}\nmail_from = {}\n\
             public_url = \"http://turnpost.test\"\n",
            quoted(&table.db.url),
            quoted(&table.db.dir.display().to_string()),
            quoted(&table.smtp.url()),
            quoted(MAIL_FROM),
        ),
    )
    .unwrap();
    let before = table.smtp.messages_to("anna@example.org").len();
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .arg("mail-in")
        .env_clear()
        .env("TURNPOST_CONFIG", &file)
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&raw).unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert_eq!(table.moves_played(game), 1, "{stderr}");
    let confirmation = wait_mail(
        &table.smtp,
        "anna@example.org",
        before,
        "confirmation",
        |m| m.header("Reply-To").is_some(),
    )
    .await;
    let links = confirmation.data.replace("=\r\n", "");
    assert!(links.contains("http://turnpost.test/"), "{links}");
    assert!(!links.contains("127.0.0.1:8080"), "{links}");
}

/// Two server processes watch one mailbox: every reply acts once, however they race.
async fn two_processes_on_one_mailbox(backend: Backend) {
    let dovecot = Dovecot::start();
    let (table, others) = Table::open(backend, Some(&dovecot), 2);
    assert_eq!(others.len(), 1);
    let (game, card) = started(&table).await;
    let address = reply_to(&card);
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    // A move, the same move again as a new message, and a few questions.
    let mut replies = vec![reply(
        0,
        "anna@example.org",
        &address,
        &table.next_id(),
        &first,
    )];
    replies.push(reply(
        1,
        "anna@example.org",
        &address,
        &table.next_id(),
        &first,
    ));
    for n in 0..4 {
        let body = if n % 2 == 0 { "show" } else { "moves" };
        replies.push(reply(
            n,
            "anna@example.org",
            &address,
            &table.next_id(),
            body,
        ));
    }
    for raw in &replies {
        dovecot.append("INBOX", raw);
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    while table.handled() < replies.len() as i64 || dovecot.count("INBOX") > 0 {
        assert!(
            Instant::now() < deadline,
            "handled {} of {}; {} left in INBOX\n{}",
            table.handled(),
            replies.len(),
            dovecot.count("INBOX"),
            dovecot.log()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(table.handled(), replies.len() as i64);
    assert_eq!(table.moves_played(game), 1);
    // Both watchers may move one message at once (MOVE is copy then expunge), so the done
    // folder can hold a copy twice; what counts is that each acted once.
    assert!(dovecot.count("Done") as usize >= replies.len());
    // One answer per reply (confirmation, stale-free retry, shows and lists), no more.
    let answers: i64 = table.count(|conn| {
        inbound_mail::table
            .select(inbound_mail::answers)
            .load::<i32>(conn)
            .unwrap()
            .into_iter()
            .map(i64::from)
            .sum()
    });
    assert_eq!(answers, replies.len() as i64);
    drop(others);
}

/// Answers are limited per account and hour; past the limit commands still act, unanswered.
async fn answers_are_rate_limited(backend: Backend) {
    let (table, _) = Table::open_with(backend, None, 1, &[("TURNPOST_MAIL_ANSWERS_PER_HOUR", "2")]);
    let (game, card) = started(&table).await;
    let address = reply_to(&card);
    let to_anna = table.outbox_rows_to("anna@example.org");
    for n in 0..3 {
        let raw = reply(n, "anna@example.org", &address, &table.next_id(), "show");
        assert_eq!(table.mail_in(&raw).0, 0);
    }
    assert_eq!(table.outbox_rows_to("anna@example.org"), to_anna + 2);
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let raw = reply(1, "anna@example.org", &address, &table.next_id(), &first);
    let (code, stderr) = table.mail_in(&raw);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("0 answers"), "{stderr}");
    assert_eq!(table.moves_played(game), 1, "the move still acts");
    assert_eq!(table.outbox_rows_to("anna@example.org"), to_anna + 2);
}

both_backends!(
    answers_are_rate_limited,
    whole_game_through_mail_in,
    whole_game_through_imap,
    forged_unknown_and_automatic_mail_do_nothing,
    duplicate_stale_refused_and_over,
    database_down_during_mail_in,
    mail_in_reads_the_configuration_file,
    two_processes_on_one_mailbox,
    one_message_id_in_two_games,
    a_megabyte_of_blockquote_tags_is_handled_at_once,
    reply_addresses_sign_the_ply_and_end_with_the_tokens,
    with_dmarc_required_only_authenticated_senders_act,
);

/// An old card's address with its ply edited to the game's current ply plays nothing; revoking
/// the player's API tokens (`DELETE /v1/tokens/{id}`, what `turnpost logout` does) revokes every
/// reply address sent before, and mail sent after carries addresses that work.
async fn reply_addresses_sign_the_ply_and_end_with_the_tokens(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let anna_first = reply_to(&card);
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    let first = start.legal_moves()[0].clone();
    let after_first = start.play(&first).unwrap().0;
    let second = after_first.legal_moves()[0].clone();
    let third = after_first.play(&second).unwrap().0.legal_moves()[0].clone();
    assert_eq!(
        table
            .mail_in(&reply(
                1,
                "anna@example.org",
                &anna_first,
                &table.next_id(),
                &first
            ))
            .0,
        0
    );
    let bob_card = wait_mail(&table.smtp, "bob@example.org", 0, "bob's turn card", |m| {
        m.header("Reply-To").is_some_and(|r| r.contains("p1@"))
    })
    .await;
    let anna_cards = table.smtp.messages_to("anna@example.org").len();
    assert_eq!(
        table
            .mail_in(&reply(
                1,
                "bob@example.org",
                &reply_to(&bob_card),
                &table.next_id(),
                &second
            ))
            .0,
        0
    );
    assert_eq!(table.moves_played(game), 2);
    let anna_card = wait_mail(
        &table.smtp,
        "anna@example.org",
        anna_cards,
        "anna's card",
        |m| m.header("Reply-To").is_some_and(|r| r.contains("p2@")),
    )
    .await;
    let anna_current = reply_to(&anna_card);

    // anna's first card, its ply edited to the current one: not hers to play with any more.
    let edited = anna_first.replace("p0@", "p2@");
    assert_ne!(edited, anna_first);
    let outbox = table.outbox_rows();
    let (code, stderr) = table.mail_in(&reply(
        1,
        "anna@example.org",
        &edited,
        &table.next_id(),
        &third,
    ));
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("wrong reply key"), "{stderr}");
    assert_eq!(table.moves_played(game), 2, "the edited ply played a move");
    assert_eq!(table.outbox_rows(), outbox);

    // anna revokes her tokens: her current card stops working, for moves and for `show`.
    let tokens = table
        .api(reqwest::Method::GET, "/v1/tokens", &table.anna, json!({}))
        .await;
    let ids: Vec<i64> = tokens["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert!(!ids.is_empty(), "{tokens}");
    for id in ids {
        let status = table
            .http
            .delete(format!("{}/v1/tokens/{id}", table.base()))
            .bearer_auth(&table.anna)
            .send()
            .await
            .unwrap()
            .status();
        assert_eq!(status, 204);
    }
    for body in [third.as_str(), "show"] {
        let (code, stderr) = table.mail_in(&reply(
            1,
            "anna@example.org",
            &anna_current,
            &table.next_id(),
            body,
        ));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("wrong reply key"), "{body}: {stderr}");
    }
    assert_eq!(table.moves_played(game), 2);
    assert_eq!(
        table.outbox_rows(),
        outbox,
        "a revoked address was answered"
    );

    // Mail sent after the revocation carries an address of the new generation, which works.
    let before = table.smtp.messages_to("anna@example.org").len();
    let resigned = table
        .api(
            reqwest::Method::POST,
            &format!("/v1/games/{game}/resign"),
            &table.bob,
            json!({}),
        )
        .await;
    assert_eq!(resigned["status"], "finished", "{resigned}");
    let result = wait_mail(
        &table.smtp,
        "anna@example.org",
        before,
        "result mail",
        |m| m.header("Reply-To").is_some(),
    )
    .await;
    let fresh = reply_to(&result);
    assert_ne!(fresh, anna_current);
    let answer = table
        .answer(
            "anna@example.org",
            (1, &fresh, "show"),
            "answer to show",
            |_| true,
        )
        .await;
    assert!(
        text_of(&answer).contains("The game is over"),
        "{}",
        text_of(&answer)
    );
}

/// One Message-ID sent to two games' reply addresses (a client reusing ids, or a forged copy)
/// acts in each game once: one game's record does not suppress the other's, and a replay of
/// either acts no more.
async fn one_message_id_in_two_games(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (one, card) = started(&table).await;
    let one_address = reply_to(&card);
    let two = table.challenge().await;
    let view = table
        .api(
            reqwest::Method::POST,
            &format!("/v1/games/{two}/accept"),
            &table.bob,
            json!({}),
        )
        .await;
    assert_eq!(view["status"], "active", "{view}");
    let marker = format!("g{two}s1p0@");
    let card = wait_mail(
        &table.smtp,
        "anna@example.org",
        0,
        "second game's card",
        |m| m.header("Reply-To").is_some_and(|r| r.contains(&marker)),
    )
    .await;
    let two_address = reply_to(&card);
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let id = table.next_id();
    for (game, address) in [(one, &one_address), (two, &two_address)] {
        let (code, stderr) = table.mail_in(&reply(1, "anna@example.org", address, &id, &first));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(table.moves_played(game), 1, "game {game}: {stderr}");
    }
    for (game, address) in [(one, &one_address), (two, &two_address)] {
        let (code, stderr) = table.mail_in(&reply(1, "anna@example.org", address, &id, &first));
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains("handled before"), "{stderr}");
        assert_eq!(table.moves_played(game), 1, "game {game}");
    }
    assert_eq!(table.handled(), 2);
}

/// A megabyte of `</blockquote>` in an HTML part (issue 31: 40 s of CPU each, quadratic): sent
/// to an address without a key it is ignored before its body is read; sent to the seat's reply
/// address by its player, its move plays. The bound (20 s per `mail-in`, its process start
/// included, in a debug build on a shared machine) is generous: the quadratic reader took
/// minutes there.
async fn a_megabyte_of_blockquote_tags_is_handled_at_once(backend: Backend) {
    let (table, _) = Table::open(backend, None, 1);
    let (game, card) = started(&table).await;
    let address = reply_to(&card);
    let first = AnyGame::new(GameKind::Kefren, &Options::default())
        .unwrap()
        .legal_moves()[0]
        .clone();
    let bomb = |to: &str| {
        format!(
            "From: anna@example.org\r\nTo: {to}\r\nMessage-ID: {}\r\nSubject: Re: Kefren\r\n\
             MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
             <div>{first}</div>{}\r\n",
            table.next_id(),
            "</blockquote>".repeat(78_000)
        )
        .into_bytes()
    };
    let limit = Duration::from_secs(20);
    for (to, reason) in [
        ("games@turnpost.test", "no reply key"),
        ("games+nokey@turnpost.test", "no reply key"),
    ] {
        let raw = bomb(to);
        assert!(raw.len() < turnpost_server::inbound::MAX_MESSAGE_BYTES);
        let started_at = Instant::now();
        let (code, stderr) = table.mail_in(&raw);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.contains(reason), "{to}: {stderr}");
        assert!(
            started_at.elapsed() < limit,
            "{to}: {:?}",
            started_at.elapsed()
        );
    }
    assert_eq!(table.moves_played(game), 0);
    let started_at = Instant::now();
    let (code, stderr) = table.mail_in(&bomb(&address));
    assert_eq!(code, 0, "{stderr}");
    assert!(started_at.elapsed() < limit, "{:?}", started_at.elapsed());
    assert_eq!(table.moves_played(game), 1, "{stderr}");
}

/// With `TURNPOST_INBOUND_REQUIRE_AUTH=dmarc`, a reply acts only when the trusted server's
/// topmost `Authentication-Results` says `dmarc=pass` or an aligned `dkim=pass`: no header, a
/// header from another authserv-id, a signature of another domain, or a trusted failure above
/// a forged pass play nothing and are answered to the seat's player.
async fn with_dmarc_required_only_authenticated_senders_act(backend: Backend) {
    let (table, _) = Table::open_with(
        backend,
        None,
        1,
        &[
            ("TURNPOST_INBOUND_REQUIRE_AUTH", "dmarc"),
            ("TURNPOST_INBOUND_AUTHSERV_ID", "mx.turnpost.test"),
        ],
    );
    let (game, card) = started(&table).await;
    let address = reply_to(&card);
    let start = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
    let first = start.legal_moves()[0].clone();
    let signed = |results: &[&str], from: &str, to: &str, body: &str| {
        let mut raw: Vec<u8> = results
            .iter()
            .flat_map(|value| format!("Authentication-Results: {value}\r\n").into_bytes())
            .collect();
        raw.extend(reply(1, from, to, &table.next_id(), body));
        raw
    };
    let cases: [(&str, Vec<&str>); 5] = [
        ("no Authentication-Results", vec![]),
        (
            "another authserv-id",
            vec!["mx.evil.example; dmarc=pass header.from=example.org"],
        ),
        (
            "a signature of another domain",
            vec!["mx.turnpost.test; spf=pass; dkim=pass header.d=evil.example; dmarc=none"],
        ),
        (
            "a trusted failure above a forged pass",
            vec![
                "mx.turnpost.test; dmarc=fail header.from=example.org",
                "mx.turnpost.test; dmarc=pass header.from=example.org",
            ],
        ),
        (
            "a pass for another From domain",
            vec!["mx.turnpost.test; dmarc=pass header.from=evil.example"],
        ),
    ];
    for (what, results) in &cases {
        let before = table.smtp.messages_to("anna@example.org").len();
        let (code, stderr) = table.mail_in(&signed(results, "anna@example.org", &address, &first));
        assert_eq!(code, 0, "{what}: {stderr}");
        assert_eq!(table.moves_played(game), 0, "{what} played: {stderr}");
        let answer = wait_mail(
            &table.smtp,
            "anna@example.org",
            before,
            "answer to an unauthenticated reply",
            |m| text_of(m).contains("could not be shown to come from your address"),
        )
        .await;
        assert!(
            text_of(&answer).contains("Nothing in it was done"),
            "{what}"
        );
    }
    // The trusted server's pass (comments, version and other methods beside it) acts.
    let (code, stderr) = table.mail_in(&signed(
        &[
            "mx.evil.example; dmarc=fail",
            "MX.turnpost.test 1; spf=pass smtp.mailfrom=example.org; dkim=pass \
             (2048-bit key) header.d=example.org; dmarc=pass (p=reject) header.from=example.org",
        ],
        "anna@example.org",
        &address,
        &first,
    ));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(table.moves_played(game), 1, "{stderr}");
    // So does a DKIM signature of the sender's domain alone.
    let bob_card = wait_mail(&table.smtp, "bob@example.org", 0, "bob's turn card", |m| {
        m.header("Reply-To").is_some_and(|r| r.contains("p1@"))
    })
    .await;
    let second = start.play(&first).unwrap().0.legal_moves()[0].clone();
    let (code, stderr) = table.mail_in(&signed(
        &["mx.turnpost.test;\r\n\tdkim=pass header.i=@example.org header.d=example.org"],
        "bob@example.org",
        &reply_to(&bob_card),
        &second,
    ));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(table.moves_played(game), 2, "{stderr}");
}
