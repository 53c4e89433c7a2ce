//! Big tournaments (issue 48 point 3), on both backends: a round-robin's games are made from
//! stored pairings `BATCH_GAMES` at a time, one transaction each, so other writers go on while
//! a big field starts; the view (API, page, CLI's source) of a tournament of more than
//! `LISTED_GAMES` games lists one round's games, each round giving its counts; an ended game's
//! placings are stored once, so the standings never replay finished games.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::cell::Cell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::time::{Duration, Instant};

use common::{get, post, Backend, TestApp};
use diesel::prelude::*;
use serde_json::{json, Value};
use turnpost_server::db;
use turnpost_server::tournaments::{self, Step, BATCH_GAMES, LISTED_GAMES};

both_backends!(
    a_big_round_robin_is_made_in_batches_and_listed_a_round_at_a_time,
    other_writers_go_on_while_a_big_round_robin_starts,
);

fn closes() -> String {
    db::rfc3339(db::now() + chrono::Duration::hours(1))
}

/// An all-at-once round-robin entered by every one of `field`; answers its id.
async fn entered_round_robin(app: &TestApp, field: &[(String, String)]) -> i64 {
    let created = post(
        app,
        "/v1/tournaments",
        &field[0].1,
        json!({"name": "Big", "kind": "kefren", "format": "round_robin", "all_at_once": true,
               "entry_closes_at": closes()}),
    )
    .await;
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    for (name, token) in field {
        let joined = post(app, &format!("/v1/tournaments/{id}/join"), token, json!({})).await;
        assert_eq!(joined.status, 200, "{name}: {joined:?}");
    }
    id
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = diesel::sql_types::BigInt)]
    n: i64,
}

fn count(app: &TestApp, sql: &str) -> i64 {
    diesel::sql_query(sql)
        .get_result::<Count>(&mut *app.conn())
        .unwrap()
        .n
}

fn made(app: &TestApp, id: i64) -> i64 {
    count(
        app,
        &format!("SELECT COUNT(*) AS n FROM tournament_games WHERE tournament_id = {id}"),
    )
}

fn waiting(app: &TestApp, id: i64) -> i64 {
    count(
        app,
        &format!("SELECT COUNT(*) AS n FROM tournament_pairings WHERE tournament_id = {id}"),
    )
}

fn listed(view: &Value) -> Vec<u64> {
    view["round_games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["listed"] == true)
        .map(|r| r["round"].as_u64().unwrap())
        .collect()
}

async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let answer = reqwest::get(format!("{}{path}", app.base)).await.unwrap();
    (answer.status().as_u16(), answer.text().await.unwrap())
}

