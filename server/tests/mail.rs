//! The outbox: delivery over real SMTP, retries while the relay is down, dead letters, several
//! workers on one database, and the .eml file transport.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;
#[path = "common/process.rs"]
mod process;
#[path = "common/scripted_smtp.rs"]
mod scripted_smtp;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{code_in, Backend, HeldPort, SmtpSink, TestApp, TestDb};
use scripted_smtp::{Script, ScriptedSmtp};
use serde_json::json;
use turnpost_server::db::outbox::OutboxStatus;
use turnpost_server::db::{outbox, DbConnection};
use turnpost_server::mail::{
    self, deliver_due, ComposedMail, Delivery, NewMail, OutboxSettings, Session, StoredParts,
    Transport,
};

both_backends!(
    smtp_down_then_back_delivers_exactly_once,
    failing_mail_is_dead_lettered_after_max_attempts,
    two_workers_never_send_a_row_twice,
    enqueue_rolls_back_with_the_callers_transaction,
    without_smtp_mail_is_written_as_eml_files,
    shutdown_lets_the_current_send_finish,
    permanent_rejection_is_dead_lettered_at_once,
    turn_card_arrives_over_smtp_and_its_command_plays,
    eml_files_hold_the_full_turn_card,
    each_move_mails_exactly_one_turn_card_to_the_next_player,
    the_longest_due_mail_is_one_a_claim_could_take_now,
);

/// What the catch-up session reads to know whether delivery is overdue: since when the
/// longest-due mail nobody holds has been due; a mail under a lease, or not yet due, does not
/// count.
async fn the_longest_due_mail_is_one_a_claim_could_take_now(backend: Backend) {
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let now = turnpost_server::db::now();
    assert_eq!(outbox::oldest_due_at(&mut conn, now).unwrap(), None);
    for i in 0..2 {
        let mail = NewMail {
            to: format!("p{i}@example.org"),
            mail: ComposedMail::plain(format!("m{i}"), "x"),
        };
        mail::enqueue(&mut conn, "test.invalid", &mail).unwrap();
    }
    let rows = outbox::all(&mut conn).unwrap();
    let (first, second) = (rows[0].next_attempt_at, rows[1].next_attempt_at);
    let now = turnpost_server::db::now();
    assert_eq!(outbox::oldest_due_at(&mut conn, now).unwrap(), Some(first));
    let before = first - chrono::Duration::seconds(1);
    assert_eq!(
        outbox::oldest_due_at(&mut conn, before).unwrap(),
        None,
        "not due yet"
    );
    let lease = now + chrono::Duration::seconds(30);
    let claimed = outbox::claim_due(&mut conn, "w", now, lease, 1).unwrap();
    assert_eq!(claimed.len(), 1);
    assert_eq!(
        outbox::oldest_due_at(&mut conn, now).unwrap(),
        Some(second),
        "the claimed one is another session's"
    );
    outbox::claim_due(&mut conn, "w", now, lease, 1).unwrap();
    assert_eq!(outbox::oldest_due_at(&mut conn, now).unwrap(), None);
    let after_the_lease = lease + chrono::Duration::seconds(1);
    assert_eq!(
        outbox::oldest_due_at(&mut conn, after_the_lease).unwrap(),
        Some(first),
        "a lease that ran out (a stopped process) leaves the mail due again"
    );
}

async fn shutdown_lets_the_current_send_finish(backend: Backend) {
    let db = TestDb::create(backend);
    let sink = SmtpSink::start_slow(Duration::from_millis(1500));
    let mut config = db.config();
    config.smtp_url = Some(sink.url());
    let mut app = TestApp::start(db, sink, config).await;
    assert_eq!(
        app.post(
            "/v1/accounts",
            &json!({"name": "nora", "email": "nora@example.org"})
        )
        .await
        .status,
        202
    );
    let sink = app.smtp.clone();
    wait_until("the SMTP transfer to begin", || sink.started() == 1).await;
    assert!(sink.messages().is_empty());
    app.shutdown().await;
    // The send in progress completed and was recorded before the worker stopped.
    assert_eq!(sink.messages().len(), 1);
    let rows = outbox::all(&mut app.conn()).unwrap();
    assert_eq!(rows[0].status, OutboxStatus::Sent, "{rows:?}");
    assert!(
        reqwest::get(format!("{}/v1/health", app.base))
            .await
            .is_err(),
        "server stopped"
    );
}

async fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

async fn smtp_down_then_back_delivers_exactly_once(backend: Backend) {
    // The relay's port stays ours throughout: refused while down, then listening on the same
    // socket, so no other test can be given it in between.
    let relay = HeldPort::new();
    let db = TestDb::create(backend);
    let mut config = db.config();
    config.smtp_url = Some(relay.url());
    config.outbox_retry_base_ms = 50;
    config.outbox_retry_max_ms = 200;
    config.outbox_max_attempts = 1000;
    // The sink's handle is replaced once it is started; this placeholder is never sent to.
    let placeholder = SmtpSink::start();
    let app = TestApp::start(db, placeholder, config).await;
    assert_eq!(
        app.post(
            "/v1/accounts",
            &json!({"name": "hana", "email": "hana@example.org"})
        )
        .await
        .status,
        202
    );

    // The relay is down: attempts fail and are rescheduled.
    wait_until("two failed attempts", || {
        let rows = outbox::all(&mut app.conn()).unwrap();
        rows.len() == 1 && rows[0].attempts >= 2 && rows[0].status == OutboxStatus::Pending
    })
    .await;
    let row = outbox::all(&mut app.conn()).unwrap().remove(0);
    assert!(
        row.last_error.as_deref().unwrap_or("").contains("SMTP"),
        "{row:?}"
    );

    let sink = SmtpSink::start_on(relay);
    let mails = sink.wait_for("hana@example.org", 1).await;
    wait_until("row marked sent", || {
        outbox::all(&mut app.conn()).unwrap()[0].status == OutboxStatus::Sent
    })
    .await;
    // The row is sent: the worker has finished with it, so the count is final.
    assert_eq!(sink.messages().len(), 1, "exactly one copy");
    let row = outbox::all(&mut app.conn()).unwrap().remove(0);
    assert_eq!(mails[0].header("Message-ID").unwrap(), row.message_id);
    // The code still works.
    let code = code_in(&mails[0].data);
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "hana@example.org", "code": code}),
        )
        .await;
    assert_eq!(answer.status, 201);
}

async fn failing_mail_is_dead_lettered_after_max_attempts(backend: Backend) {
    // Held, not released: refused for the whole test, never another test's sink.
    let down = HeldPort::new();
    let url = down.url();
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(url);
        c.outbox_retry_base_ms = 10;
        c.outbox_retry_max_ms = 20;
        c.outbox_max_attempts = 3;
    })
    .await;
    app.post(
        "/v1/accounts",
        &json!({"name": "ivan", "email": "ivan@example.org"}),
    )
    .await;
    wait_until("dead letter", || {
        outbox::all(&mut app.conn()).unwrap()[0].status == OutboxStatus::Dead
    })
    .await;
    let row = outbox::all(&mut app.conn()).unwrap().remove(0);
    assert_eq!(row.attempts, 3);
    assert!(row.sent_at.is_none());
}

fn settings() -> OutboxSettings {
    OutboxSettings {
        max_attempts: 5,
        retry_base: Duration::from_millis(10),
        retry_max: Duration::from_millis(10),
        poll_interval: Duration::from_millis(10),
        sessions: 1,
        lease: Duration::from_secs(30),
    }
}

