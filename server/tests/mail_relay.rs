//! Delivery against a relay that refuses, lags or supports less than we need, checked at a real
//! SMTP server ([`ScriptedSmtp`]): which refusals are retried and which are final, the retry
//! schedule and the attempt cap, several sessions at once over reused connections, non-ASCII
//! addresses, a crash mid-send, the operator's `mail list` / `mail retry`, and the backlog in
//! `/v1/health`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/process.rs"]
mod process;
#[path = "common/scripted_smtp.rs"]
mod scripted_smtp;

use std::time::{Duration, Instant};

use common::{Backend, TestApp, TestDb};
use diesel::prelude::*;
use scripted_smtp::{Script, ScriptedSmtp};
use serde_json::json;
use turnpost_server::db::outbox::OutboxMail;
use turnpost_server::db::outbox::{self, OutboxStatus};
use turnpost_server::db::schema::mail_outbox;
use turnpost_server::db::{self, DbConnection, Pool};
use turnpost_server::mail::{
    self, deliver_due, ComposedMail, Delivery, NewMail, OutboxSettings, Session, Transport,
};

both_backends!(
    session_refusals_are_retried_then_delivered_once,
    retry_schedule_doubles_to_its_cap_then_dead_letters,
    a_refused_address_is_final_for_its_mail_only,
    non_ascii_address_needs_smtputf8,
    sign_up_refuses_non_ascii_addresses_unless_the_relay_takes_them,
    sessions_send_at_once_over_reused_connections,
    one_recipients_mail_arrives_in_queue_order,
    health_shows_the_backlog_and_its_age,
    mail_list_and_retry_commands,
    a_crash_mid_send_delivers_again_promptly,
    a_mail_takes_one_round_trip_to_a_chunking_relay,
    without_chunking_the_commands_still_go_together,
    a_relay_answering_a_group_apart_gets_one_command_at_a_time,
    mails_queued_together_keep_their_order,
    a_relay_refusing_a_second_ehlo_still_gets_the_mail,
);

fn settings(base: Duration, max: Duration, attempts: u32) -> OutboxSettings {
    OutboxSettings {
        max_attempts: attempts,
        retry_base: base,
        retry_max: max,
        poll_interval: Duration::from_millis(10),
        sessions: 1,
        lease: Duration::from_secs(30),
    }
}

fn from() -> lettre::message::Mailbox {
    "turnpost <t@example.org>".parse().unwrap()
}

fn queue(conn: &mut DbConnection, to: &str) -> i64 {
    mail::enqueue(
        conn,
        "test.invalid",
        &NewMail {
            to: to.to_owned(),
            mail: ComposedMail::plain(format!("for {to}"), "hello"),
        },
    )
    .unwrap()
}

fn row(conn: &mut DbConnection, id: i64) -> OutboxMail {
    outbox::all(conn)
        .unwrap()
        .into_iter()
        .find(|r| r.id == id)
        .unwrap()
}

/// Makes every pending row due now (instead of waiting for its backoff).
fn make_due(conn: &mut DbConnection) {
    diesel::update(mail_outbox::table.filter(mail_outbox::status.eq(OutboxStatus::Pending)))
        .set(mail_outbox::next_attempt_at.eq(db::now() - chrono::Duration::seconds(1)))
        .execute(conn)
        .unwrap();
}

fn deliver(
    pool: &Pool,
    transport: &Transport,
    session: &mut Session,
    settings: &OutboxSettings,
) -> Vec<Delivery> {
    deliver_due(
        pool,
        transport,
        session,
        &from(),
        settings,
        "test-worker",
        mail::CLAIM_BATCH,
        &|| true,
    )
    .unwrap()
}

/// Changes a [`Script`] into one refusal.
type Refusal = fn(&mut Script);

