//! Clocks, reminders, timeouts, vacations, notification preferences, digests and unsubscribe
//! links, on both backends. Time is moved by writing deadlines into the database (and by
//! calling the sweeps with a chosen "now"); the mail is counted in the outbox and at the SMTP
//! server.
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
use std::time::{Duration as StdDuration, Instant};

use chrono::{Duration, NaiveDateTime};
use common::{get, patch, post, Answer, Backend, TestApp};
use diesel::prelude::*;
use reqwest::Method;
use serde_json::{json, Value};
use turnpost_server::accounts::MailContext;
use turnpost_server::db;
use turnpost_server::db::outbox::OutboxMail;
use turnpost_server::db::schema::{games, mail_outbox};
use turnpost_server::preferences::{unsubscribe, Category};
use turnpost_server::sweeps;

both_backends!(
    clocks_are_chosen_in_the_challenge,
    fischer_banks_run_down_and_grow,
    auto_timeout_ends_the_game_and_mails_each_player_once,
    a_late_move_ends_the_game_on_time,
    claim_mode_tells_the_opponent_and_lets_them_claim,
    reminders_come_once_each,
    vacation_pauses_the_clocks,
    vacation_days_renew_with_the_calendar_year,
    preferences_are_read_and_changed,
    turn_mail_follows_the_preferences,
    digest_comes_once_a_day_at_the_local_hour,
    unsubscribe_links_need_no_login_and_cannot_be_forged,
);

/// Two players (`{prefix}a` to move first, `{prefix}b`) and a started Kefren game with `extra`
/// in the challenge; returns (tokens, game id).
async fn two_player_game(app: &TestApp, prefix: &str, extra: Value) -> ([String; 2], i64) {
    let a = play::player(&app.pool, &format!("{prefix}a"));
    let b = play::player(&app.pool, &format!("{prefix}b"));
    let mut body = json!({"kind": "kefren", "seats": [format!("{prefix}a"), format!("{prefix}b")]});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let answer = post(app, "/v1/games", &a, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let answer = post(app, &format!("/v1/games/{id}/accept"), &b, json!({})).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    ([a, b], id)
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

fn parse_time(text: &Value) -> NaiveDateTime {
    chrono::DateTime::parse_from_rfc3339(text.as_str().unwrap())
        .unwrap()
        .naive_utc()
}

fn set_deadline(app: &TestApp, id: i64, deadline: NaiveDateTime) {
    let mut conn = app.conn();
    diesel::update(games::table.find(id))
        .set(games::deadline_at.eq(Some(deadline)))
        .execute(&mut *conn)
        .unwrap();
}

fn outbox_to(app: &TestApp, email: &str) -> Vec<OutboxMail> {
    app.game_mail_queued();
    let mut conn = app.conn();
    mail_outbox::table
        .filter(mail_outbox::recipient.eq(email))
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .load(&mut *conn)
        .unwrap()
}

fn email(name: &str) -> String {
    format!("{name}@example.org")
}

fn sweep(app: &TestApp, now: NaiveDateTime) -> sweeps::SweepReport {
    let mut conn = app.conn();
    sweeps::sweep_once(&mut conn, &ctx(app), now).unwrap()
}

async fn clocks_are_chosen_in_the_challenge(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (tokens, id) = two_player_game(&app, "cd", json!({})).await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["clock"], "3d");
    assert_eq!(view["timeout"], "auto");
    assert_eq!(view["claimable"], false);
    let left = parse_time(&view["deadline"]) - db::now();
    assert!(
        left > Duration::days(3) - Duration::minutes(1) && left <= Duration::days(3),
        "{left}"
    );

    let (tokens, id) =
        two_player_game(&app, "ce", json!({"clock": " 7D ", "timeout": "claim"})).await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
    assert_eq!(view["clock"], "7d");
    assert_eq!(view["timeout"], "claim");
    let listed = get(&app, "/v1/games?status=active", &tokens[1]).await.body;
    assert_eq!(listed["games"][0]["deadline"], view["deadline"]);

    for (clock, needle) in [
        ("0d", "1 to 30"),
        ("31d", "1 to 30"),
        ("3 hours", "like `3d`"),
        ("7d+1d/3d", "maximum bank"),
    ] {
        let answer = post(
            &app,
            "/v1/games",
            &tokens[0],
            json!({"kind": "kefren", "seats": ["cea", "ceb"], "clock": clock}),
        )
        .await;
        assert_eq!(answer.status, 422, "{answer:?}");
        assert_eq!(answer.error_code(), "invalid_clock");
        assert!(
            answer.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains(needle),
            "{answer:?}"
        );
    }
    let answer = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "kefren", "seats": ["cea", "ceb"], "timeout": "never"}),
    )
    .await;
    assert_eq!(answer.status, 422);
    assert_eq!(answer.error_code(), "invalid_timeout");
}