async fn two_workers_never_send_a_row_twice(backend: Backend) {
    const ROWS: usize = 60;
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    for i in 0..ROWS {
        let mail = NewMail {
            to: format!("p{i}@example.org"),
            mail: ComposedMail::plain(format!("m{i}"), "x"),
        };
        mail::enqueue(&mut conn, "test.invalid", &mail).unwrap();
    }
    // Every answer takes a while, so the two workers' claims and sends interleave: a worker
    // spends most of a round sending, outside the claim. On SQLite a claim waiting for the
    // write lock sleeps in growing steps (up to 100 ms) and the lock is not handed over in
    // order, so with 2 ms answers one worker could finish all 60 rows before the other's
    // first claim got the lock.
    let relay = ScriptedSmtp::start(Script {
        delay: Duration::from_millis(15),
        ..Script::default()
    });
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    let from: lettre::message::Mailbox = "turnpost <t@example.org>".parse().unwrap();
    // Two workers with their own pools, sessions and names, as two server processes would
    // have, each on the claim path the server's worker uses.
    // Both start claiming together: on a busy machine the second thread could otherwise be
    // scheduled only after the first had sent everything.
    let start = std::sync::Arc::new(std::sync::Barrier::new(2));
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let pool = db.pool();
            let transport = transport.clone();
            let from = from.clone();
            let start = std::sync::Arc::clone(&start);
            std::thread::spawn(move || {
                let claimant = mail::claimant_name();
                start.wait();
                let mut session = Session::new();
                let mut sent = Vec::new();
                let mut idle = 0;
                while idle < 3 {
                    let done = deliver_due(
                        &pool,
                        &transport,
                        &mut session,
                        &from,
                        &settings(),
                        &claimant,
                        mail::CLAIM_BATCH,
                        &|| true,
                    )
                    .unwrap();
                    if done.is_empty() {
                        idle += 1;
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    for delivery in done {
                        match delivery {
                            Delivery::Sent(id) => sent.push(id),
                            other => panic!("unexpected {other:?}"),
                        }
                    }
                }
                sent
            })
        })
        .collect();
    let results: Vec<Vec<i64>> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    let mut all: Vec<i64> = results.concat();
    let total = all.len();
    all.sort_unstable();
    all.dedup();
    assert_eq!(total, ROWS, "each row sent once: {results:?}");
    assert_eq!(all.len(), ROWS);
    assert!(
        results.iter().all(|r| !r.is_empty()),
        "both workers took part: {results:?}"
    );
    // Counted at the SMTP server: every Message-ID exactly once.
    let received = relay.accepted();
    assert_eq!(received.len(), ROWS);
    let mut per_id: HashMap<String, usize> = HashMap::new();
    for m in &received {
        *per_id.entry(m.header("Message-ID").unwrap()).or_default() += 1;
    }
    assert_eq!(per_id.len(), ROWS);
    assert!(per_id.values().all(|&n| n == 1), "{per_id:?}");
    // Two sessions, each reusing its connection for many mails.
    assert!(
        relay.connections() <= 4,
        "{} connections",
        relay.connections()
    );
    let rows = outbox::all(&mut conn).unwrap();
    assert!(rows.iter().all(|r| r.status == OutboxStatus::Sent
        && r.attempts == 1
        && r.claimed_by.is_none()
        && r.lease_until.is_none()));
}

async fn enqueue_rolls_back_with_the_callers_transaction(backend: Backend) {
    use diesel::Connection as _;
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let mail = NewMail {
        to: "a@example.org".into(),
        mail: ComposedMail::plain("s", "b"),
    };
    let result: Result<(), diesel::result::Error> = conn.transaction(|conn: &mut DbConnection| {
        mail::enqueue(conn, "test.invalid", &mail).unwrap();
        Err(diesel::result::Error::RollbackTransaction)
    });
    assert!(result.is_err());
    assert!(outbox::all(&mut conn).unwrap().is_empty());
    conn.transaction::<_, diesel::result::Error, _>(|conn| {
        mail::enqueue(conn, "test.invalid", &mail).unwrap();
        Ok(())
    })
    .unwrap();
    assert_eq!(outbox::all(&mut conn).unwrap().len(), 1);
}

