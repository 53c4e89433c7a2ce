//! Games that repeat end (issue 48, point 4), over HTTP on both backends: the shuttle of the
//! attacker's trial ends drawn by repetition on the move that makes the third standing, with
//! the usual game-over mail; the move list comes in pages.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use common::{get, post, Backend, TestApp};
use serde_json::{json, Value};

both_backends!(shuttle_ends_drawn_by_repetition, moves_come_in_pages);

/// The shuttle of issue 48: each side steps a stone forward and back.
const SHUTTLE: [&str; 4] = ["A2-A3", "A18-A17", "A3-A2", "A17-A18"];

/// A Kefren game between anna and bert, started; its id and the two tokens.
async fn kefren(app: &TestApp) -> (i64, String, String) {
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = post(
        app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    (id, anna, bert)
}

/// Plays `moves` from ply `from`, the seats taking turns (anna first); answers the last view.
async fn shuttle(app: &TestApp, id: i64, tokens: [&str; 2], from: usize, moves: &[&str]) -> Value {
    let mut last = Value::Null;
    for (i, mv) in moves.iter().enumerate() {
        let ply = from + i;
        let moved = post(
            app,
            &format!("/v1/games/{id}/moves"),
            tokens[ply % 2],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(moved.status, 201, "ply {ply} {mv}: {moved:?}");
        last = moved.body;
    }
    last
}

async fn shuttle_ends_drawn_by_repetition(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (id, anna, bert) = kefren(&app).await;
    let tokens = [anna.as_str(), bert.as_str()];
    // Seven moves: the start has stood twice, every other position at most twice.
    let seven: Vec<&str> = SHUTTLE.iter().chain(&SHUTTLE[..3]).copied().collect();
    let view = shuttle(&app, id, tokens, 0, &seven).await;
    assert_eq!(view["status"], "active", "{view}");
    assert_eq!(view["to_move"], 2);
    // The eighth brings the start back a third time: drawn, in the move's own answer.
    let view = shuttle(&app, id, tokens, 7, &SHUTTLE[3..]).await;
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["result"], "draw");
    assert_eq!(view["result_reason"], "repetition");
    assert_eq!(view["ply"], 8);
    assert!(view["to_move"].is_null());
    // The game's JSON says so to anyone asking, and no move is taken any more.
    let shown = get(&app, &format!("/v1/games/{id}"), &anna).await;
    assert_eq!(shown.body["status"], "finished");
    assert_eq!(shown.body["result"], "draw");
    assert_eq!(shown.body["result_reason"], "repetition");
    let refused = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": "A2-A3", "ply": 8}),
    )
    .await;
    assert_eq!(refused.status, 409, "{refused:?}");
    // The record's Termination header, and the usual game-over mail to both, with the words.
    let record = app
        .http
        .get(format!("{}/v1/games/{id}/record", app.base))
        .bearer_auth(&anna)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(record.contains("[Termination \"repetition\"]"), "{record}");
    assert!(
        record.contains("[Outcome \"draw by repetition\"]"),
        "{record}"
    );
    app.game_mail_composed().await;
    let mails = turnpost_server::db::outbox::all(&mut app.conn()).unwrap();
    for name in ["anna", "bert"] {
        let over: Vec<_> = mails
            .iter()
            .filter(|m| {
                m.recipient == format!("{name}@example.org") && m.body_text.contains("is over")
            })
            .collect();
        assert_eq!(over.len(), 1, "{name}: {over:?}");
        assert!(
            over[0].body_text.contains("by repetition"),
            "{}",
            over[0].body_text
        );
    }
}

async fn moves_come_in_pages(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (id, anna, bert) = kefren(&app).await;
    let seven: Vec<&str> = SHUTTLE.iter().chain(&SHUTTLE[..3]).copied().collect();
    shuttle(&app, id, [&anna, &bert], 0, &seven).await;
    let plies = |page: &Value| -> Vec<u64> {
        page["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["ply"].as_u64().unwrap())
            .collect()
    };
    let path = format!("/v1/games/{id}/moves");
    // By default every move, nothing left out.
    let all = get(&app, &path, &anna).await;
    assert_eq!(all.status, 200, "{all:?}");
    assert_eq!(plies(&all.body), [0, 1, 2, 3, 4, 5, 6]);
    assert!(all.body.get("earlier").is_none() && all.body.get("later").is_none());
    // The last three, then the three before them, then forward again.
    let last = get(&app, &format!("{path}?limit=3"), &anna).await.body;
    assert_eq!(plies(&last), [4, 5, 6]);
    assert_eq!(last["earlier"], 4);
    assert!(last.get("later").is_none());
    let before = get(&app, &format!("{path}?limit=3&before=4"), &anna)
        .await
        .body;
    assert_eq!(plies(&before), [1, 2, 3]);
    assert_eq!(
        (&before["earlier"], &before["later"]),
        (&json!(1), &json!(3))
    );
    let after = get(&app, &format!("{path}?limit=2&after=3"), &bert)
        .await
        .body;
    assert_eq!(plies(&after), [4, 5]);
    assert_eq!((&after["earlier"], &after["later"]), (&json!(4), &json!(5)));
    // Bad pages are refused, saying what was expected.
    for bad in ["limit=0", "limit=2001", "before=2&after=1", "limit=x"] {
        let answer = get(&app, &format!("{path}?{bad}"), &anna).await;
        assert_eq!(answer.status, 400, "{bad}: {answer:?}");
    }
    let answer = get(&app, &format!("{path}?limit=0"), &anna).await;
    assert!(
        answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("expected 1 to 2000"),
        "{answer:?}"
    );
    // The page lists the moves too (a short game: all of them, no link to others).
    let page = app
        .http
        .get(format!("{}/games/{id}", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains("A17-A18") || page.contains("A18-A17"),
        "{page}"
    );
    assert!(!page.contains("Earlier moves"));
}