async fn fischer_banks_run_down_and_grow(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (tokens, id) = two_player_game(&app, "fi", json!({"clock": "2d+1d/3d"})).await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["clock"], "2d+1d/3d");
    for seat in view["seats"].as_array().unwrap() {
        assert_eq!(seat["bank_seconds"], 2 * 86_400);
    }
    // Seat 1 used all but 12 hours of its 2 days: 12 h + 1 day are banked.
    set_deadline(&app, id, db::now() + Duration::hours(12));
    let mv = view["legal_moves"][0].as_str().unwrap().to_owned();
    let answer = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &tokens[0],
        json!({"move": mv, "ply": 0}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let bank = answer.body["seats"][0]["bank_seconds"].as_i64().unwrap();
    assert!((36 * 3600 - 60..=36 * 3600).contains(&bank), "{bank}");
    // Seat 2 now has its own 2 days.
    let left = parse_time(&answer.body["deadline"]) - db::now();
    assert!(
        left > Duration::days(2) - Duration::minutes(1) && left <= Duration::days(2),
        "{left}"
    );
    // A quick move by seat 2: 2 days + 1 day is capped at 3 days.
    let played = play_first_move(&app, &tokens[1], id, 1).await;
    let bank = played["seats"][1]["bank_seconds"].as_i64().unwrap();
    assert!((3 * 86_400 - 60..=3 * 86_400).contains(&bank), "{bank}");
    // Seat 1 plays on its banked 36 hours.
    let left = parse_time(&played["deadline"]) - db::now();
    assert!(
        left > Duration::hours(36) - Duration::minutes(2) && left <= Duration::hours(36),
        "{left}"
    );
}

async fn auto_timeout_ends_the_game_and_mails_each_player_once(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (tokens, id) = two_player_game(&app, "to", json!({})).await;
    let before = [
        outbox_to(&app, &email("toa")).len(),
        outbox_to(&app, &email("tob")).len(),
    ];
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    // The server's own sweeper (every 100 ms in tests) ends it.
    let mut view = Value::Null;
    let deadline = Instant::now() + StdDuration::from_secs(15);
    while view["status"] != "finished" {
        assert!(
            Instant::now() < deadline,
            "the game did not time out: {view}"
        );
        tokio::time::sleep(StdDuration::from_millis(50)).await;
        view = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
    }
    assert_eq!(view["result"], "won 2");
    assert_eq!(view["result_reason"], "timeout");
    assert_eq!(view["deadline"], Value::Null);
    // More sweeps, by the server and by hand, change nothing.
    assert_eq!(sweep(&app, db::now()), sweeps::SweepReport::default());
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    for (name, before) in [("toa", before[0]), ("tob", before[1])] {
        let mails = outbox_to(&app, &email(name));
        let new = mails.len() - before;
        assert_eq!(new, 1, "{name} got {new} mails for the timeout");
        // The ending mail says why it ended: a timeout, not a plain game over.
        let ending = &mails.last().unwrap().body_text;
        assert!(ending.contains("ran out"), "{ending}");
        assert!(ending.contains("on time"), "{ending}");
        // Every queued mail arrives over SMTP, the timeout mail once.
        let queued = outbox_to(&app, &email(name)).len();
        let arrived = app.smtp.wait_for(&email(name), queued).await;
        assert_eq!(arrived.len(), queued);
    }
    tokio::time::sleep(StdDuration::from_millis(300)).await;
    for name in ["toa", "tob"] {
        assert_eq!(
            app.smtp.messages_to(&email(name)).len(),
            outbox_to(&app, &email(name)).len(),
            "no mail twice"
        );
    }
    let answer = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &tokens[0],
        json!({"move": "F2-F3", "ply": 0}),
    )
    .await;
    assert_eq!(answer.status, 409);
    assert_eq!(answer.error_code(), "game_over");
}