async fn without_smtp_mail_is_written_as_eml_files(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.smtp_url = None).await;
    assert_eq!(
        app.post(
            "/v1/accounts",
            &json!({"name": "jill", "email": "jill@example.org"})
        )
        .await
        .status,
        202
    );
    let dir = app.db.dir.join("mail");
    let mut files = Vec::new();
    wait_until(".eml file", || {
        files = std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        !files.is_empty()
    })
    .await;
    let text = std::fs::read_to_string(&files[0]).unwrap();
    assert!(files[0].extension().is_some_and(|e| e == "eml"));
    let code = code_in(&text);
    let answer = app
        .post(
            "/v1/sessions/verify",
            &json!({"email": "jill@example.org", "code": code}),
        )
        .await;
    assert_eq!(answer.status, 201);
    let token = answer.body["token"].as_str().unwrap();
    assert_eq!(app.get("/v1/me", Some(token)).await.status, 200);
}

async fn permanent_rejection_is_dead_lettered_at_once(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| {
        c.outbox_retry_base_ms = 10;
        c.outbox_retry_max_ms = 20;
        c.outbox_max_attempts = 50;
    })
    .await;
    for (name, email) in [
        ("rita", "reject-me@example.org"),
        ("otto", "otto@example.org"),
    ] {
        let answer = app
            .post("/v1/accounts", &json!({"name": name, "email": email}))
            .await;
        assert_eq!(answer.status, 202, "{answer:?}");
    }
    app.smtp.wait_for("otto@example.org", 1).await;
    wait_until("the rejected row to be dead", || {
        outbox::all(&mut app.conn())
            .unwrap()
            .iter()
            .any(|r| r.recipient == "reject-me@example.org" && r.status == OutboxStatus::Dead)
    })
    .await;
    // Time for any (wrong) retry to happen.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let rows = outbox::all(&mut app.conn()).unwrap();
    let rejected = rows
        .iter()
        .find(|r| r.recipient == "reject-me@example.org")
        .unwrap();
    assert_eq!(rejected.attempts, 1, "no retry after a 5xx: {rejected:?}");
    assert!(
        rejected.last_error.as_deref().unwrap_or("").contains("550"),
        "{rejected:?}"
    );
    let delivered = rows
        .iter()
        .find(|r| r.recipient == "otto@example.org")
        .unwrap();
    assert_eq!(delivered.status, OutboxStatus::Sent);
    assert!(app.smtp.messages_to("reject-me@example.org").is_empty());
}

