//! Open challenges and rematches over HTTP on both backends: posting with open seats, the
//! listing, joining and leaving, the start when every seat is filled, the lapse sweep and its
//! mail, the join limit, and rematches with the seats rotated.
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
use diesel::prelude::*;
use serde_json::{json, Value};
use turnpost_server::db::schema::games;
use turnpost_server::{db, sweeps};

both_backends!(
    an_open_seat_is_listed_joined_and_the_game_starts,
    open_seats_can_be_left_and_mix_with_named_seats,
    nobody_holds_two_seats_and_refusals_say_why,
    an_open_challenge_lapses_and_its_poster_is_told,
    joining_is_rate_limited,
    a_rematch_rotates_the_seats_and_is_made_once,
    five_open_challenges_wait_at_once_per_player,
    the_lobby_is_paged,
);

/// A mail's subject and decoded plain text.
fn text(mail: &common::Received) -> String {
    let parsed = mail_parser::MessageParser::default()
        .parse(mail.data.as_bytes())
        .unwrap();
    format!(
        "{}\n{}",
        parsed.subject().unwrap_or_default(),
        parsed.body_text(0).unwrap_or_default()
    )
}

/// Waits until a mail to `to` says `needle` (subject or text); returns its text.
async fn mail_saying(app: &TestApp, to: &str, needle: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        if let Some(found) = app
            .smtp
            .messages_to(to)
            .iter()
            .map(text)
            .find(|t| t.contains(needle))
        {
            return found;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no mail to {to} says {needle:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

fn ids(list: &Value) -> Vec<i64> {
    list["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_i64().unwrap())
        .collect()
}

async fn post_challenge(app: &TestApp, token: &str, body: Value) -> i64 {
    let answer = post(app, "/v1/games", token, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    assert_eq!(answer.body["status"], "invited");
    answer.body["id"].as_i64().unwrap()
}

async fn an_open_seat_is_listed_joined_and_the_game_starts(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "open"], "clock": "5d"}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let seats = &answer.body["seats"];
    assert_eq!(seats[0]["player"], "anna");
    assert_eq!(seats[0].get("open"), None);
    assert_eq!(seats[1]["player"], "open");
    assert_eq!(seats[1]["open"], true);
    assert_eq!(seats[1]["accepted"], false);

    // Listed for anyone, by kind too.
    let list = get(&app, "/v1/challenges", &bob).await;
    assert_eq!(list.status, 200, "{list:?}");
    assert_eq!(ids(&list.body), [id]);
    assert_eq!(list.body["challenges"][0]["clock"], "5d");
    let kefren = get(&app, "/v1/challenges?kind=Kefren", &bob).await;
    assert_eq!(ids(&kefren.body), [id]);
    let kechi = get(&app, "/v1/challenges?kind=kechi", &bob).await;
    assert_eq!(ids(&kechi.body), Vec::<i64>::new());
    let bad = get(&app, "/v1/challenges?kind=chess", &bob).await;
    assert_eq!((bad.status, bad.error_code()), (400, "bad_query"));
    assert!(bad.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("chess"));

    // The last seat taken starts the game: bob holds seat 2.
    let joined = post(&app, &format!("/v1/challenges/{id}/join"), &bob, json!({})).await;
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["status"], "active");
    assert_eq!(joined.body["your_seat"], 2);
    assert_eq!(joined.body["seats"][1]["player"], "bob");
    assert_eq!(joined.body["seats"][1].get("open"), None);
    assert_eq!(joined.body["to_move"], 1);
    // A retried join answers the same.
    let again = post(&app, &format!("/v1/challenges/{id}/join"), &bob, json!({})).await;
    assert_eq!(again.status, 200, "{again:?}");
    assert_eq!(again.body["your_seat"], 2);
    // No longer listed; the players got their mail (anna's turn card).
    let list = get(&app, "/v1/challenges", &bob).await;
    assert_eq!(ids(&list.body), Vec::<i64>::new());
    mail_saying(&app, "anna@example.org", &format!("#{id}")).await;
    // Play goes on as in any game.
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first_legal(&joined.body), "ply": 0}),
    )
    .await;
    assert_eq!(moved.status, 201, "{moved:?}");
}

/// The first legal move of the seat to move, from the position (the view lists legal moves
/// for the caller only).
fn first_legal(view: &Value) -> Value {
    let options = turnpost_shared::Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    let game =
        turnpost_shared::AnyGame::from_position_text(&options, view["position"].as_str().unwrap())
            .unwrap();
    json!(game.legal_moves()[0])
}