async fn session_refusals_are_retried_then_delivered_once(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script::default());
    // With credentials, so the session authenticates (AUTH PLAIN) and a 535 can be answered.
    let transport = Transport::smtp(
        &format!("smtp://user:secret@127.0.0.1:{}", relay.port),
        false,
    )
    .unwrap();
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 100);
    let id = queue(&mut conn, "ada@example.org");
    let refusals: [(&str, Refusal); 7] = [
        ("554", |s| {
            s.greeting = "554 5.3.2 no service for you".into()
        }),
        ("550", |s| {
            s.ehlo_refusal = Some("550 5.7.1 who are you".into());
        }),
        ("535", |s| s.auth = "535 5.7.8 authentication failed".into()),
        ("553", |s| s.mail = "553 5.7.1 sender not allowed".into()),
        ("550", |s| {
            s.rcpt = vec![(String::new(), "550 5.7.1 relaying denied".into())];
        }),
        ("530", |s| {
            s.rcpt = vec![(String::new(), "530 5.7.0 authentication required".into())];
        }),
        ("451", |s| s.end_of_data = "451 4.3.0 try later".into()),
    ];
    let mut session = Session::new();
    for (attempt, (code, refuse)) in refusals.iter().enumerate() {
        relay.set(|s| {
            *s = Script::default();
            refuse(s);
        });
        make_due(&mut conn);
        let done = deliver(&pool, &transport, &mut session, &settings);
        assert_eq!(done, [Delivery::Retrying(id)], "refusal {code}");
        let row = row(&mut conn, id);
        assert_eq!(row.status, OutboxStatus::Pending, "{row:?}");
        assert_eq!(row.attempts, attempt as i32 + 1);
        let error = row.last_error.unwrap();
        assert!(error.contains(code), "{code}: {error}");
        assert!(row.claimed_by.is_none() && row.lease_until.is_none());
    }
    assert!(relay.accepted().is_empty());
    // The relay is fixed: the mail goes out once, with the Message-ID it had from the start.
    relay.set(|s| *s = Script::default());
    make_due(&mut conn);
    let done = deliver(&pool, &transport, &mut session, &settings);
    assert_eq!(done, [Delivery::Sent(id)]);
    let accepted = relay.accepted_for("ada@example.org");
    assert_eq!(accepted.len(), 1);
    let row = row(&mut conn, id);
    assert_eq!(row.status, OutboxStatus::Sent);
    assert_eq!(row.attempts, refusals.len() as i32 + 1);
    assert_eq!(accepted[0].header("Message-ID").unwrap(), row.message_id);
    assert!(relay.commands().iter().any(|c| c.starts_with("AUTH PLAIN")));
}

async fn retry_schedule_doubles_to_its_cap_then_dead_letters(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script {
        greeting: "554 5.3.2 closed".into(),
        ..Script::default()
    });
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    // 10 s, 20 s, then the 30 s cap; the fourth failure is the last.
    let settings = settings(Duration::from_secs(10), Duration::from_secs(30), 4);
    let id = queue(&mut conn, "bo@example.org");
    let mut session = Session::new();
    for (attempt, delay) in [(1, 10), (2, 20), (3, 30)] {
        make_due(&mut conn);
        let before = db::now();
        assert_eq!(
            deliver(&pool, &transport, &mut session, &settings),
            [Delivery::Retrying(id)]
        );
        let after = db::now();
        let row = row(&mut conn, id);
        assert_eq!(row.attempts, attempt);
        let delay = chrono::Duration::seconds(delay);
        assert!(
            row.next_attempt_at >= before + delay && row.next_attempt_at <= after + delay,
            "attempt {attempt}: next attempt at {} (tried between {before} and {after})",
            row.next_attempt_at
        );
        // Not due before then: nothing is claimed.
        assert!(deliver(&pool, &transport, &mut session, &settings).is_empty());
    }
    make_due(&mut conn);
    assert_eq!(
        deliver(&pool, &transport, &mut session, &settings),
        [Delivery::Dead(id)]
    );
    let dead = row(&mut conn, id);
    assert_eq!((dead.status, dead.attempts), (OutboxStatus::Dead, 4));
    assert!(dead.sent_at.is_none());
    // A dead letter is never tried again by the worker.
    let connections = relay.connections();
    make_due(&mut conn);
    assert!(deliver(&pool, &transport, &mut session, &settings).is_empty());
    assert_eq!(relay.connections(), connections);
    assert_eq!(connections, 4, "one connection per attempt");
}

