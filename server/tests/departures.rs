//! Seats leaving Chinese Checkers games of three and six seats over HTTP, on both backends: a
//! resignation, a timeout found by a sweep, a late move after the deadline and a claim each
//! take the seat out, the game goes on, the others get one mail, the record replays, and the
//! placings rank the seats once it is over. With `on-leave=bot`, a server bot takes the seat
//! over instead and plays it on to the end of the game.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::sync::Arc;

use chrono::{Duration, NaiveDateTime};
use common::{get, post, Backend, TestApp};
use diesel::prelude::*;
use serde_json::{json, Value};
use turnpost_server::accounts::MailContext;
use turnpost_server::db;
use turnpost_server::db::outbox::OutboxMail;
use turnpost_server::db::schema::{games, mail_outbox};
use turnpost_server::preferences::unsubscribe;
use turnpost_server::sweeps;
use turnpost_shared::GameRecord;

both_backends!(
    a_bot_plays_a_resigned_seat_on_to_the_end,
    a_timeout_found_by_a_sweep_hands_the_seat_to_a_bot,
    with_two_seats_playing_leaving_ends_a_bot_game,
    on_leave_defaults_to_remove_and_is_checked,
    a_claim_takes_the_late_seat_out,
    three_players_agree_a_draw_only_all_together,
    three_players_go_on_after_a_resignation_and_a_timeout,
    six_players_go_on_until_one_seat_remains,
);