async fn a_late_move_ends_the_game_on_time(backend: Backend) {
    // No sweeper: the move itself finds the deadline passed.
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, id) = two_player_game(&app, "lm", json!({})).await;
    let before = outbox_to(&app, &email("lmb")).len();
    set_deadline(&app, id, db::now() - Duration::seconds(1));
    let answer = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &tokens[0],
        json!({"move": "F2-F3", "ply": 0}),
    )
    .await;
    assert_eq!(answer.status, 409, "{answer:?}");
    assert_eq!(answer.error_code(), "game_over");
    assert!(
        answer.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("ran out of time"),
        "{answer:?}"
    );
    assert_eq!(answer.body["game"]["status"], "finished");
    assert_eq!(answer.body["game"]["result"], "won 2");
    assert_eq!(
        answer.body["game"]["ply"], 0,
        "the late move was not played"
    );
    assert_eq!(outbox_to(&app, &email("lmb")).len(), before + 1);
    // The sweep finds nothing left to do.
    assert_eq!(sweep(&app, db::now()), sweeps::SweepReport::default());
}

/// `POST /v1/games/{id}/claim` as the player holding `token`.
async fn claim(app: &TestApp, token: &str, id: i64) -> Answer {
    post(app, &format!("/v1/games/{id}/claim"), token, json!({})).await
}

async fn claim_mode_tells_the_opponent_and_lets_them_claim(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, id) = two_player_game(&app, "cl", json!({"timeout": "claim"})).await;
    let answer = claim(&app, &tokens[1], id).await;
    assert_eq!(answer.status, 409);
    assert_eq!(answer.error_code(), "not_claimable");
    assert!(answer.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("has time until"));

    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let before = outbox_to(&app, &email("clb")).len();
    let mover_before = outbox_to(&app, &email("cla")).len();
    let report = sweep(&app, db::now());
    assert_eq!(report.claimable, 1);
    assert_eq!(report.timed_out, 0);
    assert_eq!(sweep(&app, db::now()).claimable, 0, "the notice goes once");
    let mails = outbox_to(&app, &email("clb"));
    assert_eq!(mails.len(), before + 1);
    assert!(mails
        .last()
        .unwrap()
        .body_text
        .contains(&format!("turnpost claim {id}")));
    assert_eq!(outbox_to(&app, &email("cla")).len(), mover_before);

    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["status"], "active", "claim mode waits for a claim");
    assert_eq!(view["claimable"], false, "not for the player who is late");
    let answer = claim(&app, &tokens[0], id).await;
    assert_eq!(answer.status, 409);
    assert!(answer.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("your turn"));

    let view = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
    assert_eq!(view["claimable"], true);
    let answer = claim(&app, &tokens[1], id).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["result"], "won 2");
    assert_eq!(answer.body["result_reason"], "timeout");
    let answer = claim(&app, &tokens[1], id).await;
    assert_eq!(answer.status, 409);
    assert_eq!(answer.error_code(), "not_active");

    // In auto mode there is nothing to claim.
    let (tokens, id) = two_player_game(&app, "cm", json!({})).await;
    set_deadline(&app, id, db::now() - Duration::minutes(1));
    let answer = claim(&app, &tokens[1], id).await;
    assert_eq!(answer.status, 409);
    assert!(answer.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("timeout mode auto"));
}