async fn open_seats_can_be_left_and_mix_with_named_seats(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let cleo = play::player(&app.pool, "cleo");
    let dora = play::player(&app.pool, "dora");
    // Three seats: anna, bob (named, must accept), one open.
    let id = post_challenge(
        &app,
        &anna,
        json!({"kind": "chinese-checkers", "seats": ["anna", "bob", "open"]}),
    )
    .await;
    // bob was invited: he hears of it; he cannot "leave" his named seat.
    app.smtp.wait_for("bob@example.org", 1).await;
    let leave = post(&app, &format!("/v1/challenges/{id}/leave"), &bob, json!({})).await;
    assert_eq!(
        (leave.status, leave.error_code()),
        (409, "not_an_open_seat")
    );
    assert!(leave.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("decline"));
    // cleo takes the open seat, then gives it up; it is listed again.
    let joined = post(&app, &format!("/v1/challenges/{id}/join"), &cleo, json!({})).await;
    assert_eq!(joined.status, 200, "{joined:?}");
    assert_eq!(joined.body["status"], "invited");
    assert_eq!(joined.body["your_seat"], 3);
    assert_eq!(
        ids(&get(&app, "/v1/challenges", &dora).await.body),
        Vec::<i64>::new()
    );
    let left = post(
        &app,
        &format!("/v1/challenges/{id}/leave"),
        &cleo,
        json!({}),
    )
    .await;
    assert_eq!(left.status, 200, "{left:?}");
    assert_eq!(left.body["your_seat"], Value::Null);
    assert_eq!(left.body["seats"][2]["open"], true);
    assert_eq!(ids(&get(&app, "/v1/challenges", &dora).await.body), [id]);
    let gone = post(
        &app,
        &format!("/v1/challenges/{id}/leave"),
        &cleo,
        json!({}),
    )
    .await;
    assert_eq!((gone.status, gone.error_code()), (403, "not_your_game"));
    // dora takes it; the game waits for bob, and starts when he accepts.
    let joined = post(&app, &format!("/v1/challenges/{id}/join"), &dora, json!({})).await;
    assert_eq!(joined.body["status"], "invited", "{joined:?}");
    // anna, the poster, hears that dora joined.
    mail_saying(&app, "anna@example.org", "dora").await;
    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bob, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert_eq!(accepted.body["status"], "active");
    let players: Vec<&str> = accepted.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["player"].as_str().unwrap())
        .collect();
    assert_eq!(players, ["anna", "bob", "dora"]);
    // Once started, nobody leaves through the open-seat door.
    let late = post(
        &app,
        &format!("/v1/challenges/{id}/leave"),
        &dora,
        json!({}),
    )
    .await;
    assert_eq!((late.status, late.error_code()), (409, "not_a_challenge"));
}

async fn nobody_holds_two_seats_and_refusals_say_why(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let cleo = play::player(&app.pool, "cleo");
    let id = post_challenge(
        &app,
        &anna,
        json!({"kind": "chinese-checkers", "seats": ["anna", "open", "open"]}),
    )
    .await;
    let own = post(&app, &format!("/v1/challenges/{id}/join"), &anna, json!({})).await;
    assert_eq!((own.status, own.error_code()), (409, "already_seated"));
    let joined = post(&app, &format!("/v1/challenges/{id}/join"), &bob, json!({})).await;
    assert_eq!(joined.body["your_seat"], 2, "{joined:?}");
    // bob again: the same seat, not a second one.
    let again = post(&app, &format!("/v1/challenges/{id}/join"), &bob, json!({})).await;
    assert_eq!(again.body["your_seat"], 2, "{again:?}");
    assert_eq!(again.body["seats"][2]["open"], true);
    let joined = post(&app, &format!("/v1/challenges/{id}/join"), &cleo, json!({})).await;
    assert_eq!(joined.body["status"], "active", "{joined:?}");
    // Unknown games, full ones and named-only challenges.
    let unknown = post(&app, "/v1/challenges/999999/join", &cleo, json!({})).await;
    assert_eq!(unknown.status, 404, "{unknown:?}");
    let named = post_challenge(
        &app,
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bob"]}),
    )
    .await;
    let none = post(
        &app,
        &format!("/v1/challenges/{named}/join"),
        &cleo,
        json!({}),
    )
    .await;
    assert_eq!((none.status, none.error_code()), (409, "no_open_seat"));
    // A seat "open" twice is fine; the poster cannot be "open"; nobody may be called "open".
    let only_open = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["open", "open"]}),
    )
    .await;
    assert_eq!(
        (only_open.status, only_open.error_code()),
        (422, "creator_not_seated")
    );
    let signup = app
        .post(
            "/v1/accounts",
            &json!({"name": "Open", "email": "open@example.org"}),
        )
        .await;
    assert_eq!(signup.status, 422, "{signup:?}");
    assert!(signup.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("open seat"));
    // Without a token: 401.
    let anonymous = app.get("/v1/challenges", None).await;
    assert_eq!(anonymous.status, 401);
}