async fn a_refused_address_is_final_for_its_mail_only(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script {
        rcpt: vec![("nobody".into(), "550 5.1.1 no such user here".into())],
        ..Script::default()
    });
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 10);
    let refused = queue(&mut conn, "nobody@example.org");
    let fine = queue(&mut conn, "cleo@example.org");
    let done = deliver(&pool, &transport, &mut Session::new(), &settings);
    assert_eq!(done, [Delivery::Dead(refused), Delivery::Sent(fine)]);
    let dead = row(&mut conn, refused);
    assert_eq!((dead.status, dead.attempts), (OutboxStatus::Dead, 1));
    assert!(
        dead.last_error.as_deref().unwrap().contains("RCPT TO"),
        "{dead:?}"
    );
    assert_eq!(relay.accepted_for("cleo@example.org").len(), 1);
    assert!(relay.accepted_for("nobody@example.org").is_empty());
}

async fn non_ascii_address_needs_smtputf8(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script::default());
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 10);
    let mut session = Session::new();
    // Without SMTPUTF8 the address can never be delivered: dead at once, nothing sent.
    let refused = queue(&mut conn, "jörg@example.org");
    assert_eq!(
        deliver(&pool, &transport, &mut session, &settings),
        [Delivery::Dead(refused)]
    );
    let dead = row(&mut conn, refused);
    assert_eq!(dead.attempts, 1);
    assert!(
        dead.last_error.as_deref().unwrap().contains("SMTPUTF8"),
        "{dead:?}"
    );
    assert!(!relay.commands().iter().any(|c| c.starts_with("MAIL")));
    // A relay that offers it gets the address with the SMTPUTF8 parameter.
    relay.set(|s| s.smtputf8 = true);
    let sent = queue(&mut conn, "jörg@example.org");
    assert_eq!(
        deliver(&pool, &transport, &mut Session::new(), &settings),
        [Delivery::Sent(sent)]
    );
    let accepted = relay.accepted_for("jörg@example.org");
    assert_eq!(accepted.len(), 1);
    assert!(
        accepted[0]
            .mail_from
            .split_whitespace()
            .any(|parameter| parameter == "SMTPUTF8"),
        "{accepted:?}"
    );
}

async fn sign_up_refuses_non_ascii_addresses_unless_the_relay_takes_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "jorg", "email": "jörg@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 422, "{answer:?}");
    assert_eq!(answer.error_code(), "invalid_email");
    assert!(
        answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("TURNPOST_SMTP_UTF8"),
        "{answer:?}"
    );
    assert!(outbox::all(&mut app.conn()).unwrap().is_empty());
    // ASCII addresses are unaffected.
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "jorg", "email": "joerg@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");

    // An operator whose relay supports SMTPUTF8 says so; the code then arrives.
    let relay = ScriptedSmtp::start(Script {
        smtputf8: true,
        ..Script::default()
    });
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(relay.url());
        c.smtp_utf8 = true;
    })
    .await;
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "jorg", "email": "jörg@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202, "{answer:?}");
    wait_until("the code at the relay", || {
        relay.accepted_for("jörg@example.org").len() == 1
    })
    .await;
}

async fn sessions_send_at_once_over_reused_connections(backend: Backend) {
    const MAILS: usize = 24;
    // Every answer takes 30 ms, as from a relay far away: one session alone would need
    // about 24 × 5 answers × 30 ms = 3.6 s.
    let relay = ScriptedSmtp::start(Script {
        delay: Duration::from_millis(30),
        ..Script::default()
    });
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(relay.url());
        c.outbox_sessions = 4;
        // No catch-up session: its connection would be a fifth (the sending takes seconds).
        c.mail_catch_up_ms = 0;
    })
    .await;
    {
        let mut conn = app.conn();
        for i in 0..MAILS {
            queue(&mut conn, &format!("p{i}@example.org"));
        }
    }
    wait_until("every mail at the relay", || {
        relay.accepted().len() == MAILS
    })
    .await;
    wait_until("every row marked sent", || {
        outbox::all(&mut app.conn())
            .unwrap()
            .iter()
            .all(|r| r.status == OutboxStatus::Sent)
    })
    .await;
    assert_eq!(relay.accepted().len(), MAILS, "no mail twice");
    assert!(
        relay.most_concurrent_transactions() >= 2,
        "sessions overlapped: {}",
        relay.most_concurrent_transactions()
    );
    // Each session keeps its connection: far fewer connections than mails.
    assert!(
        relay.connections() <= 4,
        "{} connections for {MAILS} mails",
        relay.connections()
    );
}

