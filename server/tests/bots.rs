//! Built-in bots as players, on both backends: a whole Kefren game between a person (over the
//! API) and `bot-1`, bots accepting at once, a challenge to bots only refused, bot accounts
//! that cannot sign in or receive mail, draw offers answered, the cap on bot games per account,
//! and bot moves shared fairly between accounts and levels.
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
    bot_games_are_capped_per_account,
    many_deep_bot_games_of_one_account_do_not_hold_up_others,
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
    // A dozen moves each, then anna resigns: the claims checked below stay only
    // `CLAIM_EXPIRY` (60 s), and a whole game against a bot on a busy machine lasts longer.
    while view["status"] == "active" {
        if mine == 12 {
            let resigned = post(&app, &format!("/v1/games/{id}/resign"), &anna, json!({})).await;
            assert_eq!(resigned.status, 200, "{resigned:?}");
            view = resigned.body;
            break;
        }
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
    // A dozen moves each, then anna resigns: the claims checked below stay only
    // `CLAIM_EXPIRY` (60 s), and a whole game against a bot on a busy machine lasts longer.
    while view["status"] == "active" {
        if mine == 12 {
            let resigned = post(&app, &format!("/v1/games/{id}/resign"), &anna, json!({})).await;
            assert_eq!(resigned.status, 200, "{resigned:?}");
            view = resigned.body;
            break;
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

/// Challenges `seats` to Kefren as `token`; the answer.
async fn kefren(app: &TestApp, token: &str, seats: &[&str]) -> common::Answer {
    post(
        app,
        "/v1/games",
        token,
        json!({"kind": "kefren", "seats": seats}),
    )
    .await
}

async fn bot_games_are_capped_per_account(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| config.bot_games_per_account = 2).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let first = kefren(&app, &anna, &["anna", "bot-1"]).await;
    assert_eq!(first.status, 201, "{first:?}");
    let first = first.body["id"].as_i64().unwrap();
    // A challenge with a bot that waits for a person counts too, for everyone seated in it.
    let waiting = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "chinese-checkers", "seats": ["anna", "bot-2", "bert"]}),
    )
    .await;
    assert_eq!(waiting.status, 201, "{waiting:?}");
    assert_eq!(waiting.body["status"], "invited");
    let refused = kefren(&app, &anna, &["anna", "bot-3"]).await;
    assert_eq!(refused.status, 409, "{refused:?}");
    assert_eq!(refused.error_code(), "bot_games_limit");
    let message = refused.body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("allows 2 games against bots at once"),
        "{message}"
    );
    // Games between people are not capped.
    let people = kefren(&app, &anna, &["anna", "bert"]).await;
    assert_eq!(people.status, 201, "{people:?}");
    let berts = kefren(&app, &bert, &["bot-1", "bert"]).await;
    assert_eq!(berts.status, 201, "{berts:?}");
    let refused = kefren(&app, &bert, &["bot-5", "bert"]).await;
    assert_eq!(refused.error_code(), "bot_games_limit", "{refused:?}");
    // Joining an open challenge with a bot in it is making a bot game too (issue 48).
    let dora = play::player(&app.pool, "dora");
    let posted = post(
        &app,
        "/v1/games",
        &dora,
        json!({"kind": "chinese-checkers", "seats": ["dora", "open", "bot-4"]}),
    )
    .await;
    assert_eq!(posted.status, 201, "{posted:?}");
    let open = posted.body["id"].as_i64().unwrap();
    let joined = post(
        &app,
        &format!("/v1/challenges/{open}/join"),
        &bert,
        json!({}),
    )
    .await;
    assert_eq!(joined.status, 409, "{joined:?}");
    assert_eq!(joined.error_code(), "bot_games_limit", "{joined:?}");
    let eve = play::player(&app.pool, "eve");
    let joined = post(
        &app,
        &format!("/v1/challenges/{open}/join"),
        &eve,
        json!({}),
    )
    .await;
    assert_eq!(joined.status, 200, "{joined:?}");
    // Once a bot game is over, another may start.
    let resigned = post(&app, &format!("/v1/games/{first}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let again = kefren(&app, &anna, &["anna", "bot-3"]).await;
    assert_eq!(again.status, 201, "{again:?}");
    // Two challenges at once of an account one game below the cap: one game is made.
    let carl = play::player(&app.pool, "carl");
    let one = kefren(&app, &carl, &["carl", "bot-1"]).await;
    assert_eq!(one.status, 201, "{one:?}");
    let (a, b) = tokio::join!(
        kefren(&app, &carl, &["carl", "bot-2"]),
        kefren(&app, &carl, &["bot-2", "carl"])
    );
    let mut statuses = [a.status, b.status];
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 409], "{a:?} {b:?}");
}