async fn an_open_challenge_lapses_and_its_poster_is_told(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let old = post_challenge(
        &app,
        &anna,
        json!({"kind": "sanqi", "seats": ["anna", "open"]}),
    )
    .await;
    let fresh = post_challenge(
        &app,
        &anna,
        json!({"kind": "kefren", "seats": ["open", "anna"]}),
    )
    .await;
    let eight_days_ago = db::now() - chrono::Duration::days(8);
    diesel::update(games::table.find(old))
        .set(games::created_at.eq(eight_days_ago))
        .execute(&mut *app.conn())
        .unwrap();
    // Past its time it is no longer listed, nor joinable.
    assert_eq!(ids(&get(&app, "/v1/challenges", &bob).await.body), [fresh]);
    let late = post(&app, &format!("/v1/challenges/{old}/join"), &bob, json!({})).await;
    assert_eq!((late.status, late.error_code()), (409, "challenge_expired"));
    // The sweep records it, once, and anna is told.
    let ctx = app.mail_context();
    let report = sweeps::sweep_once(&mut app.conn(), &ctx, db::now()).unwrap();
    assert_eq!(report.lapsed, 1, "{report:?}");
    let report = sweeps::sweep_once(&mut app.conn(), &ctx, db::now()).unwrap();
    assert_eq!(report.lapsed, 0, "{report:?}");
    let shown = get(&app, &format!("/v1/games/{old}"), &anna).await.body;
    assert_eq!(shown["status"], "cancelled");
    assert_eq!(shown["result_reason"], "expired");
    app.game_mail_composed().await;
    let lapsed = mail_saying(&app, "anna@example.org", "Nobody took the open seat").await;
    assert!(lapsed.contains(&format!("#{old}")), "{lapsed}");
    let told = app
        .smtp
        .messages_to("anna@example.org")
        .iter()
        .filter(|m| text(m).contains("Nobody took"))
        .count();
    assert_eq!(told, 1);
    // The fresh one is untouched.
    let shown = get(&app, &format!("/v1/games/{fresh}"), &anna).await.body;
    assert_eq!(shown["status"], "invited");
}

async fn joining_is_rate_limited(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.challenges_per_hour = 2).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let mut posted = Vec::new();
    for _ in 0..2 {
        posted.push(
            post_challenge(
                &app,
                &anna,
                json!({"kind": "chinese-checkers", "seats": ["anna", "open", "open"]}),
            )
            .await,
        );
    }
    // Posting counts as a challenge sent: anna's third is refused.
    let third = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "open"]}),
    )
    .await;
    assert_eq!(third.status, 429, "{third:?}");
    for id in &posted {
        let joined = post(&app, &format!("/v1/challenges/{id}/join"), &bob, json!({})).await;
        assert_eq!(joined.status, 200, "{joined:?}");
    }
    let refused = post(
        &app,
        &format!("/v1/challenges/{}/join", posted[0]),
        &bob,
        json!({}),
    )
    .await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert!(refused.headers.contains_key("retry-after"));
}