async fn one_recipients_mail_arrives_in_queue_order(backend: Backend) {
    let relay = ScriptedSmtp::start(Script {
        delay: Duration::from_millis(5),
        ..Script::default()
    });
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(relay.url());
        c.outbox_sessions = 4;
    })
    .await;
    let mut queued = Vec::new();
    {
        let mut conn = app.conn();
        for i in 0..12 {
            queued.push(queue(&mut conn, "same@example.org"));
            queue(&mut conn, &format!("other{i}@example.org"));
        }
    }
    wait_until("every mail at the relay", || relay.accepted().len() == 24).await;
    let rows = outbox::all(&mut app.conn()).unwrap();
    let expected: Vec<String> = queued
        .iter()
        .map(|id| {
            rows.iter()
                .find(|r| r.id == *id)
                .unwrap()
                .message_id
                .clone()
        })
        .collect();
    let arrived: Vec<String> = relay
        .accepted_for("same@example.org")
        .iter()
        .map(|m| m.header("Message-ID").unwrap())
        .collect();
    assert_eq!(arrived, expected, "one recipient's mail in queue order");
    assert!(relay.most_concurrent_transactions() >= 2);
}

async fn health_shows_the_backlog_and_its_age(backend: Backend) {
    let relay = ScriptedSmtp::start(Script {
        greeting: "554 5.3.2 closed".into(),
        ..Script::default()
    });
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(relay.url());
        c.outbox_retry_base_ms = 60_000;
        c.outbox_retry_max_ms = 60_000;
    })
    .await;
    let health = app.get("/v1/health", None).await;
    assert_eq!(health.status, 200);
    assert_eq!(health.body["mail_backlog"], 0);
    assert!(health.body["oldest_pending_mail_secs"].is_null());
    assert_eq!(health.body["status"], "ok");
    let answer = app
        .post(
            "/v1/accounts",
            &json!({"name": "dora", "email": "dora@example.org"}),
        )
        .await;
    assert_eq!(answer.status, 202);
    wait_until("a refused attempt", || {
        outbox::all(&mut app.conn())
            .unwrap()
            .first()
            .is_some_and(|r| r.attempts == 1)
    })
    .await;
    // Age the row, as if it had waited 90 s.
    diesel::update(mail_outbox::table)
        .set(mail_outbox::created_at.eq(db::now() - chrono::Duration::seconds(90)))
        .execute(&mut *app.conn())
        .unwrap();
    let health = app.get("/v1/health", None).await;
    assert_eq!(health.body["mail_backlog"], 1, "{health:?}");
    let age = health.body["oldest_pending_mail_secs"].as_i64().unwrap();
    assert!((90..120).contains(&age), "{age}");
    let row = outbox::all(&mut app.conn()).unwrap().remove(0);
    assert_eq!(row.status, OutboxStatus::Pending, "refused, not dead");
    // The relay is back and the operator retries at once: the backlog empties.
    relay.set(|s| *s = Script::default());
    mail::operator::retry(&mut app.conn(), mail::operator::RetryTarget::One(row.id)).unwrap();
    wait_until("the code at the relay", || {
        relay.accepted_for("dora@example.org").len() == 1
    })
    .await;
    wait_until("an empty backlog", || {
        outbox::backlog(&mut app.conn()).unwrap().pending == 0
    })
    .await;
    let health = app.get("/v1/health", None).await;
    assert_eq!(health.body["mail_backlog"], 0);
    assert!(health.body["oldest_pending_mail_secs"].is_null());
}

