//! Page benchmark: the real `turnpost-server` binary on a PostgreSQL database of
//! `TURNPOST_BENCH_GAMES` games (default 10 000; the four kinds in turn, each 0 to 11 moves
//! in, built through the game service), read by `TURNPOST_BENCH_CLIENTS` concurrent clients
//! (default 32, as the load benchmark) for `TURNPOST_BENCH_SECS` each (default 30): first
//! `GET /v1/games/{id}` (the JSON view, with a bearer token), then `GET /games/{id}` (the HTML
//! page with its SVG board, as a visitor), each client asking for games in a random order as
//! soon as the previous answer is read. Reports requests/s, p50/p99 latency and the mean size
//! of each, and pages/s as a share of API reads/s. A short warm-up
//! (`TURNPOST_BENCH_WARMUP_SECS`, default 2) before each part is not counted.
//!
//! `cargo bench -p turnpost-server --bench pages`; needs a PostgreSQL role that may create
//! databases: `TURNPOST_TEST_DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/postgres`, connected with `sslmode=disable` unless the
//! URL names an `sslmode`). `TURNPOST_BENCH_BUILDERS` threads build the games (default 4).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use diesel::RunQueryDsl;
use serde_json::json;
use support::{env_number, ms, percentile};
use turnpost_server::config::Config;
use turnpost_server::games::{challenge, moving, Actor};
use turnpost_shared::api::{CreateGameRequest, PlayMoveRequest};

const KINDS: [&str; 4] = ["kefren", "kechi", "sanqi", "chinese-checkers"];
const PLAYERS: usize = 200;

/// Builds `games` games in the database of `config` on `builders` threads; answers their ids
/// and one player's API token.
fn build(config: &Config, games: usize, builders: usize) -> (Vec<i64>, String) {
    let (pool, _, _) = turnpost_server::app::open_database(config).unwrap();
    let mut conn = pool.get().unwrap();
    let (players, token) = support::players(&mut conn, PLAYERS);
    drop(conn);
    let ids: Vec<i64> = std::thread::scope(|scope| {
        let builders: Vec<_> = (0..builders.max(1))
            .map(|builder| {
                let (pool, players) = (pool.clone(), &players);
                scope.spawn(move || {
                    let mut conn = pool.get().unwrap();
                    let mut ids = Vec::new();
                    for g in (builder..games).step_by(builders.max(1)) {
                        let (a, b) = (
                            &players[g % PLAYERS],
                            &players[(g / PLAYERS + g + 1) % PLAYERS],
                        );
                        let request: CreateGameRequest = serde_json::from_value(json!({
                            "kind": KINDS[g % KINDS.len()],
                            "seats": [a.name.clone(), b.name.clone()],
                        }))
                        .unwrap();
                        let maker = Actor::Account(a.id);
                        let checked = challenge::check(
                            &mut conn,
                            &maker,
                            &request,
                            challenge::BotGamesCap(u32::MAX),
                        )
                        .unwrap();
                        let id = challenge::create(&mut conn, &maker, &checked).unwrap().id;
                        challenge::accept(&mut conn, &Actor::Account(b.id), id, None).unwrap();
                        for ply in 0..(g % 12) {
                            let game = turnpost_server::db::games::find(&mut conn, id)
                                .unwrap()
                                .unwrap();
                            let Some(seat) = game.to_move else { break };
                            let moves =
                                turnpost_server::games::engine(&game).unwrap().legal_moves();
                            if moves.is_empty() {
                                break;
                            }
                            let mover = if seat == 1 { a.id } else { b.id };
                            moving::play(
                                &mut conn,
                                &Actor::Account(mover),
                                id,
                                &PlayMoveRequest {
                                    notation: moves[(g + ply) % moves.len()].clone(),
                                    ply: u32::try_from(game.ply).unwrap(),
                                    message: None,
                                },
                            )
                            .unwrap();
                        }
                        ids.push(id);
                    }
                    ids
                })
            })
            .collect();
        builders
            .into_iter()
            .flat_map(|b| b.join().unwrap())
            .collect()
    });
    // Reads only: no mail to compose behind the measurement.
    let mut conn = pool.get().unwrap();
    diesel::sql_query("DELETE FROM game_events")
        .execute(&mut **conn)
        .unwrap();
    (ids, token)
}

/// What one part measured.
struct Part {
    latencies: Vec<Duration>,
    bytes: usize,
    took: Duration,
}