async fn a_rematch_rotates_the_seats_and_is_made_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let cleo = play::player(&app.pool, "cleo");
    let id = post_challenge(
        &app,
        &anna,
        json!({"kind": "kechi", "seats": ["anna", "bob"], "clock": "7d+1d/14d",
               "timeout": "claim", "options": {"total": "die"}}),
    )
    .await;
    let early = post(&app, &format!("/v1/games/{id}/rematch"), &anna, json!({})).await;
    assert_eq!((early.status, early.error_code()), (409, "not_finished"));
    post(&app, &format!("/v1/games/{id}/accept"), &bob, json!({})).await;
    let resigned = post(&app, &format!("/v1/games/{id}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.body["status"], "finished", "{resigned:?}");
    let before = resigned.body;

    let outsider = post(&app, &format!("/v1/games/{id}/rematch"), &cleo, json!({})).await;
    assert_eq!(
        (outsider.status, outsider.error_code()),
        (403, "not_your_game")
    );
    let rematch = post(&app, &format!("/v1/games/{id}/rematch"), &anna, json!({})).await;
    assert_eq!(rematch.status, 201, "{rematch:?}");
    let view = &rematch.body;
    let new_id = view["id"].as_i64().unwrap();
    assert_ne!(new_id, id);
    assert_eq!(view["status"], "invited");
    assert_eq!(view["kind"], "kechi");
    assert_eq!(view["clock"], before["clock"]);
    assert_eq!(view["timeout"], "claim");
    assert_eq!(view["options"]["total"], "die");
    // The seats rotated: bob moves first now; anna (who asked) accepted already.
    assert_eq!(view["seats"][0]["player"], "bob");
    assert_eq!(view["seats"][1]["player"], "anna");
    assert_eq!(view["seats"][1]["accepted"], true);
    assert_eq!(view["seats"][0]["accepted"], false);
    // bob asking too answers the same challenge.
    let again = post(&app, &format!("/v1/games/{id}/rematch"), &bob, json!({})).await;
    assert_eq!(again.status, 200, "{again:?}");
    assert_eq!(again.body["id"], new_id);
    // bob is invited by mail and accepts as usual; a new dice seed is drawn.
    mail_saying(&app, "bob@example.org", &format!("#{new_id}")).await;
    let accepted = post(&app, &format!("/v1/games/{new_id}/accept"), &bob, json!({})).await;
    assert_eq!(accepted.body["status"], "active", "{accepted:?}");
    assert_eq!(accepted.body["to_move"], 1);
    assert_ne!(accepted.body["seed_sha256"], before["seed_sha256"]);
}

/// One player may have 5 open challenges waiting (issue 48): a sixth is refused with a clear
/// 409; once one is taken, another may be posted; challenges naming every seat are not capped.
async fn five_open_challenges_wait_at_once_per_player(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.challenges_per_hour = 100).await;
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let seek = json!({"kind": "kefren", "seats": ["anna", "open"]});
    let mut posted = Vec::new();
    for _ in 0..5 {
        posted.push(post_challenge(&app, &anna, seek.clone()).await);
    }
    // The page of a waiting challenge names the open seat, and links no player page for it.
    let page = reqwest::get(format!("{}/games/{}", app.base, posted[1]))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("open seat"), "{page}");
    assert!(!page.contains("/players/open"), "{page}");
    let sixth = post(&app, "/v1/games", &anna, seek.clone()).await;
    assert_eq!(sixth.status, 409, "{sixth:?}");
    assert_eq!(sixth.error_code(), "open_challenges_limit", "{sixth:?}");
    let message = sixth.body["error"]["message"].as_str().unwrap();
    assert!(message.contains("5 open challenges waiting"), "{message}");
    // A named challenge is not an open one.
    let named = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bob"]}),
    )
    .await;
    assert_eq!(named.status, 201, "{named:?}");
    // bob takes one: anna may post again.
    let joined = post(
        &app,
        &format!("/v1/challenges/{}/join", posted[0]),
        &bob,
        json!({}),
    )
    .await;
    assert_eq!(joined.status, 200, "{joined:?}");
    post_challenge(&app, &anna, seek).await;
}

/// The lobby a page (50) at a time, newest first (issue 48, point 10): `next_before` names the
/// next page on the API, "Older challenges" on the page; a bad `before` is refused.
async fn the_lobby_is_paged(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.challenges_per_hour = 100).await;
    let viewer = play::player(&app.pool, "viewer");
    let mut posted = Vec::new();
    // 51 open challenges from 11 players (5 each at most), the last of one kind only.
    for n in 0..11 {
        let name = format!("poster{n}");
        let token = play::player(&app.pool, &name);
        for _ in 0..(if n == 10 { 1 } else { 5 }) {
            let kind = if n == 10 { "sanqi" } else { "kefren" };
            posted.push(
                post_challenge(&app, &token, json!({"kind": kind, "seats": [name, "open"]})).await,
            );
        }
    }
    posted.sort_unstable_by(|a, b| b.cmp(a));
    let first = get(&app, "/v1/challenges", &viewer).await;
    assert_eq!(first.status, 200, "{first:?}");
    assert_eq!(ids(&first.body), posted[..50].to_vec(), "the newest 50");
    let next = first.body["next_before"].as_i64().unwrap();
    assert_eq!(next, posted[49]);
    let second = get(&app, &format!("/v1/challenges?before={next}"), &viewer).await;
    assert_eq!(ids(&second.body), posted[50..].to_vec(), "the rest");
    assert!(
        second.body.get("next_before").is_none(),
        "{:?}",
        second.body
    );
    let sanqi = get(&app, "/v1/challenges?kind=sanqi", &viewer).await;
    assert_eq!(ids(&sanqi.body).len(), 1);
    assert!(sanqi.body.get("next_before").is_none());
    for bad in ["0", "-3", "x"] {
        let refused = get(&app, &format!("/v1/challenges?before={bad}"), &viewer).await;
        assert_eq!(refused.status, 400, "before={bad}: {refused:?}");
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.contains("a challenge id"), "{message}");
    }
    // The page: 50 listed and a link to the rest, which lists one and links back.
    let page = reqwest::get(format!("{}/challenges", app.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(page.matches("<li>").count(), 50, "{page}");
    let older = format!("href=\"/challenges?before={next}\"");
    assert!(page.contains(&older), "{page}");
    let page = reqwest::get(format!("{}/challenges?before={next}", app.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(&format!("/games/{}", posted[50])), "{page}");
    assert!(page.contains("« Newest"), "{page}");
    assert!(!page.contains("Older challenges"), "{page}");
    let bad = reqwest::get(format!("{}/challenges?before=abc", app.base))
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
}