fn server_command(db: &TestDb, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env_remove("SMTP_URL")
        .env("RUST_LOG", "warn")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

async fn mail_list_and_retry_commands(backend: Backend) {
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let dead = queue(&mut conn, "dead@example.org");
    let sent = queue(&mut conn, "sent@example.org");
    let pending = queue(&mut conn, "pending@example.org");
    outbox::mark_failed(&mut conn, dead, 10, "SMTP MAIL FROM: 553\tno", None, None).unwrap();
    outbox::mark_sent(&mut conn, sent, 1, db::now()).unwrap();

    let listed = server_command(&db, &["mail", "list", "--dead"]);
    assert!(listed.status.success(), "{}", text(&listed.stderr));
    let lines: Vec<String> = text(&listed.stdout).lines().map(str::to_owned).collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("id\tstatus\tattempts"), "{lines:?}");
    let fields: Vec<&str> = lines[1].split('\t').collect();
    assert_eq!(fields[0], dead.to_string());
    assert_eq!(&fields[1..3], ["dead", "10"]);
    assert_eq!(fields[5], "dead@example.org");
    assert_eq!(fields[7], "SMTP MAIL FROM: 553 no", "tab shown as a space");
    let listed = text(&server_command(&db, &["mail", "list", "--pending"]).stdout);
    assert_eq!(listed.lines().count(), 2, "{listed}");
    assert!(listed.contains("pending@example.org"), "{listed}");
    let listed = text(&server_command(&db, &["mail", "list"]).stdout);
    assert_eq!(listed.lines().count(), 4, "{listed}");

    // Retry one: pending again, due now, attempts from zero, same Message-ID.
    let before = row(&mut conn, dead);
    let retried = server_command(&db, &["mail", "retry", &dead.to_string()]);
    assert!(retried.status.success(), "{}", text(&retried.stderr));
    let after = row(&mut conn, dead);
    assert_eq!((after.status, after.attempts), (OutboxStatus::Pending, 0));
    assert!(after.next_attempt_at <= db::now());
    assert_eq!(after.message_id, before.message_id);
    // A delivered mail is not sent again; an unknown id is an error.
    let refused = server_command(&db, &["mail", "retry", &sent.to_string()]);
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("delivered already"),
        "{}",
        text(&refused.stderr)
    );
    assert_eq!(row(&mut conn, sent).status, OutboxStatus::Sent);
    let unknown = server_command(&db, &["mail", "retry", "999999"]);
    assert!(!unknown.status.success());
    assert!(text(&unknown.stderr).contains("no mail with id 999999"));
    let neither = server_command(&db, &["mail", "retry"]);
    assert_eq!(neither.status.code(), Some(2), "{}", text(&neither.stderr));

    // Every dead letter at once.
    for id in [dead, pending] {
        outbox::mark_failed(&mut conn, id, 3, "x", None, None).unwrap();
    }
    let retried = server_command(&db, &["mail", "retry", "--all-dead"]);
    assert!(retried.status.success());
    assert!(
        text(&retried.stderr).starts_with("2 mails"),
        "{}",
        text(&retried.stderr)
    );
    assert!(outbox::all(&mut conn)
        .unwrap()
        .iter()
        .all(|r| r.status != OutboxStatus::Dead));
}