async fn reminders_come_once_each(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (_, id) = two_player_game(&app, "re", json!({})).await;
    let mails = |app: &TestApp| outbox_to(app, &email("rea")).len();
    let start = mails(&app);
    let now = db::now();
    // Three days left: nothing.
    assert_eq!(sweep(&app, now).reminded, 0);
    set_deadline(&app, id, now + Duration::hours(20));
    assert_eq!(sweep(&app, now).reminded, 1);
    assert_eq!(sweep(&app, now).reminded, 0);
    assert_eq!(mails(&app), start + 1);
    let reminder = outbox_to(&app, &email("rea")).pop().unwrap();
    assert!(
        reminder
            .body_text
            .contains(&format!("turnpost move {id} --ply 0")),
        "{}",
        reminder.body_text
    );
    assert!(
        reminder.body_text.contains("20 h"),
        "{}",
        reminder.body_text
    );
    set_deadline(&app, id, now + Duration::minutes(90));
    assert_eq!(sweep(&app, now).reminded, 1);
    assert_eq!(sweep(&app, now).reminded, 0);
    assert_eq!(mails(&app), start + 2);
    assert_eq!(
        outbox_to(&app, &email("reb")).len(),
        1,
        "only the challenge-accepted mail"
    );

    // A game already inside both windows gets the 2 h reminder only.
    let (_, id) = two_player_game(&app, "rf", json!({})).await;
    let start = outbox_to(&app, &email("rfa")).len();
    set_deadline(&app, id, now + Duration::hours(1));
    assert_eq!(sweep(&app, now).reminded, 1);
    assert_eq!(sweep(&app, now).reminded, 0);
    assert_eq!(outbox_to(&app, &email("rfa")).len(), start + 1);

    // Turn mail off is not reminders off: each switch does what it says.
    let (tokens, id) = two_player_game(&app, "rh", json!({})).await;
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &tokens[0],
        json!({"turn_mail": "off"}),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["categories"]["reminders"], true);
    let start = outbox_to(&app, &email("rha")).len();
    set_deadline(&app, id, now + Duration::hours(1));
    assert_eq!(sweep(&app, now).reminded, 1);
    let reminders = outbox_to(&app, &email("rha"));
    assert_eq!(reminders.len(), start + 1, "a reminder with turn mail off");

    // With reminders switched off, none.
    let (tokens, id) = two_player_game(&app, "rg", json!({})).await;
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &tokens[0],
        json!({"categories": {"reminders": false}}),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let start = outbox_to(&app, &email("rga")).len();
    set_deadline(&app, id, now + Duration::hours(1));
    assert_eq!(sweep(&app, now).reminded, 1, "the game counts as reminded");
    assert_eq!(outbox_to(&app, &email("rga")).len(), start);
}