/// When each game's bot has moved, as seen from outside: polls the games until `done` says
/// enough have moved.
async fn watch_first_bot_moves(
    app: &TestApp,
    games: &[(i64, &str, Instant)],
    done: impl Fn(&[Option<Instant>]) -> bool,
) -> Vec<Option<Instant>> {
    let mut moved = vec![None; games.len()];
    let started = Instant::now();
    while !done(&moved) {
        assert!(
            // Generous: the bots think at the lowest priority, which a loaded machine starves.
            started.elapsed() < Duration::from_secs(600),
            "the bots did not move within 600 s: {moved:?}"
        );
        for (i, (id, token, _)) in games.iter().enumerate() {
            if moved[i].is_none() {
                let view = get(app, &format!("/v1/games/{id}"), token).await.body;
                if view["ply"].as_u64().unwrap_or(0) > 0 {
                    moved[i] = Some(Instant::now());
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    moved
}

/// Anna has as many level-5 games as the cap allows, each waiting for the bot's first move;
/// then Bert starts a game against bot-1 and Carl one against bot-3. Bert's bot-1 waits less
/// than one bot-5 think time (measured here: the fastest of Anna's first moves, the first of
/// which was thought about at once), and Carl's bot-3, though deep too, less than two: neither
/// waits behind Anna's queue.
async fn many_deep_bot_games_of_one_account_do_not_hold_up_others(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let carl = play::player(&app.pool, "carl");
    let mut games: Vec<(i64, &str, Instant)> = Vec::new();
    for _ in 0..app.config.bot_games_per_account {
        let made = Instant::now();
        let answer = kefren(&app, &anna, &["bot-5", "anna"]).await;
        assert_eq!(answer.status, 201, "{answer:?}");
        games.push((answer.body["id"].as_i64().unwrap(), anna.as_str(), made));
    }
    let annas = games.len();
    for (token, bot, name) in [(&bert, "bot-1", "bert"), (&carl, "bot-3", "carl")] {
        let made = Instant::now();
        let answer = kefren(&app, token, &[bot, name]).await;
        assert_eq!(answer.status, 201, "{answer:?}");
        games.push((answer.body["id"].as_i64().unwrap(), token.as_str(), made));
    }
    let moved = watch_first_bot_moves(&app, &games, |moved| {
        moved[annas..].iter().all(Option::is_some) && moved[..annas].iter().any(Option::is_some)
    })
    .await;
    let waited = |i: usize| moved[i].map(|at| at.duration_since(games[i].2));
    let think_5 = (0..annas).filter_map(waited).min().unwrap();
    let bert_waited = waited(annas).unwrap();
    let carl_waited = waited(annas + 1).unwrap();
    let annas_before_carl = moved[..annas]
        .iter()
        .filter(|at| at.is_some_and(|at| Some(at) < moved[annas + 1]))
        .count();
    eprintln!(
        "bot-5 think time (fastest first move of {annas}): {think_5:?}; bot-1 of another \
         account waited {bert_waited:?}; bot-3 of a third waited {carl_waited:?}, after \
         {annas_before_carl} of the bot-5 moves"
    );
    assert!(
        bert_waited < think_5,
        "bot-1 waited {bert_waited:?}, more than a bot-5 think time ({think_5:?})"
    );
    assert!(
        carl_waited < think_5 * 2,
        "bot-3 waited {carl_waited:?}, more than two bot-5 think times ({think_5:?} each)"
    );
}
