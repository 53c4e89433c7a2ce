//! A mail backlog: the claim's plan stays an ordered read of the pending index however many
//! rows wait (and whether PostgreSQL plans it for the values or generically), and account mail
//! (sign-in codes) is claimed ahead of any backlog of game mail.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::sync::Arc;

use chrono::NaiveDateTime;
use common::{Backend, TestDb};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text, Timestamp};
use turnpost_server::db::accounts::NewAccount;
use turnpost_server::db::outbox::OutboxStatus;
use turnpost_server::db::{self, accounts, outbox, DbConnection};
use turnpost_server::mail::{self, ComposedMail, NewMail, CLAIM_BATCH};

both_backends!(
    claim_plan_reads_the_pending_index,
    claim_probes_each_recipient_whatever_the_statistics,
    sign_in_code_is_claimed_ahead_of_a_game_mail_backlog,
    dead_queue_rows_are_vacuumed,
    a_worker_renews_and_releases_only_its_sessions_claims,
);

/// The claim index the plan must read.
const INDEX: &str = "mail_outbox_pending_due";
/// The index that answers "does an earlier mail of this recipient wait?".
const RECIPIENT_INDEX: &str = "mail_outbox_pending_recipient_lane";

/// Fills the outbox with `rows` game mails to 500 recipients: the first half sent, the rest
/// pending and due, as after a saturating burst of turn cards.
fn fill_backlog(conn: &mut DbConnection, rows: i64) {
    let sent = rows / 2;
    let sql = match conn {
        DbConnection::Pg(_) => format!(
            "INSERT INTO mail_outbox (message_id, recipient, subject, body_text, status, \
             next_attempt_at, created_at, sent_at, lane) \
             SELECT '<backlog-' || n || '@test>', 'p' || (n % 500) || '@example.com', 's', 'b', \
             CASE WHEN n <= {sent} THEN 'sent' ELSE 'pending' END, \
             TIMESTAMP '2026-01-01 00:00:00' + n * INTERVAL '1 millisecond', \
             TIMESTAMP '2026-01-01 00:00:00', \
             CASE WHEN n <= {sent} THEN TIMESTAMP '2026-01-01 00:00:01' END, 1 \
             FROM generate_series(1, {rows}) AS n"
        ),
        DbConnection::Sqlite(_) => format!(
            "WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < {rows}) \
             INSERT INTO mail_outbox (message_id, recipient, subject, body_text, status, \
             next_attempt_at, created_at, sent_at, lane) \
             SELECT '<backlog-' || n || '@test>', 'p' || (n % 500) || '@example.com', 's', 'b', \
             CASE WHEN n <= {sent} THEN 'sent' ELSE 'pending' END, \
             strftime('%Y-%m-%d %H:%M:%f', '2026-01-01 00:00:00', '+' || (n / 1000.0) || ' seconds'), \
             '2026-01-01 00:00:00', \
             CASE WHEN n <= {sent} THEN '2026-01-01 00:00:01' END, 1 \
             FROM s"
        ),
    };
    diesel::sql_query(sql).execute(conn).unwrap();
    let pending = outbox::backlog(conn).unwrap().pending;
    assert_eq!(pending, rows - sent);
}

#[derive(QueryableByName)]
struct PgPlanLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

#[derive(QueryableByName)]
struct SqlitePlanLine {
    #[diesel(sql_type = Text)]
    detail: String,
}

/// The plan's nodes (what is read and how), without costs or conditions, so a custom plan
/// and a generic plan of the same shape compare equal.
fn plan_shape(plan: &[String]) -> Vec<String> {
    plan.iter()
        .filter(|line| !line.trim_start().contains(':'))
        .map(|line| {
            line.split("  (cost=")
                .next()
                .unwrap_or_default()
                .trim_end()
                .to_owned()
        })
        .collect()
}

fn pg_explain(conn: &mut DbConnection, statement: &str) -> Vec<String> {
    let DbConnection::Pg(pg) = conn else {
        unreachable!()
    };
    diesel::sql_query(format!("EXPLAIN {statement}"))
        .load::<PgPlanLine>(pg)
        .unwrap()
        .into_iter()
        .map(|row| row.line)
        .collect()
}