async fn vacation_pauses_the_clocks(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, id) = two_player_game(&app, "va", json!({})).await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    let deadline = parse_time(&view["deadline"]);

    let answer = get(&app, "/v1/me/vacation", &tokens[0]).await;
    assert_eq!(answer.body["days_left"], 15);
    assert_eq!(answer.body["until"], Value::Null);
    let answer = post(&app, "/v1/me/vacation", &tokens[0], json!({"days": 5})).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["days_used"], 5);
    assert_eq!(answer.body["days_left"], 10);
    let until = parse_time(&answer.body["until"]);
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(
        parse_time(&view["deadline"]),
        deadline + Duration::days(5),
        "my clock paused"
    );

    // A game that starts during my vacation with me to move: my days start when it ends.
    let challenger = play::player(&app.pool, "vb");
    let answer = post(
        &app,
        "/v1/games",
        &challenger,
        json!({"kind": "kefren", "seats": ["vaa", "vb"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let late = answer.body["id"].as_i64().unwrap();
    let answer = post(
        &app,
        &format!("/v1/games/{late}/accept"),
        &tokens[0],
        json!({}),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(
        parse_time(&answer.body["deadline"]),
        until + Duration::days(3)
    );

    // The opponent's clock does not pause: its turn starts now.
    let played = play_first_move(&app, &tokens[0], late, 0).await;
    let left = parse_time(&played["deadline"]) - db::now();
    assert!(left <= Duration::days(3) && left > Duration::days(3) - Duration::minutes(1));

    let answer = post(&app, "/v1/me/vacation", &tokens[0], json!({"days": 11})).await;
    assert_eq!(answer.status, 409);
    assert_eq!(answer.error_code(), "vacation_exhausted");
    assert!(answer.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("10 of 15"));
    let answer = post(&app, "/v1/me/vacation", &tokens[0], json!({"days": 0})).await;
    assert_eq!(answer.error_code(), "invalid_vacation");
    // More days extend the running vacation.
    let answer = post(&app, "/v1/me/vacation", &tokens[0], json!({"days": 2})).await;
    assert_eq!(parse_time(&answer.body["until"]), until + Duration::days(2));
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(parse_time(&view["deadline"]), deadline + Duration::days(7));

    // Seat 1 moves; when the turn comes back to seat 1 during the vacation, its 3 days start
    // when the vacation ends.
    let played = play_first_move(&app, &tokens[0], id, 0).await;
    let opponent_left = parse_time(&played["deadline"]) - db::now();
    assert!(
        opponent_left <= Duration::days(3)
            && opponent_left > Duration::days(3) - Duration::minutes(1)
    );
    let played = play_first_move(&app, &tokens[1], id, 1).await;
    assert_eq!(
        parse_time(&played["deadline"]),
        until + Duration::days(2) + Duration::days(3)
    );
}

/// The allowance counts the days of the current UTC calendar year only. The server reads the
/// real clock, so "last year" is made by writing the account's vacation row with last year's
/// number (its vacation ended on 31 December), as a server that ran through New Year would
/// have left it.
async fn vacation_days_renew_with_the_calendar_year(backend: Backend) {
    use chrono::Datelike;
    use turnpost_server::db::clocks::VacationRow;
    use turnpost_server::db::schema::{accounts, vacations};

    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let token = play::player(&app.pool, "vny");
    let this_year = db::now().year();
    let account_id: i64 = accounts::table
        .filter(accounts::name.eq("vny"))
        .select(accounts::id)
        .first(&mut *app.conn())
        .unwrap();
    let new_year = chrono::NaiveDate::from_ymd_opt(this_year, 1, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap();
    diesel::insert_into(vacations::table)
        .values(&VacationRow {
            account_id,
            year: this_year - 1,
            days_used: 15,
            until_at: Some(new_year - Duration::hours(1)),
        })
        .execute(&mut *app.conn())
        .unwrap();

    // Last year's 15 days do not count: this year's 15 are all there.
    let answer = get(&app, "/v1/me/vacation", &token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["year"], this_year);
    assert_eq!(answer.body["days_used"], 0);
    assert_eq!(answer.body["days_left"], 15);
    assert_eq!(
        answer.body["until"],
        Value::Null,
        "last year's vacation is over"
    );
    let answer = post(&app, "/v1/me/vacation", &token, json!({"days": 15})).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["days_used"], 15);
    assert_eq!(answer.body["days_left"], 0);

    // The row now counts this year: no day more until the next one.
    let stored: VacationRow = vacations::table
        .find(account_id)
        .first(&mut *app.conn())
        .unwrap();
    assert_eq!((stored.year, stored.days_used), (this_year, 15));
    let answer = post(&app, "/v1/me/vacation", &token, json!({"days": 1})).await;
    assert_eq!(answer.status, 409, "{answer:?}");
    assert_eq!(answer.error_code(), "vacation_exhausted");
}

async fn preferences_are_read_and_changed(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, id) = two_player_game(&app, "pr", json!({})).await;
    let other = play::player(&app.pool, "prc");
    let answer = get(&app, "/v1/me/notifications", &tokens[0]).await;
    assert_eq!(answer.status, 200);
    assert_eq!(
        answer.body,
        json!({"time_zone": "UTC", "turn_mail": "immediate", "digest_hour": 8,
               "categories": {"challenges": true, "challenge_replies": true, "game_over": true,
                              "draw_offers": true, "reminders": true,
                              "mail_confirmations": true},
               "muted_games": [],
               "webhooks": {"turn": true, "challenges": true, "challenge_replies": true,
                            "game_over": true, "draw_offers": true},
               "push": {"turn": true, "challenges": true, "challenge_replies": true,
                        "game_over": true, "draw_offers": true}})
    );
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &tokens[0],
        json!({
        "time_zone": "America/New_York", "turn_mail": "digest", "digest_hour": 19,
        "categories": {"draw_offers": false}, "mute": [id]}),
    )
    .await;
    assert_eq!(answer.status, 200, "{answer:?}");
    assert_eq!(answer.body["time_zone"], "America/New_York");
    assert_eq!(answer.body["turn_mail"], "digest");
    assert_eq!(answer.body["digest_hour"], 19);
    assert_eq!(answer.body["categories"]["draw_offers"], false);
    assert_eq!(answer.body["categories"]["game_over"], true);
    assert_eq!(answer.body["muted_games"], json!([id]));
    assert_eq!(
        get(&app, "/v1/me/notifications", &tokens[0]).await.body,
        answer.body
    );
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &tokens[0],
        json!({"unmute": [id]}),
    )
    .await;
    assert_eq!(answer.body["muted_games"], json!([]));
    assert_eq!(answer.body["turn_mail"], "digest", "untouched fields stay");

    for (body, code, needle) in [
        (
            json!({"time_zone": "Mars/Olympus"}),
            "invalid_time_zone",
            "Mars/Olympus",
        ),
        (json!({"digest_hour": 24}), "invalid_digest_hour", "0 to 23"),
        (json!({"mute": [id]}), "not_your_game", "no seat"),
    ] {
        let answer = patch(&app, "/v1/me/notifications", &other, body).await;
        assert_eq!(answer.status, 422, "{answer:?}");
        assert_eq!(answer.error_code(), code);
        assert!(
            answer.body["error"]["message"]
                .as_str()
                .unwrap()
                .contains(needle),
            "{answer:?}"
        );
    }
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &other,
        json!({"turn_mail": "sometimes"}),
    )
    .await;
    assert_eq!(answer.status, 422, "{answer:?}");
    assert_eq!(answer.error_code(), "invalid_field");
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &other,
        json!({"colour": "blue"}),
    )
    .await;
    assert_eq!(answer.status, 422, "{answer:?}");
    assert_eq!(answer.error_code(), "invalid_field");
    assert_eq!(
        get(&app, "/v1/me/notifications", &other).await.body["turn_mail"],
        "immediate"
    );
}

