//! Seats leaving Chinese Checkers games of three and six seats over HTTP, on both backends: a
//! resignation, a timeout found by a sweep, a late move after the deadline and a claim each
//! take the seat out, the game goes on, the others get one mail, the record replays, and the
//! placings rank the seats once it is over.
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
use turnpost_server::db::models::OutboxMail;
use turnpost_server::db::schema::{games, mail_outbox};
use turnpost_server::notifications::unsubscribe;
use turnpost_server::sweeps;
use turnpost_shared::GameRecord;

both_backends!(
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
