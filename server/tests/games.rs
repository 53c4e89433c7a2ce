//! Games over HTTP on both backends: challenges, full games to the end, every refusal.
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
use reqwest::Method;
use serde_json::{json, Value};
use turnpost_server::db::outbox::OutboxMail;
use turnpost_shared::play::seed_commitment;
use turnpost_shared::{AnyGame, GameKind, GameRecord, Options};

both_backends!(
    kefren_full_game,
    chinese_checkers_three_players_to_the_end,
    challenge_refusals,
    move_refusals_and_retries,
    resign_and_draws,
    listing_and_pagination,
    seeds_and_expiry,
    forced_pass_is_played_by_the_server,
    outsiders_cannot_decline_or_claim,
);

#[test]
fn policy_finishes_games_quickly() {
    for seed in 0..3 {
        let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
        assert!(AnyGame::replay(&start, &play::simulate(&start, seed, 3000))
            .unwrap()
            .status()
            .is_over());
        let start = AnyGame::new(
            GameKind::ChineseCheckers,
            &Options::from_pairs(["players=3"]).unwrap(),
        )
        .unwrap();
        assert!(AnyGame::replay(&start, &play::simulate(&start, seed, 3000))
            .unwrap()
            .status()
            .is_over());
    }
}

/// Creates a challenge and has every other seat accept; returns the game id.
async fn started_game(
    app: &TestApp,
    kind: &str,
    options: Value,
    tokens: &[&str],
    names: &[&str],
) -> i64 {
    let answer = post(
        app,
        "/v1/games",
        tokens[0],
        json!({"kind": kind, "options": options, "seats": names}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "invited");
    let id = answer.body["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let answer = post(app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    id
}

fn engine_of(view: &Value) -> AnyGame {
    let options = Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    // A running Kechi die game shows no seed: the position's roll is all a player needs.
    AnyGame::from_position_text_seed_withheld(&options, view["position"].as_str().unwrap()).unwrap()
}

/// Plays the game to its end through the API; `tokens[i]` holds seat i + 1.
async fn drive(app: &TestApp, id: i64, tokens: &[&str], seed: u64, cap: u32) -> Value {
    let mut view = get(app, &format!("/v1/games/{id}"), tokens[0]).await.body;
    let mut policy = play::Policy::new(&engine_of(&view), seed);
    while view["status"] == "active" {
        let ply = view["ply"].as_u64().unwrap();
        assert!(ply < u64::from(cap), "game {id} did not end in {cap} plies");
        let seat = view["to_move"].as_u64().unwrap() as usize;
        let engine = engine_of(&view);
        let mv = policy.choose(&engine);
        let answer = post(
            app,
            &format!("/v1/games/{id}/moves"),
            tokens[seat - 1],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        let after = answer.body;
        assert!(after["ply"].as_u64().unwrap() > ply);
        let played = after["last_moves"].as_array().unwrap();
        assert!(played.iter().any(|m| m["ply"] == ply
            && m["seat"] == seat
            && m["move"] == engine.canonical_move(&mv).unwrap()));
        view = after;
    }
    view
}

/// The stored record replays to the cached position, and the move list agrees with it.
async fn check_record(app: &TestApp, id: i64, token: &str, view: &Value) -> GameRecord {
    let resp = app
        .http
        .get(format!("{}/v1/games/{id}/record", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let record = GameRecord::parse(&resp.text().await.unwrap()).unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.position_text(), view["position"].as_str().unwrap());
    assert_eq!(record.moves.len() as u64, view["ply"].as_u64().unwrap());
    if let Some(result) = view["result"].as_str() {
        assert_eq!(record.header("Result"), Some(result));
        // The result for people names the winners by their account names.
        let outcome = record.header("Outcome").unwrap();
        let winners: Vec<&str> = view["seats"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|seat| result.starts_with("won") && result.contains(&seat["seat"].to_string()))
            .map(|seat| seat["player"].as_str().unwrap())
            .collect();
        assert!(
            winners.iter().any(|name| outcome.starts_with(name)) || outcome.starts_with("draw"),
            "{outcome} / {result}"
        );
        if view["result_reason"] == "rules" {
            assert_eq!(replayed.status().to_string(), result);
        }
    }
    let moves = get(app, &format!("/v1/games/{id}/moves"), token).await;
    assert_eq!(moves.status, 200);
    let listed: Vec<String> = moves.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            assert_eq!(m["ply"], i as u64);
            m["move"].as_str().unwrap().to_owned()
        })
        .collect();
    assert_eq!(listed, record.moves);
    record
}

async fn outbox(app: &TestApp) -> Vec<OutboxMail> {
    app.game_mail_composed().await;
    turnpost_server::db::outbox::all(&mut app.conn()).unwrap()
}

/// Mails to `to` whose text says `part` (subjects are the same for every mail of a game).
fn count(mails: &[OutboxMail], to: &str, part: &str) -> usize {
    mails
        .iter()
        .filter(|m| m.recipient == format!("{to}@example.org") && m.body_text.contains(part))
        .count()
}

async fn kefren_full_game(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "Bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    assert_eq!(answer.body["seats"][0]["accepted"], true);
    assert_eq!(answer.body["seats"][1]["accepted"], false);
    assert_eq!(answer.body["seats"][1]["player"], "bert");
    assert!(answer.body["expires_at"].is_string());
    assert_eq!(count(&outbox(&app).await, "bert", "challenges you"), 1);

    let invited = get(&app, "/v1/games?status=invited", &bert).await;
    assert_eq!(invited.body["games"][0]["id"], id);
    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert_eq!(accepted.body["status"], "active");
    assert_eq!(accepted.body["to_move"], 1);
    assert_eq!(accepted.body["your_turn"], false);
    assert!(accepted.body["legal_moves"].is_null());
    let mine = get(&app, "/v1/games?turn=mine", &anna).await;
    assert_eq!(mine.body["games"][0]["id"], id);
    assert_eq!(mine.body["games"][0]["your_turn"], true);
    assert_eq!(
        get(&app, "/v1/games?turn=mine", &bert).await.body["games"],
        json!([])
    );
    let shown = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    assert!(!shown["legal_moves"].as_array().unwrap().is_empty());
    assert!(shown["board"].as_str().unwrap().contains('\n'));

    // Anna moves; Bert's text board marks her move.
    let first = shown["legal_moves"][0].as_str().unwrap().to_owned();
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first, "ply": 0}),
    )
    .await;
    assert_eq!(moved.status, 201, "{moved:?}");
    let seen = get(&app, &format!("/v1/games/{id}"), &bert).await.body;
    assert!(
        seen["board"].as_str().unwrap().contains('['),
        "{}",
        seen["board"]
    );

    let end = drive(&app, id, &[&anna, &bert], 4, 2000).await;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["result_reason"], "rules");
    assert!(end["result"].as_str().unwrap().starts_with("won "), "{end}");
    check_record(&app, id, &anna, &end).await;
    let finished = get(&app, "/v1/games?status=finished", &bert).await;
    assert_eq!(finished.body["games"][0]["id"], id);

    // Exactly one mail per recipient per event: the challenge, the start (anna moves first),
    // one "your turn" per move that did not end the game, and the result to both.
    let mails = outbox(&app).await;
    let plies = end["ply"].as_u64().unwrap() as usize;
    assert_eq!(
        count(&mails, "anna", "is your move in") + count(&mails, "bert", "is your move in"),
        plies
    );
    assert_eq!(
        count(&mails, "anna", "is over") + count(&mails, "bert", "is over"),
        2
    );
    assert_eq!(mails.len(), 1 + plies + 2);

    let svg = app
        .http
        .get(format!("{}/v1/games/{id}/board.svg", app.base))
        .bearer_auth(&bert)
        .send()
        .await
        .unwrap();
    assert_eq!(svg.headers()["content-type"], "image/svg+xml");
    let svg = svg.text().await.unwrap();
    assert!(svg.contains("<svg"));
    // The last move is marked: a ring on a band.
    assert!(
        svg.contains(r#"stroke-width="7""#),
        "no marked move in the picture"
    );
}