async fn a_crash_mid_send_delivers_again_promptly(backend: Backend) {
    let db = TestDb::create(backend);
    // The first transfer hangs at DATA until long after the process is killed.
    let relay = ScriptedSmtp::start(Script {
        hold_first_data: Some(Duration::from_secs(60)),
        ..Script::default()
    });
    let url = relay.url();
    // PostgreSQL (several processes share it): the dead process's lease ends within 1 s.
    // SQLite (one process per file): the next process releases every lease at start, so even
    // a long lease does not delay the mail.
    let lease = match backend {
        Backend::Postgres => "1000",
        Backend::Sqlite => "600000",
    };
    let env = [
        ("SMTP_URL", url.as_str()),
        ("TURNPOST_OUTBOX_LEASE_MS", lease),
        ("TURNPOST_OUTBOX_POLL_MS", "50"),
    ];
    let first = process::ServerProcess::start(&db, &env);
    let http = reqwest::Client::new();
    let answer = http
        .post(format!("{}/v1/accounts", first.base))
        .json(&json!({"name": "kim", "email": "kim@example.org"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status().as_u16(), 202);
    wait_until("the transfer to begin", || relay.data_commands() == 1).await;
    first.kill();
    let (pool, _) = common::migrated(&db);
    let claimed = outbox::all(&mut pool.get().unwrap()).unwrap().remove(0);
    assert_eq!(claimed.status, OutboxStatus::Pending);
    assert!(
        claimed.claimed_by.is_some() && claimed.lease_until.is_some(),
        "{claimed:?}"
    );

    let restarted = Instant::now();
    let _second = process::ServerProcess::start(&db, &env);
    wait_until("the mail at the relay", || {
        relay.accepted_for("kim@example.org").len() == 1
    })
    .await;
    let took = restarted.elapsed();
    assert!(took < Duration::from_secs(10), "took {took:?}");
    wait_until("the row marked sent", || {
        outbox::all(&mut pool.get().unwrap()).unwrap()[0].status == OutboxStatus::Sent
    })
    .await;
    let sent = outbox::all(&mut pool.get().unwrap()).unwrap().remove(0);
    let accepted = relay.accepted_for("kim@example.org");
    assert_eq!(
        accepted.len(),
        1,
        "the interrupted transfer never completed"
    );
    assert_eq!(accepted[0].header("Message-ID").unwrap(), sent.message_id);
    assert_eq!(sent.attempts, 1, "the killed attempt was never recorded");
    assert!(sent.claimed_by.is_none());
}

async fn wait_until(what: &str, mut check: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !check() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Queues `count` mails whose text has lines starting with dots (stuffed with DATA, counted
/// with BDAT) and delivers them in one session; answers their ids.
fn deliver_dotted(pool: &Pool, relay: &ScriptedSmtp, count: usize) -> Vec<i64> {
    let mut conn = pool.get().unwrap();
    let ids: Vec<i64> = (0..count)
        .map(|i| {
            mail::enqueue(
                &mut conn,
                "test.invalid",
                &NewMail {
                    to: format!("p{i}@example.org"),
                    mail: ComposedMail::plain(format!("mail {i}"), ".\n..two dots\nend"),
                },
            )
            .unwrap()
        })
        .collect();
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 10);
    let mut session = Session::new();
    let done = deliver(pool, &transport, &mut session, &settings);
    assert_eq!(
        done,
        ids.iter().map(|id| Delivery::Sent(*id)).collect::<Vec<_>>()
    );
    for (i, id) in ids.iter().enumerate() {
        let accepted = relay.accepted_for(&format!("p{i}@example.org"));
        assert_eq!(accepted.len(), 1, "mail {i}");
        let data = &accepted[0].data;
        assert_eq!(
            accepted[0].header("Message-ID").unwrap(),
            row(&mut conn, *id).message_id
        );
        assert!(
            data.ends_with("\r\n.\r\n..two dots\r\nend\r\n"),
            "the text arrives as written: {data:?}"
        );
    }
    ids
}

async fn a_mail_takes_one_round_trip_to_a_chunking_relay(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, _conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script::default());
    deliver_dotted(&pool, &relay, 3);
    let commands = relay.commands();
    assert!(!commands.iter().any(|c| c == "DATA"), "{commands:?}");
    let pipelined = relay.pipelined_commands();
    for i in 0..3 {
        assert!(
            pipelined.contains(&format!("RCPT TO:<p{i}@example.org>")),
            "RCPT of mail {i} came with its MAIL: {pipelined:?}"
        );
    }
    let chunks: Vec<&String> = pipelined
        .iter()
        .filter(|c| c.starts_with("BDAT ") && c.ends_with(" LAST"))
        .collect();
    assert_eq!(chunks.len(), 3, "{commands:?}");
}

async fn without_chunking_the_commands_still_go_together(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, _conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script {
        chunking: false,
        ..Script::default()
    });
    deliver_dotted(&pool, &relay, 2);
    let commands = relay.commands();
    assert!(
        !commands.iter().any(|c| c.starts_with("BDAT")),
        "{commands:?}"
    );
    let pipelined = relay.pipelined_commands();
    assert_eq!(
        pipelined.iter().filter(|c| *c == "DATA").count(),
        2,
        "DATA came with MAIL and RCPT: {pipelined:?}"
    );
    assert!(pipelined.contains(&"RCPT TO:<p1@example.org>".to_owned()));
}

async fn a_relay_answering_a_group_apart_gets_one_command_at_a_time(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, _conn) = common::migrated(&db);
    // Each answer written on its own, 40 ms after its command: the answers to the first group
    // arrive apart, and the session stops pipelining.
    let relay = ScriptedSmtp::start(Script {
        batch_answers: false,
        delay: Duration::from_millis(40),
        ..Script::default()
    });
    deliver_dotted(&pool, &relay, 3);
    let pipelined = relay.pipelined_commands();
    assert!(
        pipelined.contains(&"RCPT TO:<p0@example.org>".to_owned()),
        "the first mail went pipelined: {pipelined:?}"
    );
    for i in 1..3 {
        assert!(
            !pipelined.contains(&format!("RCPT TO:<p{i}@example.org>")),
            "mail {i} went one command at a time: {pipelined:?}"
        );
    }
    assert_eq!(
        relay.commands().iter().filter(|c| *c == "DATA").count(),
        2,
        "the later mails used DATA"
    );
}

