//! Long-game benchmark (issue 48): a Chinese Checkers game played through the game service to
//! its move limit (`TURNPOST_BENCH_PLAYERS` seats, default 2: 600 moves; 6: 1800, the longest
//! any game may last), every move chosen so that no position stands a third time; then the real
//! `turnpost-server` binary on that SQLite database answers `TURNPOST_BENCH_REQUESTS` (default
//! 50) reads one after another of the game's page (`GET /games/{id}`, as a visitor) and of
//! `GET /v1/games/{id}/moves`. Reports the cost of a move near the limit (the length rules
//! replay the record once a move), then, for each read, the server's CPU time per request (all
//! its threads, from `/proc`), the median latency and the answer's size.
//!
//! `cargo bench -p turnpost-server --bench long_game`.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::time::{Duration, Instant};

use serde_json::json;
use support::{env_number, ms};
use turnpost_server::config::Config;
use turnpost_server::games::{challenge, moving, Actor, GameStatus};
use turnpost_shared::api::{CreateGameRequest, PlayMoveRequest};
use turnpost_shared::bot::SplitMix64;
use turnpost_shared::play::PositionHistory;

/// Plays a game to its move limit; answers its id, a player's token, and the time of each
/// move.
fn build(config: &Config, players: usize) -> (i64, String, Vec<Duration>) {
    let (pool, _, _) = turnpost_server::app::open_database(config).unwrap();
    let mut conn = pool.get().unwrap();
    let (accounts, token) = support::players(&mut conn, players);
    let names: Vec<String> = accounts.iter().map(|a| a.name.clone()).collect();
    let request: CreateGameRequest = serde_json::from_value(json!({
        "kind": "chinese-checkers",
        "options": {"players": players.to_string()},
        "seats": names,
    }))
    .unwrap();
    let maker = Actor::Account(accounts[0].id);
    let checked = challenge::check(
        &mut conn,
        &maker,
        &request,
        challenge::BotGamesCap(u32::MAX),
    )
    .unwrap();
    let id = challenge::create(&mut conn, &maker, &checked).unwrap().id;
    for account in &accounts[1..] {
        challenge::accept(&mut conn, &Actor::Account(account.id), id, None).unwrap();
    }
    let game = turnpost_server::db::games::find(&mut conn, id)
        .unwrap()
        .unwrap();
    let mut position = turnpost_server::games::engine(&game).unwrap();
    let mut history = PositionHistory::new(&position);
    let mut rng = SplitMix64::new(48);
    let mut times = Vec::new();
    loop {
        let game = turnpost_server::db::games::find(&mut conn, id)
            .unwrap()
            .unwrap();
        if game.status != GameStatus::Active {
            break;
        }
        let seat = usize::try_from(game.to_move.unwrap()).unwrap();
        // A random move that neither ends the game nor repeats a position a third time.
        let mut moves = position.legal_moves();
        let (notation, next) = loop {
            let mv = moves.swap_remove(rng.below(moves.len()));
            let next = position.play(&mv).unwrap().0;
            let fresh = !history.completes_repetition(&next.position_text());
            if (fresh && !next.status().is_over()) || moves.is_empty() {
                break (mv, next);
            }
        };
        let started = Instant::now();
        moving::play(
            &mut conn,
            &Actor::Account(accounts[seat - 1].id),
            id,
            &PlayMoveRequest {
                notation: notation.clone(),
                ply: u32::try_from(game.ply).unwrap(),
                message: None,
            },
        )
        .unwrap();
        times.push(started.elapsed());
        history.after_line(&notation, &next);
        position = next;
    }
    (id, token, times)
}

fn main() {
    let players: usize = env_number("TURNPOST_BENCH_PLAYERS", 2);
    let requests: usize = env_number("TURNPOST_BENCH_REQUESTS", 50);
    let dir = std::env::temp_dir().join(format!("turnpost_long_game_{}", support::suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    let config = Config::for_tests(dir.clone());
    let started = Instant::now();
    let (id, token, times) = build(&config, players);
    let tail = &times[times.len().saturating_sub(50)..];
    let tail_mean = tail.iter().sum::<Duration>() / u32::try_from(tail.len().max(1)).unwrap();
    println!(
        "game {id}: {players} players, {} moves to the move limit in {:.1} s; a move near \
         the limit takes {:.2} ms (mean of the last {})",
        times.len(),
        started.elapsed().as_secs_f64(),
        ms(tail_mean),
        tail.len()
    );
    let paths = [
        (format!("/games/{id}"), None),
        (format!("/games/{id}?ply=1"), None),
        (format!("/v1/games/{id}/moves"), Some(token.as_str())),
    ];
    support::report_reads(&dir, &paths, requests);
}