/// SQLite's plan of the claim's selection at `now`, one line a step.
fn sqlite_claim_plan(conn: &mut DbConnection, now: &str) -> Vec<String> {
    let DbConnection::Sqlite(sqlite) = conn else {
        unreachable!()
    };
    diesel::sql_query(format!("EXPLAIN QUERY PLAN {}", outbox::DUE_IDS_SQL))
        .bind::<Timestamp, _>(NaiveDateTime::parse_from_str(now, "%Y-%m-%d %H:%M:%S").unwrap())
        .bind::<BigInt, _>(i64::try_from(CLAIM_BATCH).unwrap())
        .load::<SqlitePlanLine>(sqlite)
        .unwrap()
        .into_iter()
        .map(|row| row.detail)
        .collect()
}

/// The code's own claim of 50 mails at `now` (leased for a minute).
fn claim_fifty(conn: &mut DbConnection, now: &str) -> Vec<outbox::OutboxMail> {
    outbox::claim_due(
        conn,
        "test",
        NaiveDateTime::parse_from_str(now, "%Y-%m-%d %H:%M:%S").unwrap(),
        NaiveDateTime::parse_from_str("2026-01-02 00:01:00", "%Y-%m-%d %H:%M:%S").unwrap(),
        50,
    )
    .unwrap()
}

/// Prepares the statement the code runs (the selection inside the claim's one UPDATE) as
/// `claim_plan`; answers the EXECUTE of it at `now`.
fn prepare_claim(conn: &mut DbConnection, now: &str) -> String {
    let claim = outbox::claim_statement_sql(i64::try_from(CLAIM_BATCH).unwrap());
    diesel::sql_query(format!(
        "PREPARE claim_plan (timestamp, text, timestamp) AS {claim}"
    ))
    .execute(conn)
    .unwrap();
    format!("EXECUTE claim_plan ('{now}', 'plan', '{now}')")
}

fn assert_reads_the_index(plan: &[String]) {
    let text = plan.join("\n");
    assert!(
        text.contains(&format!("Index Scan using {INDEX} on mail_outbox o")),
        "the claim does not read {INDEX} in order:\n{text}"
    );
    assert!(
        !text.contains("Seq Scan on mail_outbox"),
        "the claim scans the outbox:\n{text}"
    );
    assert!(
        !text.contains("Sort"),
        "the claim sorts the backlog:\n{text}"
    );
}

async fn claim_plan_reads_the_pending_index(backend: Backend) {
    let db = TestDb::create(backend);
    let (_pool, mut conn) = common::migrated(&db);
    fill_backlog(&mut conn, 20_000);
    let now = "2026-01-02 00:00:00";
    match backend {
        Backend::Postgres => {
            // Statistics as autovacuum would have them after the burst.
            diesel::sql_query("ANALYZE mail_outbox")
                .execute(&mut conn)
                .unwrap();
            let execute = prepare_claim(&mut conn, now);
            let first = pg_explain(&mut conn, &execute);
            assert_reads_the_index(&first);
            // After five runs PostgreSQL may switch the prepared statement to its generic plan.
            for _ in 0..6 {
                let claimed = diesel::sql_query(&execute).execute(&mut conn).unwrap();
                assert_eq!(claimed, CLAIM_BATCH);
            }
            let later = pg_explain(&mut conn, &execute);
            assert_reads_the_index(&later);
            assert_eq!(plan_shape(&first), plan_shape(&later));
            // The generic plan itself (planned without the values) is the same index read.
            diesel::sql_query("SET plan_cache_mode = force_generic_plan")
                .execute(&mut conn)
                .unwrap();
            let generic = pg_explain(&mut conn, &execute);
            assert!(
                generic.join("\n").contains("$1"),
                "not a generic plan: {generic:#?}"
            );
            assert_reads_the_index(&generic);
            assert_eq!(plan_shape(&first), plan_shape(&generic));
            diesel::sql_query("RESET plan_cache_mode")
                .execute(&mut conn)
                .unwrap();
        }
        Backend::Sqlite => {
            let plan = sqlite_claim_plan(&mut conn, now);
            let text = plan.join("\n");
            assert!(
                plan.iter().any(|line| line
                    .starts_with("SCAN o USING INDEX mail_outbox_pending_due")
                    || line.starts_with("SEARCH o USING INDEX mail_outbox_pending_due")),
                "the claim does not read {INDEX}:\n{text}"
            );
            assert!(
                !plan.iter().any(|line| line == "SCAN o" || line == "SCAN e"),
                "the claim scans the outbox:\n{text}"
            );
            assert!(
                !text.contains("TEMP B-TREE"),
                "the claim sorts the backlog:\n{text}"
            );
        }
    }
    // The code's own claim over the backlog: the oldest due mail first, one per recipient.
    let claimed = claim_fifty(&mut conn, now);
    assert_eq!(claimed.len(), 50);
    let mut recipients: Vec<&str> = claimed.iter().map(|row| row.recipient.as_str()).collect();
    recipients.sort_unstable();
    recipients.dedup();
    assert_eq!(
        recipients.len(),
        50,
        "two mails of one recipient in one claim"
    );
    assert!(claimed.windows(2).all(|pair| pair[0].id < pair[1].id));
    assert!(claimed
        .iter()
        .all(|row| row.status == OutboxStatus::Pending));
}