async fn mails_queued_together_keep_their_order(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let mails: Vec<NewMail> = ["first", "second", "third"]
        .iter()
        .map(|subject| NewMail {
            to: "ada@example.org".to_owned(),
            mail: ComposedMail::plain(*subject, format!("the {subject} mail")),
        })
        .collect();
    mail::enqueue_all(&mut conn, "test.invalid", &mails).unwrap();
    mail::enqueue_all(&mut conn, "test.invalid", &[]).unwrap();
    let mut rows = outbox::all(&mut conn).unwrap();
    rows.sort_by_key(|row| row.id);
    let subjects: Vec<&str> = rows.iter().map(|row| row.subject.as_str()).collect();
    assert_eq!(subjects, ["first", "second", "third"]);
    assert!(rows.iter().all(|row| row.status == OutboxStatus::Pending));
    let mut ids: Vec<&str> = rows.iter().map(|row| row.message_id.as_str()).collect();
    ids.dedup();
    assert_eq!(ids.len(), 3, "each its own Message-ID");
    // Delivered in queue order, one at a time to the one recipient.
    let relay = ScriptedSmtp::start(Script::default());
    let transport = Transport::smtp(&relay.url(), false).unwrap();
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 10);
    let mut session = Session::new();
    while relay.accepted().len() < 3 {
        assert!(
            !deliver(&pool, &transport, &mut session, &settings).is_empty(),
            "a mail is due"
        );
    }
    let arrived: Vec<String> = relay
        .accepted()
        .iter()
        .map(|mail| mail.header("Subject").unwrap())
        .collect();
    assert_eq!(arrived, ["first", "second", "third"]);
}

/// Python's `smtpd` answers a second EHLO on a connection `503 Duplicate HELO/EHLO`: the
/// session asks again for PIPELINING and CHUNKING, and must then send without them rather
/// than retry for ever.
async fn a_relay_refusing_a_second_ehlo_still_gets_the_mail(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let relay = ScriptedSmtp::start(Script {
        repeated_ehlo_refusal: Some("503 Duplicate HELO/EHLO".into()),
        ..Script::default()
    });
    // With credentials: AUTH follows the refused EHLO on the same connection.
    let transport = Transport::smtp(
        &format!("smtp://user:secret@127.0.0.1:{}", relay.port),
        false,
    )
    .unwrap();
    let checked = transport.check().unwrap();
    assert!(checked.contains("no PIPELINING"), "{checked}");
    let settings = settings(Duration::from_secs(60), Duration::from_secs(60), 10);
    let ids = [
        queue(&mut conn, "ada@example.org"),
        queue(&mut conn, "bob@example.org"),
    ];
    let done = deliver(&pool, &transport, &mut Session::new(), &settings);
    assert_eq!(done, ids.map(Delivery::Sent));
    for (to, id) in ["ada@example.org", "bob@example.org"].into_iter().zip(ids) {
        assert_eq!(relay.accepted_for(to).len(), 1, "{to}");
        assert_eq!(row(&mut conn, id).status, OutboxStatus::Sent, "{to}");
    }
    let commands = relay.commands();
    assert!(
        commands.iter().any(|c| c.starts_with("AUTH PLAIN")),
        "{commands:?}"
    );
    assert_eq!(
        commands.iter().filter(|c| *c == "DATA").count(),
        2,
        "one command at a time, with DATA: {commands:?}"
    );
    assert!(relay.pipelined_commands().is_empty(), "{commands:?}");
}
