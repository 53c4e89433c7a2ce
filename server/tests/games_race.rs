//! Concurrency and recovery: 50 clients racing on one game (both backends), two server
//! processes racing on one PostgreSQL, and SIGKILL between requests losing no acknowledged move.
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

use std::time::{Duration, Instant};

use common::{Backend, TestApp, TestDb};
use process::ServerProcess;
use serde_json::{json, Value};
use turnpost_shared::GameRecord;

both_backends!(
    fifty_clients_race_on_one_game,
    sigkill_loses_no_acknowledged_move
);

/// Plies the racing clients play before they stop.
const RACE_PLIES: u64 = 24;
/// Racing clients.
const CLIENTS: usize = 50;

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

async fn send(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    token: &str,
    body: Option<Value>,
) -> (u16, Value) {
    let mut req = match &body {
        Some(b) => http.post(format!("{base}{path}")).json(b),
        None => http.get(format!("{base}{path}")),
    };
    req = req.bearer_auth(token);
    let resp = req.send().await.unwrap();
    let status = resp.status().as_u16();
    let text = resp.text().await.unwrap();
    assert_ne!(status, 500, "500 from {path}: {text}");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A started two-player Kefren game between `tokens`; returns its id.
async fn start_game(
    http: &reqwest::Client,
    base: &str,
    tokens: &[String; 2],
    names: [&str; 2],
) -> i64 {
    let (status, view) = send(
        http,
        base,
        "/v1/games",
        &tokens[0],
        Some(json!({"kind": "kefren", "seats": names})),
    )
    .await;
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_i64().unwrap();
    let (status, view) = send(
        http,
        base,
        &format!("/v1/games/{id}/accept"),
        &tokens[1],
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200, "{view}");
    id
}

/// `CLIENTS` clients, spread over `bases` and both players, each submitting a legal move as
/// soon as it sees its turn, until `RACE_PLIES` moves are played. Returns the status counts.
async fn race(
    bases: &[String],
    tokens: &[String; 2],
    id: i64,
) -> std::collections::BTreeMap<u16, usize> {
    let mut tasks = Vec::new();
    for i in 0..CLIENTS {
        let base = bases[i % bases.len()].clone();
        let token = tokens[i % 2].clone();
        tasks.push(actix_web::rt::spawn(async move {
            let http = client();
            let mut statuses = Vec::new();
            let deadline = Instant::now() + Duration::from_secs(120);
            loop {
                assert!(Instant::now() < deadline, "race did not finish");
                let (status, view) =
                    send(&http, &base, &format!("/v1/games/{id}"), &token, None).await;
                assert_eq!(status, 200);
                let ply = view["ply"].as_u64().unwrap();
                if view["status"] != "active" || ply >= RACE_PLIES {
                    break;
                }
                let Some(legal) = view["legal_moves"].as_array() else {
                    actix_web::rt::time::sleep(Duration::from_millis(2)).await;
                    continue;
                };
                // Different clients pick different moves, so most of them conflict.
                let mv = legal[(i / 2 + ply as usize) % legal.len()]
                    .as_str()
                    .unwrap()
                    .to_owned();
                let (status, body) = send(
                    &http,
                    &base,
                    &format!("/v1/games/{id}/moves"),
                    &token,
                    Some(json!({"move": mv, "ply": ply})),
                )
                .await;
                assert!(matches!(status, 201 | 409 | 403), "{status}: {body}");
                statuses.push(status);
            }
            statuses
        }));
    }
    let mut counts = std::collections::BTreeMap::new();
    for task in tasks {
        for status in task.await.unwrap() {
            *counts.entry(status).or_insert(0) += 1;
        }
    }
    counts
}

/// One move per ply, plies 0..n without gaps, seats alternating, and the record replays to the
/// cached position.
async fn check_moves(base: &str, token: &str, id: i64) -> Vec<String> {
    let http = client();
    let (_, view) = send(&http, base, &format!("/v1/games/{id}"), token, None).await;
    let (_, moves) = send(&http, base, &format!("/v1/games/{id}/moves"), token, None).await;
    let moves = moves["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, view["ply"].as_u64().unwrap());
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["ply"], i as u64);
        assert_eq!(m["seat"], (i % 2 + 1) as u64);
    }
    let record = http
        .get(format!("{base}/v1/games/{id}/record"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let record = GameRecord::parse(&record).unwrap();
    assert_eq!(
        record.replay().unwrap().position_text(),
        view["position"].as_str().unwrap()
    );
    record.moves
}

async fn fifty_clients_race_on_one_game(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.db_pool_size = 8).await;
    let tokens = [
        play::player(&app.pool, "anna"),
        play::player(&app.pool, "bert"),
    ];
    let id = start_game(&app.http, &app.base, &tokens, ["anna", "bert"]).await;
    let counts = race(std::slice::from_ref(&app.base), &tokens, id).await;
    eprintln!("{backend:?}: statuses {counts:?}");
    assert!(
        counts.get(&409).copied().unwrap_or(0) > 0,
        "the clients did race: {counts:?}"
    );
    let moves = check_moves(&app.base, &tokens[0], id).await;
    assert!(moves.len() as u64 >= RACE_PLIES);
    // Exactly one "your turn" mail per turn change, however many clients raced.
    app.game_mail_composed().await;
    let mails = turnpost_server::db::outbox::all(&mut app.conn()).unwrap();
    let turns = mails
        .iter()
        .filter(|m| m.body_text.contains("is your move in"))
        .count();
    assert_eq!(turns, moves.len() + 1);
}

#[actix_web::test]
async fn two_server_processes_race_on_one_postgres() {
    let db = TestDb::create(Backend::Postgres);
    let a = ServerProcess::start(&db, &[]);
    let pool = db.pool();
    let tokens = [play::player(&pool, "anna"), play::player(&pool, "bert")];
    let b = ServerProcess::start(&db, &[]);
    let id = start_game(&client(), &a.base, &tokens, ["anna", "bert"]).await;
    let counts = race(&[a.base.clone(), b.base.clone()], &tokens, id).await;
    eprintln!("two processes: statuses {counts:?}");
    assert!(
        counts.get(&409).copied().unwrap_or(0) > 0,
        "the clients did race: {counts:?}"
    );
    let via_a = check_moves(&a.base, &tokens[0], id).await;
    let via_b = check_moves(&b.base, &tokens[1], id).await;
    assert_eq!(via_a, via_b);
    assert!(via_a.len() as u64 >= RACE_PLIES);
}

/// The pool hands a connection returned healthy less than half a second ago out again without
/// pinging it; older ones are pinged. A connection the database dropped is replaced either way:
/// by the ping once the window has passed, or after its first failed query marks it broken.
#[test]
fn a_connection_the_database_dropped_is_replaced() {
    use diesel::{Connection, RunQueryDsl};
    use turnpost_server::db;

    #[derive(diesel::QueryableByName)]
    struct Pid {
        #[diesel(sql_type = diesel::sql_types::Integer)]
        pid: i32,
    }
    fn pid_of(conn: &mut db::DbConnection) -> Result<i32, diesel::result::Error> {
        diesel::sql_query("SELECT pg_backend_pid() AS pid")
            .get_result::<Pid>(conn)
            .map(|row| row.pid)
    }
    let test_db = TestDb::create(Backend::Postgres);
    let target = test_db.config().database_target().unwrap();
    let pool = db::connect(&target, 1).unwrap();
    let mut admin = db::DbConnection::establish(&test_db.url).unwrap();
    let terminate = |admin: &mut db::DbConnection, pid: i32| {
        diesel::sql_query(format!("SELECT pg_terminate_backend({pid})"))
            .execute(admin)
            .unwrap();
    };

    // Past the window: the checkout pings, finds the connection dead and opens another.
    let first = pid_of(&mut pool.get().unwrap()).unwrap();
    terminate(&mut admin, first);
    std::thread::sleep(Duration::from_millis(700));
    let second = pid_of(&mut pool.get().unwrap()).expect("a fresh connection at checkout");
    assert_ne!(first, second);

    // Inside the window the first query may meet the dead connection; it fails (a storage
    // error for the request) and the broken connection never comes back.
    terminate(&mut admin, second);
    let outcomes: Vec<Result<i32, diesel::result::Error>> =
        (0..2).map(|_| pid_of(&mut pool.get().unwrap())).collect();
    let served: Vec<i32> = outcomes
        .iter()
        .filter_map(|o| o.as_ref().ok())
        .copied()
        .collect();
    assert!(!served.is_empty(), "{outcomes:?}");
    assert!(served.iter().all(|pid| *pid != second), "{outcomes:?}");
    assert!(outcomes.last().is_some_and(Result::is_ok), "{outcomes:?}");
}

async fn sigkill_loses_no_acknowledged_move(backend: Backend) {
    let db = TestDb::create(backend);
    let mut server = ServerProcess::start(&db, &[]);
    let pool = db.pool();
    let tokens = [play::player(&pool, "anna"), play::player(&pool, "bert")];
    drop(pool);
    let http = client();
    let id = start_game(&http, &server.base, &tokens, ["anna", "bert"]).await;
    let mut acknowledged: Vec<String> = Vec::new();
    for round in 0..3 {
        for _ in 0..3 {
            let ply = acknowledged.len() as u64;
            let token = &tokens[(ply % 2) as usize];
            let (status, view) =
                send(&http, &server.base, &format!("/v1/games/{id}"), token, None).await;
            assert_eq!(status, 200);
            let legal = view["legal_moves"].as_array().unwrap();
            let mv = legal[(round + ply as usize) % legal.len()]
                .as_str()
                .unwrap();
            let (status, after) = send(
                &http,
                &server.base,
                &format!("/v1/games/{id}/moves"),
                token,
                Some(json!({"move": mv, "ply": ply})),
            )
            .await;
            assert_eq!(status, 201, "{after}");
            let last = after["last_moves"]
                .as_array()
                .unwrap()
                .last()
                .unwrap()
                .clone();
            assert_eq!(last["ply"], ply);
            acknowledged.push(last["move"].as_str().unwrap().to_owned());
        }
        // Killed right after the acknowledgement, before any other request.
        server.kill();
        server = ServerProcess::start(&db, &[]);
        let stored = check_moves(&server.base, &tokens[0], id).await;
        assert_eq!(stored, acknowledged, "after SIGKILL {round}");
    }
}
