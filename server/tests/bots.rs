//! Built-in bots as players, on both backends: a whole Kefren game between a person (over the
//! API) and `bot-1`, bots accepting at once, a challenge to bots only refused, bot accounts
//! that cannot sign in or receive mail, and draw offers answered.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::time::{Duration, Instant};

use common::{get, post, Backend, TestApp};
use serde_json::{json, Value};

both_backends!(
    human_against_bot_1_finishes_kefren,
    bots_only_challenge_is_refused,
    bots_cannot_sign_in_or_receive_mail,
    bot_in_a_three_seat_challenge_accepts_at_once,
    bot_declines_a_draw_when_not_losing,
    a_bot_move_is_claimed_once,
    two_server_processes_claim_each_bot_move_once,
);

/// Waits until the game is the person's turn again (or over); the bot plays within seconds.
async fn wait_for_my_turn(app: &TestApp, id: i64, token: &str) -> Value {
    let started = Instant::now();
    loop {
        let view = get(app, &format!("/v1/games/{id}"), token).await.body;
        if view["status"] != "active" || view["your_turn"] == true {
            return view;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot did not move within 30 s: {view}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn no_mail_to_bots(app: &TestApp) {
    app.game_mail_composed().await;
    let mails = turnpost_server::db::outbox::all(&mut app.conn()).unwrap();
    assert!(!mails.is_empty(), "the person got no mail at all");
    let to_bots: Vec<_> = mails
        .iter()
        .filter(|m| m.recipient.ends_with(".invalid"))
        .map(|m| m.recipient.clone())
        .collect();
    assert!(to_bots.is_empty(), "mail queued for bots: {to_bots:?}");
}

async fn human_against_bot_1_finishes_kefren(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bot-1"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "active", "{answer:?}");
    assert_eq!(answer.body["seats"][1]["player"], "bot-1");
    assert_eq!(answer.body["seats"][1]["accepted"], true);
    let id = answer.body["id"].as_i64().unwrap();

    let mut view = answer.body;
    let mut mine = 0;
    while view["status"] == "active" {
        assert!(mine < 500, "game {id} did not end: {view}");
        if view["your_turn"] != true {
            view = wait_for_my_turn(&app, id, &anna).await;
            continue;
        }
        let first = view["legal_moves"][0].as_str().unwrap().to_owned();
        let ply = view["ply"].as_u64().unwrap();
        let played = post(
            &app,
            &format!("/v1/games/{id}/moves"),
            &anna,
            json!({"move": first, "ply": ply}),
        )
        .await;
        assert_eq!(played.status, 201, "{played:?}");
        mine += 1;
        view = played.body;
    }
    assert_eq!(view["status"], "finished", "{view}");
    assert!(view["result"].is_string(), "{view}");
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
        .await
        .body;
    let list = moves["moves"].as_array().unwrap();
    assert!(list.iter().any(|m| m["seat"] == 2), "the bot never moved");
    assert_eq!(list.len() as u64, view["ply"].as_u64().unwrap());
    no_mail_to_bots(&app).await;
}

async fn bots_only_challenge_is_refused(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["bot-1", "bot-2"]}),
    )
    .await;
    assert_eq!(answer.status, 422, "{answer:?}");
    assert_eq!(answer.error_code(), "bots_only");
    let message = answer.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("bot-1, bot-2"), "{message}");
    // A person with a bot is fine, the plain `bot` (level 3) included.
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["bot", "anna"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "active");
}

async fn bots_cannot_sign_in_or_receive_mail(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    for name in ["bot-1", "bot-2", "bot-3", "bot-4", "bot-5", "bot"] {
        let email = format!("{name}@bots.turnpost.invalid");
        let asked = app.post("/v1/sessions", &json!({"email": email})).await;
        assert!(
            asked.status == 202 || asked.status == 422,
            "{name}: {asked:?}"
        );
        let verify = app
            .post(
                "/v1/sessions/verify",
                &json!({"email": email, "code": "ABCD-EFGH", "label": "x"}),
            )
            .await;
        assert!(
            verify.status == 401 || verify.status == 422,
            "{name}: {verify:?}"
        );
        let taken = app
            .post(
                "/v1/accounts",
                &json!({"name": name, "email": "someone@example.org"}),
            )
            .await;
        assert!(
            taken.status == 409 || taken.status == 422,
            "{name}: {taken:?}"
        );
        let mut conn = app.conn();
        let token = turnpost_server::accounts::issue_token_for_name(&mut conn, name, "x");
        assert!(token.is_err(), "{name} got a token");
    }
    let codes: i64 = {
        use diesel::prelude::*;
        use turnpost_server::db::schema::sign_in_codes;
        sign_in_codes::table
            .count()
            .get_result(&mut *app.conn())
            .unwrap()
    };
    assert_eq!(codes, 0, "a sign-in code was issued to a bot");
    app.game_mail_composed().await;
    let mails = turnpost_server::db::outbox::all(&mut app.conn()).unwrap();
    assert!(
        mails.iter().all(|m| !m.recipient.ends_with(".invalid")),
        "{mails:?}"
    );
}

