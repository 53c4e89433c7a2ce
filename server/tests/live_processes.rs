//! Two `turnpost-server` processes on one PostgreSQL database: a move played through process A
//! reaches a stream open on process B within a second (B hears A's commit through PostgreSQL's
//! `LISTEN`/`NOTIFY`, not through its own once-a-second look at the log: the measured latency is
//! checked well under that).
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

use common::{Backend, TestDb};
use process::ServerProcess;
use serde_json::{json, Value};

async fn send(base: &str, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let http = reqwest::Client::new();
    let request = match &body {
        Some(b) => http.post(format!("{base}{path}")).json(b),
        None => http.get(format!("{base}{path}")),
    };
    let answer = request.bearer_auth(token).send().await.unwrap();
    let status = answer.status().as_u16();
    (status, answer.json().await.unwrap_or(Value::Null))
}

/// The next NDJSON event of `stream`, waiting at most `within`.
async fn next_event(
    stream: &mut reqwest::Response,
    buffered: &mut Vec<u8>,
    within: Duration,
) -> Option<Value> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(end) = buffered.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = buffered.drain(..=end).collect();
            let text = std::str::from_utf8(&line).unwrap().trim();
            if !text.is_empty() {
                return Some(serde_json::from_str(text).unwrap());
            }
            continue;
        }
        let chunk = tokio::time::timeout_at(deadline, stream.chunk())
            .await
            .ok()?
            .unwrap()?;
        buffered.extend_from_slice(&chunk);
    }
}

#[actix_web::test]
async fn a_move_through_one_process_reaches_a_stream_on_another() {
    let db = TestDb::create(Backend::Postgres);
    let env = [
        ("TURNPOST_SWEEP_INTERVAL_MS", "0"),
        ("TURNPOST_BOT_POLL_MS", "0"),
    ];
    let a = ServerProcess::start(&db, &env);
    let b = ServerProcess::start(&db, &env);
    let pool = db.pool();
    let anna = play::player(&pool, "anna");
    let bert = play::player(&pool, "bert");
    let (status, game) = send(
        &a.base,
        "/v1/games",
        &anna,
        Some(json!({"kind": "kefren", "options": {}, "seats": ["anna", "bert"]})),
    )
    .await;
    assert_eq!(status, 201, "{game}");
    let id = game["id"].as_i64().unwrap();
    let (status, _) = send(
        &a.base,
        &format!("/v1/games/{id}/accept"),
        &bert,
        Some(json!({})),
    )
    .await;
    assert_eq!(status, 200);
    let mut stream = reqwest::Client::new()
        .get(format!("{}/v1/stream", b.base))
        .header("accept", "application/x-ndjson")
        .bearer_auth(&bert)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), 200);
    let mut buffered = Vec::new();
    let mut latencies = Vec::new();
    for _ in 0..5 {
        let (_, view) = send(&a.base, &format!("/v1/games/{id}"), &anna, None).await;
        let ply = view["ply"].as_u64().unwrap();
        // A different move each time: shuttling one piece would end the game by repetition.
        let pick = usize::try_from(ply * 7).unwrap();
        let Some(notation) = view["legal_moves"]
            .as_array()
            .and_then(|m| m.get(pick % m.len().max(1)))
            .cloned()
        else {
            break;
        };
        let sent = Instant::now();
        let (status, _) = send(
            &a.base,
            &format!("/v1/games/{id}/moves"),
            &anna,
            Some(json!({"move": notation, "ply": ply})),
        )
        .await;
        assert_eq!(status, 201);
        let event = next_event(&mut stream, &mut buffered, Duration::from_secs(3))
            .await
            .expect("process B's stream heard nothing of the move");
        latencies.push(sent.elapsed());
        assert_eq!(event["type"], "move", "{event}");
        assert_eq!(event["last_move"], notation, "{event}");
        // bert answers through B, so the next move is anna's again.
        let (_, mine) = send(&b.base, &format!("/v1/games/{id}"), &bert, None).await;
        let moves = mine["legal_moves"].as_array().cloned().unwrap_or_default();
        let reply = moves[usize::try_from(ply * 5).unwrap() % moves.len()].clone();
        let (status, _) = send(
            &b.base,
            &format!("/v1/games/{id}/moves"),
            &bert,
            Some(json!({"move": reply, "ply": ply + 1})),
        )
        .await;
        assert_eq!(status, 201);
        // bert's own move comes back on his stream too.
        let own = next_event(&mut stream, &mut buffered, Duration::from_secs(3))
            .await
            .expect("bert's own move did not reach his stream");
        assert_eq!(own["last_move"], reply, "{own}");
    }
    assert_eq!(latencies.len(), 5);
    latencies.sort();
    let worst = latencies[latencies.len() - 1];
    println!("move on A → event on B: {latencies:?}");
    assert!(worst < Duration::from_millis(700), "slowest {worst:?}");
    drop(stream);
    a.kill();
    b.kill();
}