/// Statistics taken while the outbox held mail for one recipient only (a quiet hour), then a
/// burst to 500 recipients before the next ANALYZE: the check for an earlier mail of the
/// same recipient must still be one probe of the recipient index, not a walk of every due
/// row of the lane for each candidate (the 10 ms claims and 300 cards a second of a load
/// benchmark whose statistics happened to be taken so).
async fn claim_probes_each_recipient_whatever_the_statistics(backend: Backend) {
    let db = TestDb::create(backend);
    let (_pool, mut conn) = common::migrated(&db);
    let solo = "INSERT INTO mail_outbox (message_id, recipient, subject, body_text, status, \
         next_attempt_at, created_at, sent_at, lane) \
         VALUES ('<solo-{n}@test>', 'solo@example.com', 's', 'b', 'pending', \
         '2025-12-31 00:00:00', '2025-12-31 00:00:00', NULL, 1)";
    for n in 0..60 {
        diesel::sql_query(solo.replace("{n}", &n.to_string()))
            .execute(&mut conn)
            .unwrap();
    }
    // The server analyses only PostgreSQL's tables (SQLite keeps no statistics without).
    if backend == Backend::Postgres {
        diesel::sql_query("ANALYZE").execute(&mut conn).unwrap();
    }
    // Sent since (the statistics do not know).
    diesel::sql_query("UPDATE mail_outbox SET status = 'sent', sent_at = created_at")
        .execute(&mut conn)
        .unwrap();
    fill_backlog(&mut conn, 20_000);
    let now = "2026-01-02 00:00:00";
    match backend {
        Backend::Postgres => {
            let execute = prepare_claim(&mut conn, now);
            for mode in ["force_custom_plan", "force_generic_plan"] {
                diesel::sql_query(format!("SET plan_cache_mode = {mode}"))
                    .execute(&mut conn)
                    .unwrap();
                let plan = pg_explain(&mut conn, &execute).join("\n");
                assert!(
                    plan.contains(&format!("Index Scan using {RECIPIENT_INDEX} on mail_outbox e")),
                    "{mode}: the earlier mail of a recipient is not looked up by {RECIPIENT_INDEX}:\n{plan}"
                );
            }
            diesel::sql_query("RESET plan_cache_mode")
                .execute(&mut conn)
                .unwrap();
        }
        Backend::Sqlite => {
            let plan = sqlite_claim_plan(&mut conn, now);
            assert!(
                plan.iter().any(|line| line
                    .starts_with(&format!("SEARCH e USING INDEX {RECIPIENT_INDEX}"))
                    || line
                        .starts_with(&format!("SEARCH e USING COVERING INDEX {RECIPIENT_INDEX}"))),
                "the earlier mail of a recipient is not looked up by {RECIPIENT_INDEX}:\n{}",
                plan.join("\n")
            );
        }
    }
    // And the claim still answers the oldest due mail of 50 recipients.
    let claimed = claim_fifty(&mut conn, now);
    assert_eq!(claimed.len(), 50);
    assert!(claimed.windows(2).all(|pair| pair[0].id < pair[1].id));
}