/// Players `{prefix}1` … `{prefix}{n}` and a started Chinese Checkers game with them in seat
/// order and `extra` in the challenge; returns (tokens, game id).
async fn table(app: &TestApp, prefix: &str, n: usize, extra: Value) -> (Vec<String>, i64) {
    let names: Vec<String> = (1..=n).map(|i| format!("{prefix}{i}")).collect();
    let tokens: Vec<String> = names.iter().map(|n| play::player(&app.pool, n)).collect();
    let mut body = json!({"kind": "chinese-checkers", "seats": names});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let answer = post(app, "/v1/games", &tokens[0], body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let answer = post(app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    (tokens, id)
}

fn ctx(app: &TestApp) -> MailContext {
    let mut conn = app.conn();
    MailContext {
        message_id_domain: "test.invalid".into(),
        public_url: app.config.public_url.clone().unwrap(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: unsubscribe::load_key(&mut conn).unwrap().into(),
        reply: turnpost_server::inbound::ReplyKeys::load(&mut conn, &app.config).unwrap(),
    }
}

fn set_deadline(app: &TestApp, id: i64, deadline: NaiveDateTime) {
    let mut conn = app.conn();
    diesel::update(games::table.find(id))
        .set(games::deadline_at.eq(Some(deadline)))
        .execute(&mut *conn)
        .unwrap();
}

fn email(name: &str) -> String {
    format!("{name}@example.org")
}

fn outbox_to(app: &TestApp, name: &str) -> Vec<OutboxMail> {
    app.game_mail_queued();
    let mut conn = app.conn();
    mail_outbox::table
        .filter(mail_outbox::recipient.eq(email(name)))
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .load(&mut *conn)
        .unwrap()
}

/// How many mails each of `names` has in the outbox.
fn counts(app: &TestApp, names: &[String]) -> Vec<usize> {
    names.iter().map(|n| outbox_to(app, n).len()).collect()
}

/// The mails queued for `name` since it had `before`.
fn new_mails(app: &TestApp, name: &str, before: usize) -> Vec<String> {
    outbox_to(app, name)
        .into_iter()
        .skip(before)
        .map(|m| m.body_text)
        .collect()
}

/// Plays the first legal move of the seat to move (`tokens[seat - 1]`); answers the view.
async fn play_one(app: &TestApp, id: i64, tokens: &[String]) -> Value {
    let view = get(app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    let seat = view["to_move"].as_u64().unwrap() as usize;
    let token = &tokens[seat - 1];
    let mine = get(app, &format!("/v1/games/{id}"), token).await.body;
    let mv = mine["legal_moves"][0].as_str().unwrap().to_owned();
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": mine["ply"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    answer.body
}

/// The stored record replays to the cached position, move for move, with the departures.
async fn check_record(app: &TestApp, id: i64, token: &str, view: &Value) -> GameRecord {
    let record = replayed_record(app, id, token, view).await;
    let replayed = record.replay().unwrap();
    let departed: Vec<u64> = replayed
        .departed()
        .iter()
        .map(|s| u64::from(s.number()))
        .collect();
    assert_eq!(json!(departed), view["departed"].clone());
    if view["status"] == "finished" {
        assert_eq!(record.header("Result"), view["result"].as_str());
        let places: Vec<String> = view["placings"]
            .as_array()
            .unwrap()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(record.header("Placings"), Some(places.join(" ").as_str()));
        assert_eq!(
            json!(replayed.placings().unwrap()),
            view["placings"],
            "the replayed record ranks the seats as the view does"
        );
    }
    record
}

async fn three_players_go_on_after_a_resignation_and_a_timeout(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let names: Vec<String> = (1..=3).map(|i| format!("th{i}")).collect();
    let (tokens, id) = table(&app, "th", 3, json!({})).await;
    let draw = format!("/v1/games/{id}/draw");
    // A draw needs every other seat still playing; one decline ends the offer.
    let offer = post(&app, &draw, &tokens[0], json!({"action": "offer"})).await;
    assert_eq!(offer.status, 200, "{offer:?}");
    let accepted = post(&app, &draw, &tokens[1], json!({"action": "accept"})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert_eq!(accepted.body["status"], "active");
    assert_eq!(accepted.body["draw_accepted_by"], json!([2]));
    let declined = post(&app, &draw, &tokens[2], json!({"action": "decline"})).await;
    assert_eq!(declined.status, 200, "{declined:?}");
    assert!(declined.body["draw_offered_by"].is_null());
    assert!(declined.body.get("draw_accepted_by").is_none());

    // Seat 3 resigns out of turn: seat 1 stays to move, with its clock.
    let before = counts(&app, &names);
    let deadline = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body["deadline"].clone();
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let view = resigned.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["to_move"], 1);
    assert_eq!(view["deadline"], deadline);
    assert_eq!(view["departed"], json!([3]));
    assert_eq!(view["placings"], Value::Null);
    assert_eq!(view["ply"], 1);
    assert_eq!(view["last_moves"][0]["move"], "resign 3");
    check_record(&app, id, &tokens[0], &view).await;
    for (i, name) in names.iter().enumerate().take(2) {
        let mails = new_mails(&app, name, before[i]);
        assert_eq!(mails.len(), 1, "{name}: {mails:?}");
        assert!(
            mails[0].contains(&format!("th3 left game #{id}; it goes on, th1 to move.")),
            "{}",
            mails[0]
        );
        assert!(mails[0].contains("th3 resigned"), "{}", mails[0]);
    }
    assert!(new_mails(&app, "th3", before[2]).is_empty());
    let again = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!((again.status, again.error_code()), (409, "left_game"));
    let gone = post(&app, &draw, &tokens[2], json!({"action": "offer"})).await;
    assert_eq!((gone.status, gone.error_code()), (409, "left_game"));

    // Two seats still playing: a draw offer may be made (and declined) between them.
    let offer = post(&app, &draw, &tokens[0], json!({"action": "offer"})).await;
    assert_eq!(offer.status, 200, "{offer:?}");
    assert_eq!(offer.body["draw_offered_by"], 1);
    let declined = post(&app, &draw, &tokens[1], json!({"action": "decline"})).await;
    assert_eq!(declined.status, 200, "{declined:?}");

    // Seat 1 moves; seat 2 runs out of time and the server's sweeper (every 100 ms in tests)
    // takes it out: one seat remains and wins.
    let moved = play_one(&app, id, &tokens).await;
    assert_eq!(moved["to_move"], 2, "seat 3 is skipped");
    let before = counts(&app, &names);
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let mut view = Value::Null;
    let until = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while view["status"] != "finished" {
        assert!(std::time::Instant::now() < until, "no timeout: {view}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    }
    assert_eq!(view["result"], "won 1");
    assert_eq!(view["result_reason"], "timeout");
    assert_eq!(view["departed"], json!([3, 2]));
    assert_eq!(view["placings"], json!([1, 2, 3]));
    let record = check_record(&app, id, &tokens[0], &view).await;
    assert_eq!(record.moves.last().map(String::as_str), Some("timeout 2"));
    for (i, name) in names.iter().enumerate() {
        let mails = new_mails(&app, name, before[i]);
        assert_eq!(mails.len(), 1, "{name}: {mails:?}");
        assert!(mails[0].contains("th2's time") || mails[0].contains("Your time"));
    }
    // The listing shows the departures and places too.
    let listed = get(&app, "/v1/games?status=finished", &tokens[1])
        .await
        .body;
    let summary = &listed["games"][0];
    assert_eq!(summary["id"], id);
    assert_eq!(summary["departed"], json!([3, 2]));
    assert_eq!(summary["placings"], json!([1, 2, 3]));
    // Every queued mail reaches the SMTP server.
    for name in &names {
        let queued = outbox_to(&app, name).len();
        assert_eq!(app.smtp.wait_for(&email(name), queued).await.len(), queued);
    }
}

async fn six_players_go_on_until_one_seat_remains(backend: Backend) {
    // No sweeper of its own: the test sweeps by hand, and a late move finds its deadline.
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let names: Vec<String> = (1..=6).map(|i| format!("sx{i}")).collect();
    let (tokens, id) = table(&app, "sx", 6, json!({})).await;

    // Seat 1 resigns on its turn: seat 2 gets the turn card and a fresh deadline.
    let before = counts(&app, &names);
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[0],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    assert_eq!(resigned.body["status"], "active");
    assert_eq!(resigned.body["to_move"], 2);
    assert_eq!(resigned.body["departed"], json!([1]));
    assert!(resigned.body["deadline"].is_string());
    let turn = new_mails(&app, "sx2", before[1]);
    assert_eq!(turn.len(), 1, "{turn:?}");
    assert!(!turn[0].contains("it goes on"), "sx2 gets its turn card");
    for (i, name) in names.iter().enumerate().skip(2) {
        let mails = new_mails(&app, name, before[i]);
        assert_eq!(mails.len(), 1, "{name}: {mails:?}");
        assert!(mails[0].contains(&format!("sx1 left game #{id}; it goes on, sx2 to move.")));
    }

    // Seat 2 runs out of time; a sweep takes it out and seat 3 is to move.
    let before = counts(&app, &names);
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let report = sweeps::sweep_once(&mut app.conn(), &ctx(&app), db::now()).unwrap();
    assert_ne!(report, sweeps::SweepReport::default());
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[2]).await.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["to_move"], 3);
    assert_eq!(view["departed"], json!([1, 2]));
    assert_eq!(view["last_moves"][1]["move"], "timeout 2");
    for (i, name) in names.iter().enumerate().skip(3) {
        let mails = new_mails(&app, name, before[i]);
        assert_eq!(mails.len(), 1, "{name}: {mails:?}");
        assert!(mails[0].contains("sx2 ran out of time"), "{}", mails[0]);
    }
    check_record(&app, id, &tokens[2], &view).await;

    // Seat 3 moves, then seat 4 moves after its deadline: it leaves on time and the game goes
    // on with seat 5 (the answer says so, committed).
    play_one(&app, id, &tokens).await;
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[3]).await.body;
    let late = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &tokens[3],
        json!({"move": view["legal_moves"][0], "ply": view["ply"]}),
    )
    .await;
    assert_eq!((late.status, late.error_code()), (409, "left_on_time"));
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[4]).await.body;
    assert_eq!(view["to_move"], 5);
    assert_eq!(view["departed"], json!([1, 2, 4]));
    check_record(&app, id, &tokens[4], &view).await;

    // Seats 3 and 5 resign: seat 6 remains and wins.
    post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    let last = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[4],
        json!({}),
    )
    .await;
    assert_eq!(last.status, 200, "{last:?}");
    let view = last.body;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"], "won 6");
    assert_eq!(view["result_reason"], "resignation");
    assert_eq!(view["departed"], json!([1, 2, 4, 3, 5]));
    assert_eq!(view["placings"], json!([6, 5, 3, 4, 2, 1]));
    check_record(&app, id, &tokens[5], &view).await;
}