/// The player of `token` plays its first legal move at `ply`; returns the answer's game.
async fn play_first_move(app: &TestApp, token: &str, id: i64, ply: u64) -> Value {
    let view = get(app, &format!("/v1/games/{id}"), token).await.body;
    let mv = view["legal_moves"][0].as_str().unwrap().to_owned();
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    answer.body
}

async fn turn_mail_follows_the_preferences(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, id) = two_player_game(&app, "tm", json!({})).await;
    let seat_2_mails = |app: &TestApp| outbox_to(app, &email("tmb")).len();
    // Seat 2 changes its settings, seat 1 moves (does seat 2 get a turn card?), seat 2 answers.
    for (ply, settings, cards, why) in [
        (0, json!({}), 1, "immediate"),
        (2, json!({"turn_mail": "digest"}), 0, "digest"),
        (
            4,
            json!({"turn_mail": "immediate", "mute": [id]}),
            0,
            "muted",
        ),
        (6, json!({"unmute": [id], "turn_mail": "off"}), 0, "off"),
    ] {
        let answer = patch(&app, "/v1/me/notifications", &tokens[1], settings).await;
        assert_eq!(answer.status, 200, "{answer:?}");
        let before = seat_2_mails(&app);
        play_first_move(&app, &tokens[0], id, ply).await;
        assert_eq!(seat_2_mails(&app) - before, cards, "{why}");
        play_first_move(&app, &tokens[1], id, ply + 1).await;
    }
    // The game-over mail still comes to a player who muted the game.
    let answer = patch(
        &app,
        "/v1/me/notifications",
        &tokens[1],
        json!({"mute": [id]}),
    )
    .await;
    assert_eq!(answer.status, 200);
    let before = seat_2_mails(&app);
    let answer = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[0],
        json!({}),
    )
    .await;
    assert_eq!(answer.status, 200);
    assert_eq!(seat_2_mails(&app), before + 1);
}

