//! The outbox: delivery over real SMTP, retries while the relay is down, dead letters, several
//! workers on one database, and the .eml file transport.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::{code_in, free_port, Backend, SmtpSink, TestApp, TestDb};
use serde_json::json;
use turnpost_server::db::{outbox, DbConnection};
use turnpost_server::mail::{self, deliver_one, Delivery, NewMail, OutboxSettings, Transport};

both_backends!(
    smtp_down_then_back_delivers_exactly_once,
    failing_mail_is_dead_lettered_after_max_attempts,
    two_workers_never_send_a_row_twice,
    enqueue_rolls_back_with_the_callers_transaction,
    without_smtp_mail_is_written_as_eml_files,
    shutdown_lets_the_current_send_finish,
);

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
    assert_eq!(rows[0].status, outbox::SENT, "{rows:?}");
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
    let port = free_port();
    let db = TestDb::create(backend);
    let mut config = db.config();
    config.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
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
        rows.len() == 1 && rows[0].attempts >= 2 && rows[0].status == outbox::PENDING
    })
    .await;
    let row = outbox::all(&mut app.conn()).unwrap().remove(0);
    assert!(
        row.last_error.as_deref().unwrap_or("").contains("SMTP"),
        "{row:?}"
    );

    let sink = SmtpSink::start_on(port);
    let mails = sink.wait_for("hana@example.org", 1).await;
    wait_until("row marked sent", || {
        outbox::all(&mut app.conn()).unwrap()[0].status == outbox::SENT
    })
    .await;
    tokio::time::sleep(Duration::from_millis(400)).await;
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
    let port = free_port();
    let app = TestApp::spawn_with(backend, |c| {
        c.smtp_url = Some(format!("smtp://127.0.0.1:{port}"));
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
        outbox::all(&mut app.conn()).unwrap()[0].status == outbox::DEAD
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
    }
}

async fn two_workers_never_send_a_row_twice(backend: Backend) {
    const ROWS: usize = 40;
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    for i in 0..ROWS {
        let mail = NewMail {
            to: format!("p{i}@example.org"),
            subject: format!("m{i}"),
            body: "x".into(),
            in_reply_to: None,
        };
        mail::enqueue(&mut conn, "test.invalid", &mail).unwrap();
    }
    let sink = SmtpSink::start();
    let transport = Transport::smtp(&sink.url(), false).unwrap();
    let from: lettre::message::Mailbox = "turnpost <t@example.org>".parse().unwrap();
    // Two workers with their own pools, as two server processes would have.
    let workers: Vec<_> = (0..2)
        .map(|_| {
            let pool = db.pool();
            let transport = transport.clone();
            let from = from.clone();
            std::thread::spawn(move || {
                let mut sent = Vec::new();
                let mut idle = 0;
                while idle < 3 {
                    let mut conn = pool.get().unwrap();
                    match deliver_one(&mut conn, &transport, &from, &settings()).unwrap() {
                        Delivery::Sent(id) => sent.push(id),
                        Delivery::Contended(_) => {}
                        Delivery::Idle => {
                            idle += 1;
                            std::thread::sleep(Duration::from_millis(20));
                        }
                        other => panic!("unexpected {other:?}"),
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
    if backend == Backend::Postgres {
        assert!(
            results.iter().all(|r| !r.is_empty()),
            "both workers took part: {results:?}"
        );
    }
    let received = sink.messages();
    assert_eq!(received.len(), ROWS);
    let mut per_id: HashMap<String, usize> = HashMap::new();
    for m in &received {
        *per_id.entry(m.header("Message-ID").unwrap()).or_default() += 1;
    }
    assert!(per_id.values().all(|&n| n == 1), "{per_id:?}");
    let rows = outbox::all(&mut conn).unwrap();
    assert!(rows
        .iter()
        .all(|r| r.status == outbox::SENT && r.attempts == 1));
}

async fn enqueue_rolls_back_with_the_callers_transaction(backend: Backend) {
    use diesel::Connection as _;
    let db = TestDb::create(backend);
    let (_, mut conn) = common::migrated(&db);
    let mail = NewMail {
        to: "a@example.org".into(),
        subject: "s".into(),
        body: "b".into(),
        in_reply_to: None,
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