/// The leaf parts of a MIME message: (headers, body), boundaries of every level removed.
fn leaf_parts(raw: &str) -> Vec<(String, String)> {
    let raw = raw.replace("\r\n", "\n");
    let boundaries: Vec<String> = raw
        .split("boundary=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next().map(str::to_owned))
        .collect();
    let mut pieces = vec![raw.clone()];
    for boundary in &boundaries {
        let marker = format!("--{boundary}");
        pieces = pieces
            .iter()
            .flat_map(|piece| {
                piece
                    .split(marker.as_str())
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    pieces
        .into_iter()
        .filter_map(|piece| {
            let piece = piece.trim_start_matches('\n');
            let (headers, body) = piece.split_once("\n\n")?;
            let lower = headers.to_ascii_lowercase();
            (lower.contains("content-type:") && !lower.contains("content-type: multipart"))
                .then(|| (headers.to_owned(), body.to_owned()))
        })
        .collect()
}

/// The part of `content_type` with its body decoded from quoted-printable where it says so.
fn part(parts: &[(String, String)], content_type: &str) -> (String, String) {
    let (headers, body) = parts
        .iter()
        .find(|(headers, _)| headers.contains(&format!("Content-Type: {content_type}")))
        .unwrap_or_else(|| panic!("no {content_type} part in {parts:#?}"));
    let body = if headers.contains("Content-Transfer-Encoding: quoted-printable") {
        quoted_printable(body)
    } else {
        body.clone()
    };
    (headers.clone(), body)
}

/// Decodes quoted-printable (soft line breaks and `=XX`).
fn quoted_printable(body: &str) -> String {
    let joined = body.replace("=\n", "");
    let mut bytes = Vec::new();
    let mut rest = joined.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        if first == b'=' && tail.len() >= 2 {
            let hex = std::str::from_utf8(&tail[..2]).unwrap();
            bytes.push(u8::from_str_radix(hex, 16).unwrap());
            rest = &tail[2..];
        } else {
            bytes.push(first);
            rest = tail;
        }
    }
    String::from_utf8(bytes).unwrap()
}

/// The command a turn card asks to paste: (game id, ply, move).
fn command_in(text: &str) -> (i64, u32, String) {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("turnpost move "))
        .unwrap_or_else(|| panic!("no command in\n{text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words[3], "--ply", "{line}");
    (
        words[2].parse().unwrap(),
        words[4].parse().unwrap(),
        words[5..].join(" "),
    )
}

/// Checks that `mail` is a full turn card (text, HTML with `cid:`, a valid inline PNG) and
/// returns its text part.
fn check_turn_card(mail: &common::Received) -> String {
    assert!(
        mail.header("Content-Type")
            .unwrap()
            .starts_with("multipart/alternative"),
        "{}",
        mail.data
    );
    let parts = leaf_parts(&mail.data);
    let (_, text) = part(&parts, "text/plain");
    let (_, html) = part(&parts, "text/html");
    let (png_headers, png_body) = part(&parts, "image/png");
    assert!(text.contains("\n-- \nturnpost\n"), "{text}");
    let cid = png_headers
        .lines()
        .find_map(|l| l.strip_prefix("Content-ID: "))
        .unwrap()
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_owned();
    assert!(html.contains(&format!("cid:{cid}")), "{html}");
    assert!(png_headers.contains("Content-Transfer-Encoding: base64"));
    use base64::Engine as _;
    let png: Vec<u8> = base64::engine::general_purpose::STANDARD
        .decode(png_body.split_whitespace().collect::<String>())
        .unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    assert_eq!(&png[12..16], b"IHDR");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert!(
        (100..=560).contains(&width) && (100..=560).contains(&height),
        "{width}x{height}"
    );
    let decoded = png::Decoder::new(std::io::Cursor::new(&png))
        .read_info()
        .unwrap();
    assert_eq!(
        (decoded.info().width, decoded.info().height),
        (width, height)
    );
    assert!(
        html.contains(&format!("width=\"{width}\" height=\"{height}\"")),
        "{html}"
    );
    text
}

async fn each_move_mails_exactly_one_turn_card_to_the_next_player(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let tokens = [
        play::player(&app.pool, "anna"),
        play::player(&app.pool, "bert"),
    ];
    let emails = ["anna@example.org", "bert@example.org"];
    let post = |path: String, token: &str, body: serde_json::Value| {
        let token = token.to_owned();
        let app = &app;
        async move {
            app.request(
                reqwest::Method::POST,
                &path,
                Some(&token),
                Some(&body.to_string()),
            )
            .await
        }
    };
    let created = post(
        "/v1/games".into(),
        &tokens[0],
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    let id = created.body["id"].as_i64().unwrap();
    assert_eq!(
        post(format!("/v1/games/{id}/accept"), &tokens[1], json!({}))
            .await
            .status,
        200
    );
    // The challenge to bert, the start (anna's first turn card) to anna.
    let mut expected = [1, 1];
    let counts = |app: &TestApp| emails.map(|e| app.smtp.messages_to(e).len());
    for ply in 0..6_usize {
        let mover = ply % 2;
        let next = 1 - mover;
        app.smtp.wait_for(emails[mover], expected[mover]).await;
        // The card the mover got last holds the command for this ply.
        let card = app.smtp.messages_to(emails[mover]).pop().unwrap();
        let (game, card_ply, mv) = command_in(&check_turn_card(&card));
        assert_eq!((game, card_ply), (id, ply as u32));
        let played = post(
            format!("/v1/games/{id}/moves"),
            &tokens[mover],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(played.status, 201, "{played:?}");
        expected[next] += 1;
        app.smtp.wait_for(emails[next], expected[next]).await;
        // Give a duplicate or a stray mail time to show up: none may.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(counts(&app), expected, "after ply {ply}");
    }
}

async fn turn_card_arrives_over_smtp_and_its_command_plays(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let created = app
        .request(
            reqwest::Method::POST,
            "/v1/games",
            Some(&anna),
            Some(&json!({"kind": "kefren", "seats": ["anna", "bert"]}).to_string()),
        )
        .await;
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    let challenge = app.smtp.wait_for("bert@example.org", 1).await.remove(0);
    let accept = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/games/{id}/accept"),
            Some(&bert),
            Some("{}"),
        )
        .await;
    assert_eq!(accept.status, 200, "{accept:?}");

    // anna moves first: her card's command plays.
    let first = app.smtp.wait_for("anna@example.org", 1).await.remove(0);
    let (game, ply, mv) = command_in(&check_turn_card(&first));
    assert_eq!((game, ply), (id, 0));
    let played = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/games/{id}/moves"),
            Some(&anna),
            Some(&json!({"move": mv, "ply": ply}).to_string()),
        )
        .await;
    assert_eq!(played.status, 201, "{played:?}");

    // The move → bert's turn card over SMTP, with anna's move in it and a command that plays.
    let mails = app.smtp.wait_for("bert@example.org", 2).await;
    let card = &mails[1];
    let text = check_turn_card(card);
    assert!(text.contains(&format!("anna played {mv}")), "{text}");
    let (game, ply, mv) = command_in(&text);
    assert_eq!((game, ply), (id, 1));
    let played = app
        .request(
            reqwest::Method::POST,
            &format!("/v1/games/{id}/moves"),
            Some(&bert),
            Some(&json!({"move": mv, "ply": ply}).to_string()),
        )
        .await;
    assert_eq!(played.status, 201, "{played:?}");

    // One thread: the challenge and the card share subject and root, each with its own id.
    let root = challenge.header("References").unwrap();
    assert!(root.starts_with(&format!("<game-{id}@")), "{root}");
    assert_eq!(card.header("References").unwrap(), root);
    assert_eq!(card.header("In-Reply-To").unwrap(), root);
    assert_eq!(card.header("Subject"), challenge.header("Subject"));
    assert_ne!(card.header("Message-ID"), challenge.header("Message-ID"));
    // The card's one-click unsubscribe link works without login and stops turn mail only.
    let unsubscribe = card.header("List-Unsubscribe").unwrap();
    assert_eq!(
        card.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let url = unsubscribe
        .trim()
        .strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap();
    assert!(
        url.contains("/v1/unsubscribe?") && url.contains("c=turn"),
        "{url}"
    );
    let path = &url[url.find("/v1/").unwrap()..];
    let answer = app.request(reqwest::Method::POST, path, None, None).await;
    assert_eq!(answer.status, 200);
    let settings = app.get("/v1/me/notifications", Some(&bert)).await.body;
    assert_eq!(settings["turn_mail"], "off");
    assert_eq!(settings["categories"]["game_over"], true);
    assert_eq!(
        settings["categories"]["reminders"], true,
        "a separate switch"
    );
}

async fn eml_files_hold_the_full_turn_card(backend: Backend) {
    use turnpost_server::notify::compose::{self, GameFacts, Player, Recipient, Site};
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let position =
        turnpost_shared::AnyGame::new(turnpost_shared::GameKind::Kefren, &Default::default())
            .unwrap();
    let game = GameFacts {
        id: 5,
        options: String::new(),
        players: vec![
            Player {
                seat: 1,
                seat_name: "seat 1".into(),
                name: "anna".into(),
                rating: None,
            },
            Player {
                seat: 2,
                seat_name: "seat 2".into(),
                name: "bert".into(),
                rating: None,
            },
        ],
        position,
        ply: 0,
        last_moves: Vec::new(),
        result: None,
        result_reason: None,
        deadline: None,
        messages: Vec::new(),
    };
    let to = Recipient {
        name: "anna".into(),
        email: "anna@example.org".into(),
        time_zone: chrono_tz::Tz::UTC,
        unsubscribe_url: Some("https://t.example/u?t=1".into()),
        reply_to: None,
        play_url: None,
    };
    let site = Site {
        public_url: "https://t.example".into(),
        domain: "t.example".into(),
    };
    let mail = compose::your_turn(&site, &to, &game);
    mail::enqueue(
        &mut conn,
        "t.example",
        &NewMail {
            to: to.email.clone(),
            mail,
        },
    )
    .unwrap();
    let dir = db.dir.join("eml");
    let from: lettre::message::Mailbox = "turnpost <t@example.org>".parse().unwrap();
    let queued = outbox::all(&mut conn).unwrap().remove(0);
    let queued = StoredParts::from_json(queued.parts.as_deref().unwrap()).unwrap();
    assert!(
        queued.needs_png(),
        "the move's transaction does not draw the picture"
    );
    assert!(
        queued.image_board.is_some() && queued.image_svg.is_none(),
        "a board is queued as its source, not its drawing: {queued:?}"
    );
    // The first attempt fails (a file stands where the mail directory goes): it stores the
    // PNG it drew, so the retry sends the same bytes.
    std::fs::write(&dir, b"not a directory").unwrap();
    let deliver = || {
        deliver_due(
            &db.pool(),
            &Transport::Files(dir.clone()),
            &mut Session::new(),
            &from,
            &settings(),
            "test",
            1,
            &|| true,
        )
        .unwrap()
    };
    let failed = deliver();
    assert!(matches!(failed[..], [Delivery::Retrying(_)]), "{failed:?}");
    let retried = outbox::all(&mut conn).unwrap().remove(0);
    let retried = StoredParts::from_json(retried.parts.as_deref().unwrap()).unwrap();
    assert!(!retried.needs_png() && retried.image_svg.is_none() && retried.image_board.is_none());
    let stored_png = retried.image_bytes().unwrap().unwrap();
    std::fs::remove_file(&dir).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(50));
    let delivered = deliver();
    assert!(
        matches!(delivered[..], [Delivery::Sent(_)]),
        "{delivered:?}"
    );
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let data = std::fs::read_to_string(file).unwrap();
    let received = common::Received {
        to: vec!["anna@example.org".into()],
        data,
    };
    let text = check_turn_card(&received);
    assert_eq!(command_in(&text).0, 5);
    assert!(received.data.replace(['\r', '\n'], "").contains(
        &base64::Engine::encode(&base64::engine::general_purpose::STANDARD, &stored_png)[..200]
    ));
    // A delivered row is never sent again: its picture is not written back.
    let sent = outbox::all(&mut conn).unwrap().remove(0);
    assert_eq!(sent.status, outbox::OutboxStatus::Sent);
    assert_eq!(sent.attempts, 2);
    assert_eq!(
        received.header("List-Unsubscribe").as_deref(),
        Some("<https://t.example/u?t=1>")
    );
    assert_eq!(
        received.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    assert_eq!(
        received.header("References").as_deref(),
        Some("<game-5@t.example>")
    );
}