fn at(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").unwrap()
}

async fn digest_comes_once_a_day_at_the_local_hour(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    // Tokyo (UTC+9) and New York (UTC-5 in January), both at 08:00 local.
    let (tokyo, g1) = two_player_game(&app, "dt", json!({})).await;
    let (york, g2) = two_player_game(&app, "dy", json!({})).await;
    // A second game for the Tokyo player, with a nearer deadline: listed first.
    let answer = post(
        &app,
        "/v1/games",
        &tokyo[0],
        json!({"kind": "sanqi", "seats": ["dta", "dtb"]}),
    )
    .await;
    let g3 = answer.body["id"].as_i64().unwrap();
    assert_eq!(
        post(
            &app,
            &format!("/v1/games/{g3}/accept"),
            &tokyo[1],
            json!({})
        )
        .await
        .status,
        200
    );
    set_deadline(&app, g1, at("2027-01-20 00:00"));
    set_deadline(&app, g3, at("2027-01-12 00:00"));
    set_deadline(&app, g2, at("2027-01-15 00:00"));
    for (token, zone) in [(&tokyo[0], "Asia/Tokyo"), (&york[0], "America/New_York")] {
        let answer = patch(
            &app,
            "/v1/me/notifications",
            token,
            json!({"turn_mail": "digest", "time_zone": zone, "digest_hour": 8}),
        )
        .await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    let tokyo_mails = |app: &TestApp| outbox_to(app, &email("dta")).len();
    let york_mails = |app: &TestApp| outbox_to(app, &email("dya")).len();
    let (t0, y0) = (tokyo_mails(&app), york_mails(&app));
    // A digest goes at or after the local hour, once per local day (a server that was down at
    // that hour catches up later the same day).
    // 12:00 UTC on Jan 9 = 21:00 Jan 9 in Tokyo (due), 07:00 in New York (not yet).
    assert_eq!(sweep(&app, at("2027-01-09 12:00")).digests, 1);
    assert_eq!((tokyo_mails(&app), york_mails(&app)), (t0 + 1, y0));
    let digest = outbox_to(&app, &email("dta")).pop().unwrap();
    let first = digest.body_text.find(&format!("#{g3}")).unwrap();
    let second = digest.body_text.find(&format!("#{g1}")).unwrap();
    assert!(first < second, "most urgent first:\n{}", digest.body_text);
    assert!(digest.body_text.contains("JST"), "{}", digest.body_text);
    assert_eq!(sweep(&app, at("2027-01-09 12:59")).digests, 0);
    // 13:00 UTC = 08:00 in New York.
    assert_eq!(sweep(&app, at("2027-01-09 13:00")).digests, 1);
    assert_eq!((tokyo_mails(&app), york_mails(&app)), (t0 + 1, y0 + 1));
    let digest = outbox_to(&app, &email("dya")).pop().unwrap();
    assert!(digest.body_text.contains(&format!("#{g2}")));
    assert!(digest.body_text.contains("EST"), "{}", digest.body_text);
    // 22:59 UTC = 07:59 Jan 10 in Tokyo: not yet; 23:00 = 08:00: the next Tokyo digest.
    assert_eq!(sweep(&app, at("2027-01-09 22:59")).digests, 0);
    assert_eq!(sweep(&app, at("2027-01-09 23:00")).digests, 1);
    assert_eq!((tokyo_mails(&app), york_mails(&app)), (t0 + 2, y0 + 1));
    // No game waiting, no digest.
    assert_eq!(
        post(&app, &format!("/v1/games/{g2}/resign"), &york[0], json!({}))
            .await
            .status,
        200
    );
    let y1 = york_mails(&app);
    assert_eq!(sweep(&app, at("2027-01-10 13:00")).digests, 0);
    assert_eq!(york_mails(&app), y1);
}

async fn unsubscribe_links_need_no_login_and_cannot_be_forged(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let (tokens, _) = two_player_game(&app, "un", json!({})).await;
    let me = get(&app, "/v1/me", &tokens[1]).await.body;
    let account_id = me["id"].as_i64().unwrap();
    let link = unsubscribe::link(
        &app.base,
        &ctx(&app).link_key,
        account_id,
        Category::Reminders,
    );
    let path = link.strip_prefix(&app.base).unwrap().to_owned();

    let page = app.http.get(&link).send().await.unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(
        html.contains("deadline reminders") && html.contains("method=\"post\""),
        "{html}"
    );
    // A GET changes nothing.
    assert_eq!(
        get(&app, "/v1/me/notifications", &tokens[1]).await.body["categories"]["reminders"],
        true
    );

    // Forged: another account, another category, a changed signature.
    let other = path.replace(&format!("a={account_id}"), &format!("a={}", account_id - 1));
    let category = path.replace("c=reminders", "c=game_over");
    let mut damaged = path.clone();
    let last = damaged.pop().unwrap();
    damaged.push(if last == '0' { '1' } else { '0' });
    for forged in [
        other,
        category,
        damaged,
        "/v1/unsubscribe?a=1&c=turn".to_owned(),
    ] {
        let answer = app.request(Method::POST, &forged, None, None).await;
        assert_eq!(answer.status, 403, "{forged}: {answer:?}");
        assert_eq!(answer.error_code(), "bad_unsubscribe_link");
    }
    assert_eq!(
        get(&app, "/v1/me/notifications", &tokens[1]).await.body["categories"]["reminders"],
        true
    );

    // RFC 8058 one-click: a POST with the form body, no login.
    let answer = app
        .http
        .post(&link)
        .header("content-type", "application/x-www-form-urlencoded")
        .body("List-Unsubscribe=One-Click")
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 200);
    let settings = get(&app, "/v1/me/notifications", &tokens[1]).await.body;
    assert_eq!(settings["categories"]["reminders"], false);
    assert_eq!(settings["categories"]["game_over"], true);
    assert_eq!(settings["turn_mail"], "immediate");
    // The turn-mail link turns turn mail off.
    let link = unsubscribe::link(&app.base, &ctx(&app).link_key, account_id, Category::Turn);
    assert_eq!(app.http.post(&link).send().await.unwrap().status(), 200);
    assert_eq!(
        get(&app, "/v1/me/notifications", &tokens[1]).await.body["turn_mail"],
        "off"
    );
}
