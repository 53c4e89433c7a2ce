//! Big-tournament benchmark (issue 48 point 3): `TURNPOST_BENCH_PLAYERS` (default 100) players
//! enter an all-at-once round-robin on a SQLite database (4 950 games for 100); the start and
//! every batch of games run as the sweeper runs them, one transaction each, timed: the
//! longest is the longest hold of SQLite's write lock (before this change, the whole start
//! was one transaction: about the sum). Then the real `turnpost-server` binary on that
//! database answers `TURNPOST_BENCH_REQUESTS` (default 20) reads of the tournament's page
//! and of `GET /v1/tournaments/{id}`: the server's CPU time per request and the answer's size.
//!
//! `cargo bench -p turnpost-server --bench big_tournament`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{env_number, ms, percentile};
use turnpost_server::config::Config;
use turnpost_server::games::Actor;
use turnpost_server::tournaments::{self, Step};
use turnpost_shared::api::CreateTournamentRequest;

/// Makes the field and starts it; answers the tournament, a player's token, and the time of
/// each transaction (the start, then each batch).
fn build(config: &Config, players: usize) -> (i64, String, Vec<Duration>) {
    let (pool, _, _) = turnpost_server::app::open_database(config).unwrap();
    let mut conn = pool.get().unwrap();
    let ctx = turnpost_server::accounts::MailContext {
        message_id_domain: config.message_id_domain(),
        public_url: config.public_base_url().unwrap(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: turnpost_server::preferences::unsubscribe::load_key(&mut conn)
            .unwrap()
            .into(),
        reply: turnpost_server::inbound::ReplyKeys::load(&mut conn, config).unwrap(),
    };
    let (accounts, token) = support::players(&mut conn, players);
    let closes = turnpost_server::db::now() + chrono::Duration::hours(1);
    let request: CreateTournamentRequest = serde_json::from_value(json!({
        "name": "Big", "kind": "kefren", "format": "round_robin", "all_at_once": true,
        "max_players": players, "start_when_full": false,
        "entry_closes_at": turnpost_server::db::rfc3339(closes),
    }))
    .unwrap();
    let id = tournaments::create(&mut conn, &ctx, &Actor::Account(accounts[0].id), &request)
        .unwrap()
        .id;
    for account in &accounts {
        tournaments::join(&mut conn, &Actor::Account(account.id), id).unwrap();
    }
    let later = closes + chrono::Duration::minutes(1);
    let mut times = Vec::new();
    loop {
        let started = Instant::now();
        let step = tournaments::advance(&mut conn, &ctx, id, later).unwrap();
        times.push(started.elapsed());
        match step {
            Step::Started | Step::Made { more: true, .. } => {}
            Step::Made { more: false, .. } => break,
            other => panic!("unexpected step {other:?}"),
        }
    }
    (id, token, times)
}

fn main() {
    let players: usize = env_number("TURNPOST_BENCH_PLAYERS", 100);
    let requests: usize = env_number("TURNPOST_BENCH_REQUESTS", 20);
    let dir = std::env::temp_dir().join(format!("turnpost_big_tournament_{}", support::suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config::for_tests(dir.clone());
    let (id, token, times) = build(&config, players);
    let total: Duration = times.iter().sum();
    let mut sorted = times.clone();
    sorted.sort();
    println!(
        "tournament {id}: {players} players, {} transactions (the start, then batches of {}); \
         longest {:.1} ms, median {:.1} ms, all together {:.2} s (the one transaction of \
         before)",
        times.len(),
        tournaments::BATCH_GAMES,
        ms(*sorted.last().unwrap()),
        ms(percentile(&sorted, 0.5)),
        total.as_secs_f64()
    );
    let paths = [
        (format!("/tournaments/{id}"), None),
        (format!("/v1/tournaments/{id}"), Some(token.as_str())),
    ];
    support::report_reads(&dir, &paths, requests);
}