/// `clients` clients asking for `path(id)` of random games from `ids` for `secs` seconds.
async fn part(
    http: &reqwest::Client,
    base: &str,
    ids: &Arc<Vec<i64>>,
    clients: usize,
    secs: f64,
    token: Option<&str>,
    path: fn(i64) -> String,
) -> Part {
    let end = Instant::now() + Duration::from_secs_f64(secs);
    let started = Instant::now();
    let tasks: Vec<_> = (0..clients)
        .map(|c| {
            let (http, base, ids) = (http.clone(), base.to_owned(), ids.clone());
            let token = token.map(str::to_owned);
            tokio::spawn(async move {
                let mut rng = (c as u64 + 1).wrapping_mul(6_364_136_223_846_793_005) | 1;
                let mut latencies = Vec::new();
                let mut bytes = 0;
                while Instant::now() < end {
                    rng = rng
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let id = ids[((rng >> 33) as usize) % ids.len()];
                    let mut request = http.get(format!("{base}{}", path(id)));
                    if let Some(token) = &token {
                        request = request.bearer_auth(token);
                    }
                    let asked = Instant::now();
                    let response = request.send().await.unwrap();
                    let status = response.status();
                    let body = response.bytes().await.unwrap();
                    assert!(status.is_success(), "{} {status}", path(id));
                    latencies.push(asked.elapsed());
                    bytes += body.len();
                }
                (latencies, bytes)
            })
        })
        .collect();
    let mut part = Part {
        latencies: Vec::new(),
        bytes: 0,
        took: Duration::ZERO,
    };
    for task in tasks {
        let (latencies, bytes) = task.await.unwrap();
        part.latencies.extend(latencies);
        part.bytes += bytes;
    }
    part.took = started.elapsed();
    part.latencies.sort();
    part
}

/// Prints a part's line; answers its requests per second.
fn report(what: &str, part: &Part) -> f64 {
    let n = part.latencies.len();
    let per_sec = n as f64 / part.took.as_secs_f64();
    println!(
        "{what}: {n} in {:.1} s, {per_sec:.0}/s, p50 {:.1} ms, p99 {:.1} ms, {:.1} kB each",
        part.took.as_secs_f64(),
        ms(percentile(&part.latencies, 0.50)),
        ms(percentile(&part.latencies, 0.99)),
        part.bytes as f64 / n.max(1) as f64 / 1000.0
    );
    per_sec
}

fn main() {
    let games: usize = env_number("TURNPOST_BENCH_GAMES", 10_000);
    let clients: usize = env_number("TURNPOST_BENCH_CLIENTS", 32);
    let secs: f64 = env_number("TURNPOST_BENCH_SECS", 30.0);
    let warmup: f64 = env_number("TURNPOST_BENCH_WARMUP_SECS", 2.0);
    let builders: usize = env_number("TURNPOST_BENCH_BUILDERS", 4);
    let admin = support::admin_url();
    let name = format!("turnpost_pages_bench_{}", support::suffix());
    let url = support::create_database(&admin, &name);
    let dir = std::env::temp_dir().join(&name);
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::for_tests(dir.clone());
    config.database_url = Some(url.to_string());
    config.db_pool_size = u32::try_from(builders + 1).unwrap();

    let started = Instant::now();
    let (ids, token) = build(&config, games, builders);
    println!(
        "database: {} games built in {:.1} s",
        ids.len(),
        started.elapsed().as_secs_f64()
    );
    support::checkpoint(&admin);
    let (mut server, port) = support::start_server(&[
        ("DATABASE_URL", url.to_string()),
        ("TURNPOST_DATA_DIR", dir.display().to_string()),
        ("TURNPOST_DB_POOL_SIZE", (clients + 4).to_string()),
    ]);
    let base = format!("http://127.0.0.1:{port}");
    let ids = Arc::new(ids);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let (api, page) = runtime.block_on(async {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(clients * 2)
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap();
        let api_path: fn(i64) -> String = |id| format!("/v1/games/{id}");
        let page_path: fn(i64) -> String = |id| format!("/games/{id}");
        part(&http, &base, &ids, clients, warmup, Some(&token), api_path).await;
        let api = part(&http, &base, &ids, clients, secs, Some(&token), api_path).await;
        part(&http, &base, &ids, clients, warmup, None, page_path).await;
        let page = part(&http, &base, &ids, clients, secs, None, page_path).await;
        (api, page)
    });
    let _ = server.kill();
    let _ = server.wait();
    support::drop_database(&admin, &name);
    let _ = std::fs::remove_dir_all(&dir);

    println!("{clients} clients, {} games:", ids.len());
    let reads = report("GET /v1/games/{id} (JSON)", &api);
    let pages = report("GET /games/{id} (HTML with its SVG board)", &page);
    println!(
        "pages/s = {:.0}% of API reads/s (a page costs {:.2}× an API read)",
        pages / reads * 100.0,
        reads / pages
    );
}