async fn bot_in_a_three_seat_challenge_accepts_at_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "chinese-checkers", "seats": ["anna", "bot-1", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "invited");
    assert_eq!(answer.body["seats"][1]["accepted"], true);
    assert_eq!(answer.body["seats"][2]["accepted"], false);
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert_eq!(accepted.body["status"], "active");
    // Anna moves first; then the bot (seat 2) moves by itself and it is Bert's turn.
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    let first = view["legal_moves"][0].as_str().unwrap().to_owned();
    let played = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first, "ply": 0}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    let view = wait_for_my_turn(&app, id, &bert).await;
    assert_eq!(view["to_move"], 3, "{view}");
    assert_eq!(view["ply"], 2, "{view}");
    no_mail_to_bots(&app).await;
}

async fn bot_declines_a_draw_when_not_losing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bot-2"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let offered = post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &anna,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(offered.status, 200, "{offered:?}");
    assert_eq!(offered.body["draw_offered_by"], 1);
    let started = Instant::now();
    loop {
        let view = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
        if view["draw_offered_by"].is_null() {
            // Declined at the start position: the game goes on, still Anna's turn.
            assert_eq!(view["status"], "active", "{view}");
            assert_eq!(view["ply"], 0, "{view}");
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the bot did not answer the draw offer: {view}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn a_bot_move_is_claimed_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    play::player(&app.pool, "bert");
    // Two people: the worker has nothing to claim in this game.
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let mut conn = app.conn();
    let now = turnpost_server::db::now();
    assert!(turnpost_server::bots::try_claim(&mut conn, id, 4, now).unwrap());
    assert!(!turnpost_server::bots::try_claim(&mut conn, id, 4, now).unwrap());
    assert!(turnpost_server::bots::try_claim(&mut conn, id, 5, now).unwrap());
    // A claim older than the expiry is taken over.
    let later = now + turnpost_server::bots::CLAIM_EXPIRY + chrono::Duration::seconds(1);
    assert!(turnpost_server::bots::try_claim(&mut conn, id, 4, later).unwrap());
    assert!(!turnpost_server::bots::try_claim(&mut conn, id, 4, later).unwrap());
}

async fn two_server_processes_claim_each_bot_move_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    // A second server process on the same database, with its own bot worker.
    let second = turnpost_server::Application::build(app.config.clone())
        .await
        .unwrap();
    let second_handle = second.handle();
    let second_task = actix_web::rt::spawn(second.run_until_stopped());
    let anna = play::player(&app.pool, "anna");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["bot-1", "anna"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let mut view = wait_for_my_turn(&app, id, &anna).await;
    let mut mine = 0;
    while view["status"] == "active" {
        assert!(mine < 500, "game {id} did not end: {view}");
        let first = view["legal_moves"][0].as_str().unwrap().to_owned();
        let ply = view["ply"].as_u64().unwrap();
        let played = post(
            &app,
            &format!("/v1/games/{id}/moves"),
            &anna,
            json!({"move": first, "ply": ply}),
        )
        .await;
        assert_eq!(played.status, 201, "{played:?}");
        mine += 1;
        view = wait_for_my_turn(&app, id, &anna).await;
    }
    assert_eq!(view["status"], "finished", "{view}");
    second_handle.stop(true).await;
    second_task.await.unwrap().unwrap();
    // Each bot move went through exactly one claim at its ply (claims stay until they expire).
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
        .await
        .body;
    let mut bot_plies: Vec<i32> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"] == 1 && m["automatic"] != true)
        .map(|m| i32::try_from(m["ply"].as_i64().unwrap()).unwrap())
        .collect();
    bot_plies.sort_unstable();
    let claimed: Vec<i32> = {
        use diesel::prelude::*;
        use turnpost_server::db::schema::bot_claims;
        bot_claims::table
            .filter(bot_claims::game_id.eq(id))
            .select(bot_claims::ply)
            .order(bot_claims::ply)
            .load(&mut *app.conn())
            .unwrap()
    };
    assert!(!bot_plies.is_empty());
    assert_eq!(claimed, bot_plies);
}