/// 16 entrants, every round at once: 120 games over 15 rounds, made 20 a transaction.
async fn a_big_round_robin_is_made_in_batches_and_listed_a_round_at_a_time(backend: Backend) {
    // No sweeper: the test takes each step itself.
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let field = play::numbered_players(&app.pool, "p", 16);
    let id = entered_round_robin(&app, &field).await;
    let ctx = app.mail_context();
    let later = db::now() + chrono::Duration::hours(2);

    let step = tournaments::advance(&mut app.conn(), &ctx, id, later).unwrap();
    assert_eq!(step, Step::Started);
    let batch = BATCH_GAMES;
    assert_eq!(made(&app, id), batch, "the start makes one batch of games");
    assert_eq!(waiting(&app, id), 120 - batch, "the rest wait as pairings");

    // While games are still being made, the view counts them all and lists what exists.
    let token = &field[0].1;
    let view = get(&app, &format!("/v1/tournaments/{id}?round=3"), token).await;
    assert_eq!(view.status, 200, "{view:?}");
    let round3 = &view.body["round_games"][2];
    assert_eq!(round3["game_count"], 8, "{round3}");
    assert_eq!(
        round3["games"].as_array().unwrap().len(),
        4,
        "rounds 1 and 2 (16 games) and 4 of round 3 made: {round3}"
    );
    let (status, html) = page(&app, &format!("/tournaments/{id}?round=3")).await;
    assert_eq!(status, 200);
    assert!(
        html.contains("4 more games are being made"),
        "the page says games are still coming"
    );

    let mut steps = 0;
    loop {
        match tournaments::advance(&mut app.conn(), &ctx, id, later).unwrap() {
            Step::Made { games, more } => {
                assert!(games <= usize::try_from(batch).unwrap());
                steps += 1;
                if !more {
                    break;
                }
            }
            other => panic!("expected a batch, got {other:?}"),
        }
    }
    assert_eq!(steps, 5, "100 waiting games in batches of 20");
    assert_eq!(made(&app, id), 120);
    assert_eq!(waiting(&app, id), 0);
    assert_eq!(
        tournaments::advance(&mut app.conn(), &ctx, id, later).unwrap(),
        Step::Waiting,
        "nothing more to do while the games run"
    );

    // Every pair met once, in one game each.
    let view = get(&app, &format!("/v1/tournaments/{id}"), token).await;
    const {
        assert!(
            120 > LISTED_GAMES,
            "the test's field lists one round a view"
        )
    };
    assert_eq!(view.body["current_round"], 15);
    assert_eq!(listed(&view.body), vec![1], "the first round still playing");
    let mut pairs = BTreeSet::new();
    for r in 1..=15 {
        let round = get(&app, &format!("/v1/tournaments/{id}?round={r}"), token).await;
        assert_eq!(listed(&round.body), vec![r]);
        let games = round.body["round_games"][usize::try_from(r - 1).unwrap()]["games"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(games.len(), 8, "round {r}");
        for game in games {
            let mut players: Vec<String> = game["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p.as_str().unwrap().to_owned())
                .collect();
            players.sort();
            assert!(pairs.insert(players.clone()), "{players:?} met twice");
        }
        // Only the listed round's games are in the answer.
        let all: usize = round.body["round_games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_array().unwrap().len())
            .sum();
        assert_eq!(all, 8);
    }
    assert_eq!(pairs.len(), 120);

    // No round number: 400 naming what is taken; a round not paired: 404 saying which are.
    for (query, status, says) in [
        ("round=0", 400, "expected a round number (1 or more)"),
        ("round=two", 400, "expected a round number"),
        ("round=16", 404, "has no round 16: rounds 1 to 15 paired"),
    ] {
        let refused = get(&app, &format!("/v1/tournaments/{id}?{query}"), token).await;
        assert_eq!(refused.status, status, "{query}: {refused:?}");
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{query}: {message}");
    }
    assert_eq!(
        page(&app, &format!("/tournaments/{id}?round=99")).await.0,
        404
    );
    assert_eq!(
        page(&app, &format!("/tournaments/{id}?round=x")).await.0,
        400
    );

    // The page lists round 1 and links every other round.
    let (status, html) = page(&app, &format!("/tournaments/{id}")).await;
    assert_eq!(status, 200);
    assert!(html.contains("<h2>Round 1</h2>"), "round 1 listed");
    assert!(!html.contains("<h2>Round 2</h2>"), "round 2 not listed");
    for r in 2..=15 {
        assert!(
            html.contains(&format!("href=\"/tournaments/{id}?round={r}\"")),
            "a link to round {r}"
        );
    }

    // An ended game's placings are stored by the sweep's step, once.
    let first = view.body["round_games"][0]["games"][0].clone();
    let game = first["id"].as_i64().unwrap();
    let loser = first["players"][0].as_str().unwrap();
    let loser_token = &field.iter().find(|(n, _)| n == loser).unwrap().1;
    let resigned = post(
        &app,
        &format!("/v1/games/{game}/resign"),
        loser_token,
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let stored = || {
        count(
            &app,
            &format!(
                "SELECT COUNT(*) AS n FROM tournament_games WHERE game_id = {game} \
                 AND placings = '2,1'"
            ),
        )
    };
    assert_eq!(stored(), 0, "not stored before the sweep reads it");
    let view = get(&app, &format!("/v1/tournaments/{id}"), token).await;
    assert_eq!(
        view.body["round_games"][0]["ended_count"], 1,
        "worked out on a read too: {}",
        view.body["round_games"][0]
    );
    assert_eq!(
        tournaments::advance(&mut app.conn(), &ctx, id, later).unwrap(),
        Step::Waiting
    );
    assert_eq!(stored(), 1, "stored by the sweep's step");
    let standings = &view.body["standings"];
    let winner = first["players"][1].as_str().unwrap();
    assert_eq!(standings[0]["player"], winner, "{standings}");
    assert_eq!(standings[0]["points"], 1.0);
}

/// 30 entrants, every round at once: 435 games, made by the server's own sweeper after "Start
/// now" while unrelated writes (a player's settings) are answered one after another — none
/// refused with "database is locked" (each answer is checked for 500 by the test client). The
/// writer runs from before the start to past the last game, so some of its writes meet the
/// batches however the machine schedules the test (a check made only after the start's answer
/// once found every game made already).
async fn other_writers_go_on_while_a_big_round_robin_starts(backend: Backend) {
    let app = Rc::new(TestApp::spawn(backend).await);
    let field = play::numbered_players(&app.pool, "q", 30);
    let id = entered_round_robin(&app, &field).await;
    let organiser = field[0].1.clone();
    let writes = Rc::new(Cell::new(0_u32));
    let during = Rc::new(Cell::new(0_u32));
    let all_made = Rc::new(Cell::new(false));
    let writer = actix_web::rt::spawn({
        let (app, writes, during, all_made) = (
            app.clone(),
            writes.clone(),
            during.clone(),
            all_made.clone(),
        );
        let token = field[29].1.clone();
        async move {
            while !all_made.get() || writes.get() < 40 {
                let still_making = waiting(&app, id) > 0;
                let zone = if writes.get() % 2 == 0 {
                    "Europe/Berlin"
                } else {
                    "UTC"
                };
                let answer = common::patch(
                    &app,
                    "/v1/me/notifications",
                    &token,
                    json!({"time_zone": zone}),
                )
                .await;
                assert_eq!(answer.status, 200, "{answer:?}");
                writes.set(writes.get() + 1);
                if still_making {
                    during.set(during.get() + 1);
                }
            }
        }
    });
    let started = post(
        &app,
        &format!("/v1/tournaments/{id}/start"),
        &organiser,
        json!({}),
    )
    .await;
    assert_eq!(started.status, 200, "{started:?}");
    let deadline = Instant::now() + Duration::from_secs(300);
    while made(&app, id) < 435 {
        assert!(
            Instant::now() < deadline,
            "{} of 435 games after 300 s",
            made(&app, id)
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    all_made.set(true);
    writer.await.unwrap();
    assert_eq!(waiting(&app, id), 0);
    assert!(
        during.get() > 0,
        "some of {} writes were answered while the games were being made",
        writes.get()
    );
    let view = get(&app, &format!("/v1/tournaments/{id}"), &organiser).await;
    let rounds = view.body["round_games"].as_array().unwrap();
    assert_eq!(rounds.len(), 29);
    assert!(rounds
        .iter()
        .all(|r| r["game_count"] == 15 && r["ended_count"] == 0));
}
