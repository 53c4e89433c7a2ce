//! `copy-to` benchmark: builds an SQLite installation of `TURNPOST_BENCH_GAMES` games (default
//! 10 000; the four kinds in turn, each 0 to 11 moves in, through the game service as the
//! server plays them, turn mail composed into the outbox), then copies it with
//! [`turnpost_server::cli::copy_to::copy_to`] into a fresh PostgreSQL database and reports the time
//! and the rows of every table.
//!
//! `cargo bench -p turnpost-server --bench copy_to`; needs a PostgreSQL role that may create
//! databases: `TURNPOST_TEST_DATABASE_URL` (default `postgres://postgres@127.0.0.1:5432/postgres`).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "a benchmark binary: a failed set-up should stop it loudly"
)]

use std::sync::Arc;
use std::time::Instant;

use diesel::{Connection, RunQueryDsl};
use serde_json::json;
use turnpost_server::config::Config;
use turnpost_server::games::{challenge, moving, Actor};
use turnpost_server::mail_context::MailContext;
use turnpost_shared::api::{CreateGameRequest, PlayMoveRequest};

const KINDS: [&str; 4] = ["kefren", "kechi", "sanqi", "chinese-checkers"];
const PLAYERS: usize = 200;

fn main() {
    let games: usize = std::env::var("TURNPOST_BENCH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let admin = std::env::var("TURNPOST_TEST_DATABASE_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_owned());
    let suffix = turnpost_server::secrets::random_string(8, turnpost_server::secrets::LOWER_ALNUM);
    let dir = std::env::temp_dir().join(format!("turnpost-copy-bench-{suffix}"));
    std::fs::create_dir_all(&dir).unwrap();
    let mut config = Config::for_tests(dir.clone());
    config.database_url = Some(format!("sqlite://{}", dir.join("source.db").display()));

    let started = Instant::now();
    let (pool, _, link_key) = turnpost_server::app::open_database(&config).unwrap();
    let mut conn = pool.get().unwrap();
    let ctx = MailContext {
        message_id_domain: config.message_id_domain(),
        public_url: config.public_base_url().unwrap(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: link_key.into(),
        reply: turnpost_server::reply_address::ReplyKeys::load(&mut conn, &config).unwrap(),
    };
    let mut players = Vec::with_capacity(PLAYERS);
    for n in 0..PLAYERS {
        let name = turnpost_server::validate::account_name(&format!("player{n}")).unwrap();
        let email = turnpost_server::validate::email(&format!("player{n}@example.org")).unwrap();
        let (_, _, account) =
            turnpost_server::accounts::create_verified(&mut conn, &name, &email, "bench").unwrap();
        players.push(account);
    }
    for g in 0..games {
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
            let moves = turnpost_server::games::engine(&game).unwrap().legal_moves();
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
        while turnpost_server::notify::compose_next(&mut conn, &ctx).unwrap() {}
    }
    let source_bytes = std::fs::metadata(dir.join("source.db")).map_or(0, |m| m.len());
    println!(
        "source: {games} games built in {:.1} s; SQLite file {:.1} MB",
        started.elapsed().as_secs_f64(),
        source_bytes as f64 / 1e6
    );

    let name = format!("turnpost_copy_bench_{suffix}");
    let mut admin_conn = diesel::PgConnection::establish(&admin).unwrap();
    diesel::sql_query(format!("CREATE DATABASE {name}"))
        .execute(&mut admin_conn)
        .unwrap();
    let mut url = url::Url::parse(&admin).unwrap();
    url.set_path(&name);
    let report = turnpost_server::cli::copy_to::copy_to(&mut conn, url.as_str());
    let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin_conn);
    let _ = std::fs::remove_dir_all(&dir);
    let report = report.unwrap();
    let total: i64 = report.tables.iter().map(|(_, rows)| rows).sum();
    for (table, rows) in &report.tables {
        println!("{table:<24} {rows:>10} rows");
    }
    println!(
        "copy-to: {total} rows in {} tables, {} games replayed, in {:.2} s",
        report.tables.len(),
        report.games_replayed,
        report.took.as_secs_f64()
    );
}