fn mail_context(db: &TestDb, conn: &mut DbConnection) -> turnpost_server::accounts::MailContext {
    let config = db.config();
    turnpost_server::accounts::MailContext {
        message_id_domain: config.message_id_domain(),
        public_url: config.public_base_url().unwrap(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: turnpost_server::preferences::unsubscribe::load_key(conn)
            .unwrap()
            .into(),
        reply: turnpost_server::inbound::ReplyKeys::load(conn, &config).unwrap(),
    }
}

async fn sign_in_code_is_claimed_ahead_of_a_game_mail_backlog(backend: Backend) {
    let db = TestDb::create(backend);
    let (_pool, mut conn) = common::migrated(&db);
    let ctx = mail_context(&db, &mut conn);
    let account = accounts::insert(
        &mut conn,
        &NewAccount {
            name: "ada",
            name_key: "ada",
            email: "ada@example.com",
            email_key: "ada@example.com",
            verified_at: Some(db::now()),
            created_at: db::now(),
        },
    )
    .unwrap();
    // Many game mails due, to other players and to ada herself, all queued before her code.
    for n in 0..200 {
        let to = if n % 50 == 0 {
            "ada@example.com".to_owned()
        } else {
            format!("p{n}@example.com")
        };
        mail::enqueue(
            &mut conn,
            &ctx.message_id_domain,
            &NewMail {
                to,
                mail: ComposedMail::plain(format!("Your move in Kefren #{n}"), "turn card"),
            },
        )
        .unwrap();
    }
    turnpost_server::notify::sign_in_code(
        &mut conn,
        &ctx,
        &account,
        "123456",
        "http://x/signin/link/a",
        15,
    )
    .unwrap();
    turnpost_server::notify::sign_in_code(
        &mut conn,
        &ctx,
        &account,
        "654321",
        "http://x/signin/link/b",
        15,
    )
    .unwrap();
    let codes: Vec<_> = outbox::all(&mut conn)
        .unwrap()
        .into_iter()
        .filter(|row| row.body_text.contains("123456") || row.body_text.contains("654321"))
        .collect();
    assert_eq!(codes.len(), 2);

    let later = db::now() + chrono::Duration::seconds(1);
    let batch = outbox::claim_due(
        &mut conn,
        "test",
        later,
        later + chrono::Duration::seconds(60),
        i64::try_from(CLAIM_BATCH).unwrap(),
    )
    .unwrap();
    assert_eq!(batch.len(), CLAIM_BATCH);
    // The first code leads the first batch; the second waits for it (one mail per recipient
    // and lane at a time keeps a recipient's codes in order), and game mail fills the rest.
    assert_eq!(batch[0].id, codes[0].id, "{:?}", batch[0].subject);
    assert!(batch.iter().all(|row| row.id != codes[1].id));
    assert!(batch[1..]
        .iter()
        .all(|row| row.subject.starts_with("Your move in Kefren")));
}

/// A burst's dead outbox rows are vacuumed away (PostgreSQL), so the claim stops reading
/// through them; a table with few dead rows is left alone; SQLite has nothing to do.
async fn dead_queue_rows_are_vacuumed(backend: Backend) {
    let db = TestDb::create(backend);
    let (pool, mut conn) = common::migrated(&db);
    let rows = 2 * db::queue_vacuum::DEAD_ROWS_WORTH_A_VACUUM;
    fill_backlog(&mut conn, rows);
    if backend == Backend::Sqlite {
        assert!(db::queue_vacuum::vacuum_queues(&mut conn)
            .unwrap()
            .is_empty());
        return;
    }
    #[derive(QueryableByName)]
    struct Dead {
        #[diesel(sql_type = BigInt)]
        n: i64,
    }
    let dead = || {
        let mut conn = pool.get().unwrap();
        diesel::sql_query(
            "SELECT COALESCE(n_dead_tup, 0) AS n FROM pg_stat_user_tables \
             WHERE relname = 'mail_outbox'",
        )
        .get_result::<Dead>(&mut **conn)
        .unwrap()
        .n
    };
    assert!(
        db::queue_vacuum::vacuum_queues(&mut conn)
            .unwrap()
            .is_empty(),
        "no dead rows yet"
    );
    // Every pending mail delivered: each update leaves a dead row.
    diesel::sql_query("UPDATE mail_outbox SET status = 'sent' WHERE status = 'pending'")
        .execute(&mut conn)
        .unwrap();
    // The counts reach the shared statistics when this backend flushes them.
    diesel::sql_query("SELECT pg_stat_force_next_flush()")
        .execute(&mut conn)
        .unwrap();
    diesel::sql_query("SELECT 1").execute(&mut conn).unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while dead() < db::queue_vacuum::DEAD_ROWS_WORTH_A_VACUUM {
        assert!(
            std::time::Instant::now() < deadline,
            "dead rows never counted"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        db::queue_vacuum::vacuum_queues(&mut conn).unwrap(),
        ["mail_outbox"]
    );
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while dead() >= db::queue_vacuum::DEAD_ROWS_WORTH_A_VACUUM {
        assert!(
            std::time::Instant::now() < deadline,
            "the vacuum left the dead rows"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(db::queue_vacuum::vacuum_queues(&mut conn)
        .unwrap()
        .is_empty());
    // Neither the server's vacuum nor autovacuum truncates a queue table: the exclusive lock
    // that takes would stop every move.
    #[derive(QueryableByName)]
    struct Options {
        #[diesel(sql_type = Text)]
        options: String,
    }
    for table in db::queue_vacuum::QUEUE_TABLES {
        let options = diesel::sql_query(
            "SELECT COALESCE(array_to_string(reloptions, ','), '') AS options FROM pg_class \
             WHERE relname = $1 AND relkind = 'r'",
        )
        .bind::<Text, _>(table)
        .get_result::<Options>(&mut conn)
        .unwrap()
        .options;
        assert!(
            options.contains("vacuum_truncate=false"),
            "{table}: {options}"
        );
    }
}

/// A worker renews and releases exactly the claims of its own sessions (`worker/…`), not
/// another worker's whose name begins the same way.
async fn a_worker_renews_and_releases_only_its_sessions_claims(backend: Backend) {
    let db = TestDb::create(backend);
    let (_pool, mut conn) = common::migrated(&db);
    fill_backlog(&mut conn, 8);
    let now = db::now();
    let lease = now + chrono::Duration::seconds(30);
    let mine = outbox::claim_due(&mut conn, "pid1-abc/s0", now, lease, 2).unwrap();
    let also_mine = outbox::claim_due(&mut conn, "pid1-abc/c", now, lease, 1).unwrap();
    let theirs = outbox::claim_due(&mut conn, "pid1-abcd/s0", now, lease, 1).unwrap();
    assert_eq!((mine.len(), also_mine.len(), theirs.len()), (2, 1, 1));
    let later = now + chrono::Duration::seconds(300);
    assert_eq!(
        outbox::renew_worker_claims(&mut conn, "pid1-abc", later).unwrap(),
        3
    );
    assert_eq!(
        outbox::release_worker_claims(&mut conn, "pid1-abc").unwrap(),
        3
    );
    let rows = outbox::all(&mut conn).unwrap();
    let claimed: Vec<&str> = rows
        .iter()
        .filter_map(|r| r.claimed_by.as_deref())
        .collect();
    assert_eq!(claimed, ["pid1-abcd/s0"]);
    assert_eq!(
        outbox::release_claims(&mut conn, "pid1-abcd/s0").unwrap(),
        1
    );
}
