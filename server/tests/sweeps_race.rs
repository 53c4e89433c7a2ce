//! The sweeps run in every server process: two `turnpost-server` processes sweeping one
//! database at once still end each timed-out game once, tell each claimant once, and remind
//! each player once.
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

use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use common::{Backend, TestDb};
use diesel::prelude::*;
use process::ServerProcess;
use serde_json::json;
use turnpost_server::clocks::ClockNotices;
use turnpost_server::db::schema::{games, mail_outbox};
use turnpost_server::db::{self, Pool};

both_backends!(two_processes_sweep_each_clock_once);

/// Games of each kind.
const GAMES: usize = 12;

async fn post(base: &str, path: &str, token: &str, body: serde_json::Value) -> serde_json::Value {
    let answer = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .bearer_auth(token)
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(answer.status().is_success(), "{path}: {}", answer.status());
    answer.json().await.unwrap()
}

/// `GAMES` started Kefren games between `{prefix}a` (to move) and `{prefix}b`.
async fn games_between(base: &str, pool: &Pool, prefix: &str, timeout: &str) -> Vec<i64> {
    let a = play::player(pool, &format!("{prefix}a"));
    let b = play::player(pool, &format!("{prefix}b"));
    let mut ids = Vec::new();
    for _ in 0..GAMES {
        let game = post(
            base,
            "/v1/games",
            &a,
            json!({"kind": "kefren", "seats": [format!("{prefix}a"), format!("{prefix}b")], "timeout": timeout}),
        )
        .await;
        let id = game["id"].as_i64().unwrap();
        post(base, &format!("/v1/games/{id}/accept"), &b, json!({})).await;
        ids.push(id);
    }
    ids
}

/// Waits until the servers composed the mail of every game event recorded so far.
async fn game_mail_queued(pool: &Pool) {
    let deadline = Instant::now() + StdDuration::from_secs(30);
    while db::events::waiting(&mut pool.get().unwrap()).unwrap() > 0 {
        assert!(
            Instant::now() < deadline,
            "game events still wait for their mail"
        );
        tokio::time::sleep(StdDuration::from_millis(20)).await;
    }
}

fn mails_to(pool: &Pool, name: &str) -> usize {
    let mut conn = pool.get().unwrap();
    let count: i64 = mail_outbox::table
        .filter(mail_outbox::recipient.eq(format!("{name}@example.org")))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    usize::try_from(count).unwrap()
}

fn set_deadlines(pool: &Pool, ids: &[i64], deadline: chrono::NaiveDateTime) {
    let mut conn = pool.get().unwrap();
    diesel::update(games::table.filter(games::id.eq_any(ids)))
        .set(games::deadline_at.eq(Some(deadline)))
        .execute(&mut **conn)
        .unwrap();
}

/// Moves the deadlines of `ids` inside the 2 h reminder window, as if their 24 h reminder had
/// gone out already, in one statement. Setting only the deadline while both processes sweep
/// could land between a round's 2 h pass and its 24 h pass (the same instant, two queries):
/// the game would then get the 24 h reminder and, next round, the 2 h one — right for a
/// deadline that jumped that way, but not what this test counts.
fn set_deadlines_reminded_24h(pool: &Pool, ids: &[i64], deadline: chrono::NaiveDateTime) {
    let mut conn = pool.get().unwrap();
    diesel::update(games::table.filter(games::id.eq_any(ids)))
        .set((
            games::deadline_at.eq(Some(deadline)),
            games::clock_notices.eq(ClockNotices::REMINDED_24H),
        ))
        .execute(&mut **conn)
        .unwrap();
}

fn finished(pool: &Pool, ids: &[i64]) -> usize {
    let mut conn = pool.get().unwrap();
    let count: i64 = games::table
        .filter(games::id.eq_any(ids))
        .filter(games::status.eq("finished"))
        .filter(games::result_reason.eq("timeout"))
        .count()
        .get_result(&mut **conn)
        .unwrap();
    usize::try_from(count).unwrap()
}

async fn two_processes_sweep_each_clock_once(backend: Backend) {
    let db = TestDb::create(backend);
    let sweeping = [("TURNPOST_SWEEP_INTERVAL_MS", "5")];
    let first = ServerProcess::start(&db, &sweeping);
    let second = ServerProcess::start(&db, &sweeping);
    let pool = db.pool();
    let timed_out = games_between(&first.base, &pool, "ta", "auto").await;
    let claims = games_between(&second.base, &pool, "tc", "claim").await;
    let reminded = games_between(&first.base, &pool, "tr", "auto").await;
    game_mail_queued(&pool).await;
    let before: Vec<usize> = ["taa", "tab", "tca", "tcb", "tra", "trb"]
        .iter()
        .map(|n| mails_to(&pool, n))
        .collect();

    let now = db::now();
    set_deadlines(&pool, &timed_out, now - Duration::minutes(5));
    set_deadlines(&pool, &claims, now - Duration::minutes(5));
    set_deadlines_reminded_24h(&pool, &reminded, now + Duration::minutes(90));

    let deadline = Instant::now() + StdDuration::from_secs(30);
    while finished(&pool, &timed_out) < GAMES
        || mails_to(&pool, "tcb") < before[3] + GAMES
        || mails_to(&pool, "tra") < before[4] + GAMES
    {
        assert!(Instant::now() < deadline, "the sweeps did not finish");
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    game_mail_queued(&pool).await;
    // Both processes keep sweeping; nothing more may come.
    tokio::time::sleep(StdDuration::from_millis(500)).await;
    let after: Vec<usize> = ["taa", "tab", "tca", "tcb", "tra", "trb"]
        .iter()
        .map(|n| mails_to(&pool, n))
        .collect();
    let new: Vec<usize> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    // Timeouts: one game-over mail per player per game. Claims: one notice to the claimant,
    // none to the late player. Reminders: one 2 h reminder to the player to move.
    assert_eq!(new, [GAMES, GAMES, 0, GAMES, GAMES, 0], "{new:?}");
    assert_eq!(finished(&pool, &claims), 0, "claim games wait for a claim");
    drop(first);
    drop(second);
}