async fn chinese_checkers_three_players_to_the_end(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let tokens: Vec<String> = ["cara", "dirk", "emil"]
        .iter()
        .map(|n| play::player(&app.pool, n))
        .collect();
    let t: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let id = started_game(
        &app,
        "chinese-checkers",
        json!({"players": 3}),
        &t,
        &["cara", "dirk", "emil"],
    )
    .await;
    let view = get(&app, &format!("/v1/games/{id}"), t[0]).await.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["options"]["players"], "3");
    assert_eq!(view["seats"].as_array().unwrap().len(), 3);
    let end = drive(&app, id, &t, 1, 3000).await;
    assert_eq!(end["status"], "finished");
    let result = end["result"].as_str().unwrap();
    assert!(
        result.starts_with("won ") && result.split(' ').count() == 2,
        "{result}"
    );
    check_record(&app, id, t[2], &end).await;
    let mails = outbox(&app).await;
    for name in ["cara", "dirk", "emil"] {
        assert_eq!(count(&mails, name, "is over"), 1);
    }
}

async fn challenge_refusals(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let cleo = play::player(&app.pool, "cleo");
    let cases = [
        (
            json!({"kind": "chess", "seats": ["anna", "bert"]}),
            422,
            "unknown_kind",
        ),
        (
            json!({"kind": "kefren", "options": {"colour": "red"}, "seats": ["anna", "bert"]}),
            422,
            "invalid_options",
        ),
        (
            json!({"kind": "sanqi", "options": {"side": 5}, "seats": ["anna", "bert"]}),
            422,
            "invalid_options",
        ),
        (
            json!({"kind": "kefren", "seats": ["anna", "bert", "cleo"]}),
            422,
            "seat_count",
        ),
        (
            json!({"kind": "chinese-checkers", "options": {"players": 2}, "seats": ["anna", "bert", "cleo"]}),
            422,
            "seat_count",
        ),
        (
            json!({"kind": "kefren", "seats": ["anna", "nobody"]}),
            422,
            "unknown_player",
        ),
        (
            json!({"kind": "kefren", "seats": ["bert", "cleo"]}),
            422,
            "creator_not_seated",
        ),
        (
            json!({"kind": "kefren", "seats": ["anna", "ANNA"]}),
            422,
            "duplicate_player",
        ),
        (
            json!({"kind": "kefren", "seats": ["anna", "bert"], "colour": 1}),
            422,
            "invalid_field",
        ),
        (
            json!({"kind": "kefren", "options": {"x": [1]}, "seats": ["anna", "bert"]}),
            422,
            "invalid_field",
        ),
        (
            json!({"kind": "kefren", "seats": ["anna", "bert"], "clock": "x".repeat(100)}),
            422,
            "invalid_clock",
        ),
    ];
    for (body, status, code) in cases {
        let answer = post(&app, "/v1/games", &anna, body.clone()).await;
        assert_eq!(
            (answer.status, answer.error_code()),
            (status, code),
            "{body}: {answer:?}"
        );
    }
    let named = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "options": {"colour": "red"}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert!(named.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("colour"));
    // A kind is read with the request, and refused in the same words as before it was typed.
    let chess = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "chess", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(
        chess.body["error"]["message"],
        "unknown game kind `chess`: expected one of `kefren`, `kechi`, `sanqi`, `chinese-checkers`"
    );
    let bad_json = app
        .request(Method::POST, "/v1/games", Some(&anna), Some("{\"kind\":"))
        .await;
    assert_eq!(bad_json.status, 400);
    let no_token = app
        .post(
            "/v1/games",
            &json!({"kind": "kefren", "seats": ["anna", "bert"]}),
        )
        .await;
    assert_eq!(no_token.status, 401);

    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    let id = answer.body["id"].as_i64().unwrap();
    let outsider = post(&app, &format!("/v1/games/{id}/accept"), &cleo, json!({})).await;
    assert_eq!(
        (outsider.status, outsider.error_code()),
        (403, "not_your_game")
    );
    assert_eq!(
        post(&app, "/v1/games/999999/accept", &bert, json!({}))
            .await
            .status,
        404
    );
    assert_eq!(get(&app, "/v1/games/abc", &bert).await.status, 404);
    assert_eq!(get(&app, "/v1/games/999999", &bert).await.status, 404);
    let early = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": "F2-F3", "ply": 0}),
    )
    .await;
    assert_eq!((early.status, early.error_code()), (409, "not_started"));
    let declined = post(&app, &format!("/v1/games/{id}/decline"), &bert, json!({})).await;
    assert_eq!(declined.status, 200);
    assert_eq!(declined.body["status"], "cancelled");
    assert_eq!(declined.body["result_reason"], "declined");
    assert_eq!(count(&outbox(&app).await, "anna", "declined"), 1);
    let late = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!((late.status, late.error_code()), (409, "not_a_challenge"));
    let again = post(&app, &format!("/v1/games/{id}/decline"), &anna, json!({})).await;
    assert_eq!(again.status, 409);
    let method = app
        .request(
            Method::DELETE,
            &format!("/v1/games/{id}"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(method.status, 405);
}

async fn move_refusals_and_retries(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let cleo = play::player(&app.pool, "cleo");
    let id = started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let path = format!("/v1/games/{id}/moves");
    let m = |mv: &str, ply: u32| json!({"move": mv, "ply": ply});

    // The move route looks its token up on the connection that plays the move: the token is
    // still judged before the path and the body, as on every route.
    let post_raw = |path: String, token: Option<&'static str>, body: &'static str| {
        let app = &app;
        async move {
            app.request(reqwest::Method::POST, &path, token, Some(body))
                .await
        }
    };
    for (path, body) in [
        (path.clone(), "{not json"),
        (
            "/v1/games/nine/moves".to_owned(),
            r#"{"move": "F2-F3", "ply": 0}"#,
        ),
        (path.clone(), r#"{"move": "F2-F3", "ply": 0}"#),
    ] {
        let unknown = post_raw(path.clone(), Some("tp_unknowntoken"), body).await;
        assert_eq!(unknown.status, 401, "{path} {body}: {unknown:?}");
        let none = post_raw(path.clone(), None, body).await;
        assert_eq!(none.status, 401, "{path} {body}: {none:?}");
    }
    let unreadable = app
        .request(reqwest::Method::POST, &path, Some(&anna), Some("{not json"))
        .await;
    assert_eq!(unreadable.status, 400, "{unreadable:?}");
    let no_game = app
        .request(
            reqwest::Method::POST,
            "/v1/games/nine/moves",
            Some(&anna),
            Some(r#"{"move": "F2-F3", "ply": 0}"#),
        )
        .await;
    assert!(matches!(no_game.status, 400 | 404), "{no_game:?}");

    let outsider = post(&app, &path, &cleo, m("F2-F3", 0)).await;
    assert_eq!(
        (outsider.status, outsider.error_code()),
        (403, "not_your_game")
    );
    let not_turn = post(&app, &path, &bert, m("E18-E17", 0)).await;
    assert_eq!(
        (not_turn.status, not_turn.error_code()),
        (403, "not_your_turn")
    );
    let syntax = post(&app, &path, &anna, m("F2-F3-", 0)).await;
    assert_eq!(
        (syntax.status, syntax.error_code()),
        (422, "move_syntax"),
        "{syntax:?}"
    );
    assert_eq!(syntax.body["error"]["offset"], 6);
    assert!(syntax.body["error"]["expected"].is_string());
    let illegal = post(&app, &path, &anna, m("F2-F9", 0)).await;
    assert_eq!(
        (illegal.status, illegal.error_code()),
        (422, "illegal_move"),
        "{illegal:?}"
    );
    assert!(illegal.body["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("illegal move"));
    let ahead = post(&app, &path, &anna, m("F2-F3", 5)).await;
    assert_eq!((ahead.status, ahead.error_code()), (409, "stale_ply"));
    assert_eq!(ahead.body["game"]["ply"], 0);
    assert_eq!(
        post(&app, "/v1/games/999999/moves", &anna, m("F2-F3", 0))
            .await
            .status,
        404
    );
    let unknown_field = post(
        &app,
        &path,
        &anna,
        json!({"move": "F2-F3", "ply": 0, "x": 1}),
    )
    .await;
    assert_eq!(unknown_field.status, 422);
    let negative = post(&app, &path, &anna, json!({"move": "F2-F3", "ply": -1})).await;
    assert_eq!(negative.status, 422);

    let first = post(&app, &path, &anna, m("F2-F3", 0)).await;
    assert_eq!(first.status, 201, "{first:?}");
    assert_eq!(first.body["ply"], 1);
    assert_eq!(first.body["to_move"], 2);
    // An identical retry (also in another spelling) answers as the first time.
    for retry in ["F2-F3", " f2 - f3 "] {
        let again = post(&app, &path, &anna, m(retry, 0)).await;
        assert_eq!(again.status, 201, "{again:?}");
        assert_eq!(again.body["ply"], 1);
    }
    let other = post(&app, &path, &anna, m("E2-E3", 0)).await;
    assert_eq!((other.status, other.error_code()), (409, "move_taken"));
    assert_eq!(other.body["game"]["ply"], 1);
    let stolen = post(&app, &path, &bert, m("F2-F3", 0)).await;
    assert_eq!((stolen.status, stolen.error_code()), (409, "move_taken"));
    assert_eq!(
        get(&app, &path, &cleo).await.body["moves"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    // One "your turn" row for bert, not one per retry.
    assert_eq!(count(&outbox(&app).await, "bert", "is your move in"), 1);
    assert_eq!(get(&app, "/v1/games/999999/moves", &anna).await.status, 404);
    assert_eq!(
        get(&app, "/v1/games/999999/record", &anna).await.status,
        404
    );
    assert_eq!(
        get(&app, "/v1/games/999999/board.svg", &anna).await.status,
        404
    );
}

async fn resign_and_draws(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let cleo = play::player(&app.pool, "cleo");
    let id = started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let draw = format!("/v1/games/{id}/draw");
    let nothing = post(&app, &draw, &bert, json!({"action": "accept"})).await;
    assert_eq!(
        (nothing.status, nothing.error_code()),
        (409, "no_draw_offer")
    );
    let bad = post(&app, &draw, &bert, json!({"action": "maybe"})).await;
    assert_eq!(bad.status, 422);
    let outsider = post(&app, &draw, &cleo, json!({"action": "offer"})).await;
    assert_eq!(outsider.status, 403);
    let offer = post(&app, &draw, &anna, json!({"action": "offer"})).await;
    assert_eq!(offer.body["draw_offered_by"], 1);
    let counter = post(&app, &draw, &bert, json!({"action": "offer"})).await;
    assert_eq!(
        (counter.status, counter.error_code()),
        (409, "draw_offered")
    );
    let declined = post(&app, &draw, &bert, json!({"action": "decline"})).await;
    assert_eq!(declined.status, 200);
    assert!(declined.body["draw_offered_by"].is_null());
    // An offer lapses when its maker moves again.
    post(&app, &draw, &anna, json!({"action": "offer"})).await;
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": "F2-F3", "ply": 0}),
    )
    .await;
    assert!(moved.body["draw_offered_by"].is_null());
    let own = post(&app, &draw, &anna, json!({"action": "accept"})).await;
    assert_eq!(own.status, 409);
    post(&app, &draw, &anna, json!({"action": "offer"})).await;
    let agreed = post(&app, &draw, &bert, json!({"action": "accept"})).await;
    assert_eq!(agreed.body["status"], "finished");
    assert_eq!(agreed.body["result"], "draw");
    assert_eq!(agreed.body["result_reason"], "agreement");
    let after = post(&app, &draw, &anna, json!({"action": "offer"})).await;
    assert_eq!((after.status, after.error_code()), (409, "not_active"));

    let id = started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let resign = format!("/v1/games/{id}/resign");
    assert_eq!(post(&app, &resign, &cleo, json!({})).await.status, 403);
    let resigned = post(&app, &resign, &bert, json!({})).await;
    assert_eq!(resigned.status, 200);
    assert_eq!(resigned.body["result"], "won 1");
    assert_eq!(resigned.body["result_reason"], "resignation");
    assert_eq!(post(&app, &resign, &anna, json!({})).await.status, 409);
    let late = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": "F2-F3", "ply": 0}),
    )
    .await;
    assert_eq!((late.status, late.error_code()), (409, "game_over"));
    let record = check_record(&app, id, &anna, &resigned.body).await;
    assert_eq!(record.header("Termination"), Some("resignation"));

    let dirk = play::player(&app.pool, "dirk");
    let id = started_game(
        &app,
        "chinese-checkers",
        json!({}),
        &[&anna, &bert, &dirk],
        &["anna", "bert", "dirk"],
    )
    .await;
    // Three seats: a draw needs every other seat still playing (see tests/departures.rs).
    let three = post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &anna,
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!(three.status, 200, "{three:?}");
    assert_eq!(three.body["draw_offered_by"], 1);
    // Three seats: a resignation takes the seat out and the game goes on.
    let resigned = post(&app, &format!("/v1/games/{id}/resign"), &bert, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    assert_eq!(resigned.body["status"], "active");
    assert_eq!(resigned.body["result"], Value::Null);
    assert_eq!(resigned.body["departed"], json!([2]));
    assert!(
        resigned.body["draw_offered_by"].is_null(),
        "a departure ends the offer"
    );
    assert_eq!(resigned.body["ply"], 1);
    assert_eq!(resigned.body["last_moves"][0]["move"], "resign 2");
    check_record(&app, id, &anna, &resigned.body).await;
    let again = post(&app, &format!("/v1/games/{id}/resign"), &bert, json!({})).await;
    assert_eq!((again.status, again.error_code()), (409, "left_game"));
}

async fn listing_and_pagination(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let mut ids = Vec::new();
    for _ in 0..5 {
        let answer = post(
            &app,
            "/v1/games",
            &anna,
            json!({"kind": "sanqi", "seats": ["bert", "anna"]}),
        )
        .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        ids.push(answer.body["id"].as_i64().unwrap());
    }
    let mut seen = Vec::new();
    let mut path = "/v1/games?status=invited&limit=2".to_owned();
    loop {
        let page = get(&app, &path, &bert).await;
        assert_eq!(page.status, 200, "{page:?}");
        for g in page.body["games"].as_array().unwrap() {
            seen.push(g["id"].as_i64().unwrap());
        }
        match page.body["next_cursor"].as_str() {
            Some(cursor) => path = format!("/v1/games?status=invited&limit=2&cursor={cursor}"),
            None => break,
        }
    }
    ids.reverse();
    assert_eq!(seen, ids, "newest activity first, every game once");
    assert_eq!(
        get(&app, "/v1/games?status=active", &bert).await.body["games"],
        json!([])
    );
    for bad in [
        "status=over",
        "turn=yours",
        "limit=0",
        "limit=1000",
        "cursor=xyz",
        "colour=1",
    ] {
        let answer = get(&app, &format!("/v1/games?{bad}"), &bert).await;
        assert_eq!(answer.status, 400, "{bad}: {answer:?}");
    }
    // Accepting moves a game to the top; bert (seat 1) is to move there.
    post(
        &app,
        &format!("/v1/games/{}/accept", ids[4]),
        &bert,
        json!({}),
    )
    .await;
    let all = get(&app, "/v1/games", &anna).await;
    assert_eq!(all.body["games"][0]["id"], ids[4]);
    let mine = get(&app, "/v1/games?turn=mine", &bert).await;
    assert_eq!(mine.body["games"].as_array().unwrap().len(), 1);
    assert_eq!(get(&app, "/v1/games", "tp_nonsense").await.status, 401);
}

async fn seeds_and_expiry(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let seeded = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kechi", "seats": ["anna", "bert"], "seed": 1}),
    )
    .await;
    assert_eq!(seeded.status, 422);
    let given = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kechi", "options": {"total": "die", "seed": 7}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!((given.status, given.error_code()), (422, "invalid_options"));
    let id = started_game(
        &app,
        "kechi",
        json!({"total": "die", "lines": 5}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    // While the game runs its seed is withheld and its commitment shown (tests/kechi_dice.rs
    // looks everywhere); once it is over the seed is in the options and the record.
    assert!(view["options"].get("seed").is_none(), "{view}");
    let commitment = view["seed_sha256"].as_str().unwrap().to_owned();
    let end = drive(&app, id, &[&anna, &bert], 0, 600).await;
    let seed = end["options"]["seed"].as_str().unwrap().to_owned();
    assert_eq!(seed_commitment(seed.parse().unwrap()), commitment);
    let record = check_record(&app, id, &bert, &end).await;
    assert_eq!(record.header("Seed"), Some(seed.as_str()));
    assert_eq!(record.header("Seed-SHA256"), Some(commitment.as_str()));

    // A challenge made eight days ago has expired.
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    let old = answer.body["id"].as_i64().unwrap();
    {
        use diesel::prelude::*;
        use turnpost_server::db::schema::games;
        let eight_days_ago = turnpost_server::db::now() - chrono::Duration::days(8);
        diesel::update(games::table.find(old))
            .set(games::created_at.eq(eight_days_ago))
            .execute(&mut *app.conn())
            .unwrap();
    }
    let shown = get(&app, &format!("/v1/games/{old}"), &bert).await;
    assert_eq!(shown.body["status"], "cancelled");
    assert_eq!(shown.body["result_reason"], "expired");
    let late = post(&app, &format!("/v1/games/{old}/accept"), &bert, json!({})).await;
    assert_eq!((late.status, late.error_code()), (409, "challenge_expired"));
    let invited = get(&app, "/v1/games?status=invited", &bert).await;
    assert_eq!(invited.body["games"], json!([]));
    let cancelled = get(&app, "/v1/games?status=cancelled", &bert).await;
    assert_eq!(cancelled.body["games"][0]["id"], old);
}

async fn forced_pass_is_played_by_the_server(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = started_game(
        &app,
        "chinese-checkers",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    // Seat 2's only peg sits boxed in on Q13; seat 1 has a free peg on I9. (The cached position
    // is set by hand here, so this game's record is not replayed.)
    // Seat 2 (point 4): Q13. Seat 1 (point 1): P12, P13, O11, O13 and I9.
    let text = "chinese-checkers ./../.../..../............./............/.........../........../\
                ....1..../........../.........../............/............./..../1.1/11/4 1";
    {
        use diesel::prelude::*;
        use turnpost_server::db::schema::games;
        diesel::update(games::table.find(id))
            .set(games::position.eq(&text))
            .execute(&mut *app.conn())
            .unwrap();
    }
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    let mv = view["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .find(|m| m.starts_with("I9-"))
        .unwrap()
        .to_owned();
    let before = outbox(&app).await.len();
    let after = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(after.status, 201, "{after:?}");
    assert_eq!(after.body["ply"], 2);
    assert_eq!(after.body["to_move"], 1);
    assert_eq!(after.body["your_turn"], true);
    let last = after.body["last_moves"].as_array().unwrap();
    assert_eq!(last.last().unwrap()["move"], "pass");
    assert_eq!(last.last().unwrap()["seat"], 2);
    assert_eq!(last.last().unwrap()["automatic"], true);
    assert_eq!(last[last.len() - 2]["automatic"], false);
    // One event, one mail: anna is to move again; bert is not told it was his turn.
    let mails = outbox(&app).await;
    assert_eq!(mails.len(), before + 1);
    assert_eq!(mails.last().unwrap().recipient, "anna@example.org");
}

/// Someone who holds no seat can neither decline another's challenge nor claim a win in a game
/// that is not theirs: 403 `not_your_game`, and nothing changes.
async fn outsiders_cannot_decline_or_claim(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let eve = play::player(&app.pool, "eve");
    let challenge = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"], "timeout": "claim"}),
    )
    .await;
    assert_eq!(challenge.status, 201, "{challenge:?}");
    let id = challenge.body["id"].as_i64().unwrap();
    let declined = post(&app, &format!("/v1/games/{id}/decline"), &eve, json!(null)).await;
    assert_eq!(declined.status, 403, "{declined:?}");
    assert_eq!(declined.error_code(), "not_your_game");
    let still = get(&app, &format!("/v1/games/{id}"), &anna).await;
    assert_eq!(still.body["status"], "invited");

    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!(null)).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    let claimed = post(&app, &format!("/v1/games/{id}/claim"), &eve, json!(null)).await;
    assert_eq!(claimed.status, 403, "{claimed:?}");
    assert_eq!(claimed.error_code(), "not_your_game");
    let still = get(&app, &format!("/v1/games/{id}"), &anna).await;
    assert_eq!(still.body["status"], "active");
}