async fn three_players_agree_a_draw_only_all_together(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (tokens, id) = table(&app, "dr", 3, json!({})).await;
    let draw = format!("/v1/games/{id}/draw");
    let offer = post(&app, &draw, &tokens[1], json!({"action": "offer"})).await;
    assert_eq!(offer.body["draw_offered_by"], 2);
    let counter = post(&app, &draw, &tokens[2], json!({"action": "offer"})).await;
    assert_eq!(
        (counter.status, counter.error_code()),
        (409, "draw_offered")
    );
    let one = post(&app, &draw, &tokens[2], json!({"action": "accept"})).await;
    assert_eq!(one.body["status"], "active");
    assert_eq!(one.body["draw_accepted_by"], json!([3]));
    let twice = post(&app, &draw, &tokens[2], json!({"action": "accept"})).await;
    assert_eq!(
        twice.body["draw_accepted_by"],
        json!([3]),
        "accepting twice counts once"
    );
    let own = post(&app, &draw, &tokens[1], json!({"action": "accept"})).await;
    assert_eq!((own.status, own.error_code()), (409, "no_draw_offer"));
    let all = post(&app, &draw, &tokens[0], json!({"action": "accept"})).await;
    assert_eq!(all.status, 200, "{all:?}");
    assert_eq!(all.body["status"], "finished");
    assert_eq!(all.body["result"], "draw");
    assert_eq!(all.body["result_reason"], "agreement");
    assert_eq!(all.body["placings"], json!([1, 1, 1]));
}

async fn a_claim_takes_the_late_seat_out(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let names: Vec<String> = (1..=3).map(|i| format!("cl{i}")).collect();
    let (tokens, id) = table(&app, "cl", 3, json!({"timeout": "claim"})).await;
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let before = counts(&app, &names);
    let claimed = post(
        &app,
        &format!("/v1/games/{id}/claim"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!(claimed.status, 200, "{claimed:?}");
    let view = claimed.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["to_move"], 2);
    assert_eq!(view["departed"], json!([1]));
    assert_eq!(view["last_moves"][0]["move"], "claim 1");
    assert_eq!(view["claimable"], false, "seat 2 has a fresh deadline");
    check_record(&app, id, &tokens[2], &view).await;
    let mails = new_mails(&app, "cl3", before[2]);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(
        mails[0].contains(&format!("cl1 left game #{id}; it goes on, cl2 to move.")),
        "{}",
        mails[0]
    );
    assert!(mails[0].contains("lost on time by a claim"), "{}", mails[0]);
    assert_eq!(new_mails(&app, "cl2", before[1]).len(), 1, "the turn card");
    // Seat 2 runs late too: seat 3 may claim, seat 1 (gone) may not.
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let claim = format!("/v1/games/{id}/claim");
    let path = format!("/v1/games/{id}");
    assert_eq!(get(&app, &path, &tokens[2]).await.body["claimable"], true);
    assert_eq!(get(&app, &path, &tokens[0]).await.body["claimable"], false);
    let again = post(&app, &claim, &tokens[0], json!({})).await;
    assert_eq!((again.status, again.error_code()), (409, "left_game"));
    let last = post(&app, &claim, &tokens[2], json!({})).await;
    assert_eq!(last.body["status"], "finished");
    assert_eq!(last.body["result"], "won 3");
    assert_eq!(last.body["result_reason"], "timeout");
    assert_eq!(last.body["placings"], json!([3, 2, 1]));
    check_record(&app, id, &tokens[2], &last.body).await;
}

/// The record as served, and the engine's replay of it (which must reach the cached position:
/// a bot taking a seat over changes nothing on the board).
async fn replayed_record(app: &TestApp, id: i64, token: &str, view: &Value) -> GameRecord {
    let resp = app
        .http
        .get(format!("{}/v1/games/{id}/record", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    let record = GameRecord::parse(&resp.text().await.unwrap()).unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(replayed.position_text(), view["position"].as_str().unwrap());
    assert_eq!(record.moves.len() as u64, view["ply"].as_u64().unwrap());
    record
}

fn engine_of(view: &Value) -> turnpost_shared::AnyGame {
    let options = turnpost_shared::Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    turnpost_shared::AnyGame::from_position_text(&options, view["position"].as_str().unwrap())
        .unwrap()
}

fn account_id(app: &TestApp, name: &str) -> i64 {
    use turnpost_server::db::schema::accounts;
    accounts::table
        .filter(accounts::name_key.eq(name))
        .select(accounts::id)
        .first(&mut *app.conn())
        .unwrap()
}

/// Who played each move of `seat` in `id` from ply `from` on (the moves table's account).
fn movers(app: &TestApp, id: i64, seat: i32, from: i32) -> Vec<Option<i64>> {
    use turnpost_server::db::schema::moves;
    moves::table
        .filter(moves::game_id.eq(id))
        .filter(moves::seat.eq(seat))
        .filter(moves::ply.ge(from))
        .order(moves::ply.asc())
        .select(moves::account_id)
        .load(&mut *app.conn())
        .unwrap()
}

/// Waits (up to 30 s) until `check` holds for the game's view; answers the view.
async fn wait_for_view(
    app: &TestApp,
    id: i64,
    token: &str,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let view = get(app, &format!("/v1/games/{id}"), token).await.body;
        if check(&view) {
            return view;
        }
        assert!(std::time::Instant::now() < until, "timed out: {view}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

async fn a_bot_plays_a_resigned_seat_on_to_the_end(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let names: Vec<String> = (1..=3).map(|i| format!("bo{i}")).collect();
    let (tokens, id) = table(&app, "bo", 3, json!({"on_leave": "bot"})).await;
    let start = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(start["on_leave"], "bot");
    let pegs_before = start["position"].clone();

    // Seat 2 resigns out of turn: bot-3 takes the seat over with its pegs; seat 1 stays to move.
    let before = counts(&app, &names);
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[1],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let view = resigned.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["to_move"], 1);
    assert_eq!(view["ply"], 1);
    assert_eq!(view["position"], pegs_before, "the pegs stay on the board");
    assert_eq!(view["last_moves"][0]["move"], "resign 2 bot");
    assert_eq!(view["departed"], json!([2]));
    assert_eq!(view["seats"][1]["player"], "bo2");
    assert_eq!(view["seats"][1]["played_by"], "bot-3");
    assert!(view["seats"][0].get("played_by").is_none());
    for i in [0, 2] {
        let mails = new_mails(&app, &names[i], before[i]);
        assert_eq!(mails.len(), 1, "{}: {mails:?}", names[i]);
        assert!(
            mails[0].contains(&format!("bo2 left game #{id}; bot-3 plays on for them.")),
            "{}",
            mails[0]
        );
        assert!(mails[0].contains("bo2 resigned"), "{}", mails[0]);
    }
    assert!(new_mails(&app, "bo2", before[1]).is_empty());
    replayed_record(&app, id, &tokens[0], &view).await;
    // The player who left cannot come back: no resign, draw, or move for seat 2.
    let again = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[1],
        json!({}),
    )
    .await;
    assert_eq!((again.status, again.error_code()), (409, "left_game"));
    let draw = post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &tokens[1],
        json!({"action": "offer"}),
    )
    .await;
    assert_eq!((draw.status, draw.error_code()), (409, "left_game"));

    // Seats 1 and 3 play on; the bot plays every turn of seat 2 until the game ends.
    let mut policy = play::Policy::new(&engine_of(&view), 17);
    let mut view = view;
    while view["status"] == "active" {
        let ply = view["ply"].as_u64().unwrap();
        assert!(ply < 600, "game {id} did not end: {view}");
        let seat = view["to_move"].as_u64().unwrap() as usize;
        if seat == 2 {
            view = wait_for_view(&app, id, &tokens[0], |v| {
                v["status"] != "active" || v["to_move"] != 2
            })
            .await;
            continue;
        }
        let mv = policy.choose(&engine_of(&view));
        let answer = post(
            &app,
            &format!("/v1/games/{id}/moves"),
            &tokens[seat - 1],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        view = answer.body;
    }
    assert_eq!(view["status"], "finished", "{view}");
    assert_eq!(view["result_reason"], "rules");
    let bot = account_id(&app, "bot-3");
    let by_bot = movers(&app, id, 2, 1);
    assert!(by_bot.len() >= 10, "the bot played seat 2: {by_bot:?}");
    assert!(by_bot.iter().all(|m| *m == Some(bot)), "{by_bot:?}");
    // Seat 2's player left first: last place, whatever the bot made of the seat; the winner
    // first, the other seat next, or (if the bot's seat won) both people first.
    let places = view["placings"].clone();
    let expected = match view["result"].as_str().unwrap() {
        "won 1" => json!([1, 3, 2]),
        "won 3" => json!([2, 3, 1]),
        "won 2" => json!([1, 3, 1]),
        other => panic!("{other}"),
    };
    assert_eq!(places, expected, "{view}");
    assert_eq!(view["departed"], json!([2]));
    let record = replayed_record(&app, id, &tokens[0], &view).await;
    assert_eq!(record.moves[0], "resign 2 bot");
    assert_eq!(record.header("Seat2"), Some("bo2"));
    assert_eq!(record.header("Seat2-Bot"), Some("bot-3"));
    let shown: Vec<String> = places
        .as_array()
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(record.header("Placings"), Some(shown.join(" ").as_str()));
    // No turn card or reminder ever went to the player who left: only the game-over mail.
    let theirs = new_mails(&app, "bo2", before[1]);
    assert_eq!(theirs.len(), 1, "{theirs:?}");
}

async fn a_timeout_found_by_a_sweep_hands_the_seat_to_a_bot(backend: Backend) {
    // No sweeper and no bot worker of the server's own: the test sweeps by hand, and starts
    // a bot worker once it has seen the seat wait for the bot.
    let app = TestApp::spawn_with(backend, |c| {
        c.sweep_interval_ms = 0;
        c.bot_poll_ms = 0;
    })
    .await;
    let names: Vec<String> = (1..=3).map(|i| format!("tb{i}")).collect();
    let (tokens, id) = table(&app, "tb", 3, json!({"on_leave": "bot"})).await;

    // Seat 1 runs out of time; the sweep hands its seat to bot-3, with a fresh deadline.
    let before = counts(&app, &names);
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let report = sweeps::sweep_once(&mut app.conn(), &ctx(&app), db::now()).unwrap();
    assert_ne!(report, sweeps::SweepReport::default());
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
    assert_eq!(view["status"], "active");
    assert_eq!(view["departed"], json!([1]));
    assert_eq!(view["seats"][0]["played_by"], "bot-3");
    assert_eq!(view["last_moves"][0]["move"], "timeout 1 bot");
    let deadline = chrono::DateTime::parse_from_rfc3339(view["deadline"].as_str().unwrap())
        .unwrap()
        .naive_utc();
    assert!(
        deadline > db::now() + Duration::days(2),
        "a fresh clock: {deadline}"
    );
    for i in [1, 2] {
        let mails = new_mails(&app, &names[i], before[i]);
        assert_eq!(mails.len(), 1, "{}: {mails:?}", names[i]);
        assert!(
            mails[0].contains(&format!("tb1 left game #{id}; bot-3 plays on for them.")),
            "{}",
            mails[0]
        );
        assert!(mails[0].contains("tb1 ran out of time"), "{}", mails[0]);
    }
    // The player who left has no turn any more, and cannot move for the seat.
    let theirs = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(theirs["to_move"], 1);
    assert_eq!(theirs["your_turn"], false);
    assert!(theirs["legal_moves"].is_null());
    let mv = engine_of(&theirs).legal_moves()[0].clone();
    let refused = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &tokens[0],
        json!({"move": mv, "ply": theirs["ply"]}),
    )
    .await;
    assert_eq!((refused.status, refused.error_code()), (409, "left_game"));
    let listed = get(&app, "/v1/games?turn=mine", &tokens[0]).await.body;
    assert_eq!(listed["games"], json!([]), "{listed}");
    let listed = get(&app, "/v1/games", &tokens[1]).await.body;
    assert_eq!(listed["games"][0]["seats"][0]["played_by"], "bot-3");
    assert_eq!(listed["games"][0]["departed"], json!([1]));

    // A bot worker moves for seat 1 (the seat got a fresh clock, so a sweep leaves it alone).
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let worker = turnpost_server::bots::BotWorker::start(
        app.pool.clone(),
        ctx(&app),
        std::time::Duration::from_millis(20),
    )
    .unwrap();
    let running = tokio::spawn(worker.run(stopped));
    let view = wait_for_view(&app, id, &tokens[1], |v| v["to_move"] == 2).await;
    assert_eq!(view["ply"], 2);
    assert_eq!(movers(&app, id, 1, 1), [Some(account_id(&app, "bot-3"))]);
    let report = sweeps::sweep_once(&mut app.conn(), &ctx(&app), db::now()).unwrap();
    assert_eq!(report.timed_out, 0, "{report:?}");
    replayed_record(&app, id, &tokens[1], &view).await;

    // Seat 3 resigns: seat 2 still has a person, so a second bot plays seat 3 on.
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    assert_eq!(resigned.body["seats"][2]["played_by"], "bot");
    assert_eq!(resigned.body["departed"], json!([1, 3]));
    // Seat 2, the last person, resigns: nobody is left to play for, so its pegs leave the
    // board; the players left in the order they went.
    let last = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[1],
        json!({}),
    )
    .await;
    assert_eq!(last.status, 200, "{last:?}");
    let view = last.body;
    assert!(view["seats"][1].get("played_by").is_none());
    assert_eq!(view["departed"], json!([1, 3, 2]));
    let lines: Vec<&str> = view["last_moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m["move"].as_str())
        .filter(|m| m.contains("resign") || m.contains("timeout"))
        .collect();
    assert_eq!(lines, ["timeout 1 bot", "resign 3 bot", "resign 2"]);
    replayed_record(&app, id, &tokens[1], &view).await;
    stop.send(true).unwrap();
    running.await.unwrap();
}

async fn with_two_seats_playing_leaving_ends_a_bot_game(backend: Backend) {
    // No bot worker: bot-1 in seat 3 never moves, and runs out of time.
    let app = TestApp::spawn_with(backend, |c| {
        c.sweep_interval_ms = 0;
        c.bot_poll_ms = 0;
    })
    .await;
    let tokens: Vec<String> = ["tw1", "tw2"]
        .iter()
        .map(|n| play::player(&app.pool, n))
        .collect();
    let answer = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "chinese-checkers", "seats": ["tw1", "tw2", "bot-1"], "on_leave": "bot"}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    post(
        &app,
        &format!("/v1/games/{id}/accept"),
        &tokens[1],
        json!({}),
    )
    .await;
    play_one(&app, id, &tokens).await;
    let view = play_one(&app, id, &tokens).await;
    assert_eq!(view["to_move"], 3);
    // The bot's own seat leaves the board when it runs out of time: no bot plays for a bot.
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    sweeps::sweep_once(&mut app.conn(), &ctx(&app), db::now()).unwrap();
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["departed"], json!([3]));
    assert_eq!(view["last_moves"][2]["move"], "timeout 3");
    // Two seats play: a resignation ends the game, as in any game.
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[1],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let view = resigned.body;
    assert_eq!(view["status"], "finished");
    assert_eq!(view["result"], "won 1");
    assert_eq!(view["result_reason"], "resignation");
    assert!(view["seats"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s.get("played_by").is_none()));
    assert_eq!(view["placings"], json!([1, 2, 3]));
    check_record(&app, id, &tokens[0], &view).await;
}

async fn on_leave_defaults_to_remove_and_is_checked(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (tokens, id) = table(&app, "ol", 3, json!({})).await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["on_leave"], "remove");
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!(resigned.body["last_moves"][0]["move"], "resign 3");
    assert!(resigned.body["seats"][2].get("played_by").is_none());
    let two = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "chinese-checkers", "seats": ["ol1", "ol2"], "on_leave": "bot"}),
    )
    .await;
    assert_eq!((two.status, two.error_code()), (422, "invalid_options"));
    assert!(
        two.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("three or more seats"),
        "{two:?}"
    );
    let bad = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "chinese-checkers", "seats": ["ol1", "ol2", "ol3"], "on_leave": "stay"}),
    )
    .await;
    assert_eq!(
        (bad.status, bad.error_code()),
        (422, "invalid_field"),
        "{bad:?}"
    );
    assert!(
        bad.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("expected `remove` or `bot`"),
        "{bad:?}"
    );
}
