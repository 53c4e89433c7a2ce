//! Tournament invitations on both backends (issue 48, point 2): an invitation is a challenge
//! to play, so it follows the invitee's `challenges` switch, carries that switch's one-click
//! unsubscribe link, and is charged to the invitee's hourly budget of challenges received —
//! past it the whole creation is refused with 429 and nothing is created or mailed. (The web
//! form's charge is tested in `web_sessions.rs`, which has the browser helpers.)
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use chrono::Duration;
use common::{patch, post, Backend, TestApp};
use serde_json::{json, Value};
use turnpost_server::db;
use turnpost_server::db::outbox;

both_backends!(
    invitations_follow_the_challenges_switch_and_can_be_unsubscribed,
    invitations_are_charged_to_each_invitees_challenge_budget,
);

/// Challenges one account may receive per hour in these tests.
const RECEIVED_PER_HOUR: u32 = 3;

fn tournament(name: &str, invite: &[&str]) -> Value {
    let at = db::rfc3339(db::now() + Duration::hours(1));
    json!({"name": name, "kind": "kefren", "format": "swiss", "rounds": 3,
           "entry_closes_at": at, "invite": invite})
}

/// The outbox rows addressed to `email`.
fn queued_to(app: &TestApp, email: &str) -> usize {
    outbox::all(&mut app.conn())
        .unwrap()
        .iter()
        .filter(|row| row.recipient.eq_ignore_ascii_case(email))
        .count()
}

async fn invitations_follow_the_challenges_switch_and_can_be_unsubscribed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let organiser = play::player(&app.pool, "olga");
    let dave = play::player(&app.pool, "dave");
    play::player(&app.pool, "erin");
    let off = patch(
        &app,
        "/v1/me/notifications",
        &dave,
        json!({"categories": {"challenges": false}}),
    )
    .await;
    assert_eq!(off.status, 200, "{off:?}");

    let made = post(
        &app,
        "/v1/tournaments",
        &organiser,
        tournament("Open", &["dave", "erin"]),
    )
    .await;
    assert_eq!(made.status, 201, "{made:?}");
    // erin's invitation arrives with the challenges switch's one-click link, in the headers
    // and in the text.
    let erin_mail = app.smtp.wait_for("erin@example.org", 1).await.remove(0);
    let unsubscribe = erin_mail
        .header("List-Unsubscribe")
        .expect("List-Unsubscribe");
    assert!(
        unsubscribe.starts_with('<') && unsubscribe.ends_with('>'),
        "{unsubscribe}"
    );
    assert_eq!(
        erin_mail.header("List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );
    let url = &unsubscribe[1..unsubscribe.len() - 1];
    assert!(
        erin_mail.data.contains("Stop these mails"),
        "{}",
        erin_mail.data
    );
    // dave switched challenge mail off: his invitation was never queued (both were decided
    // in the one transaction that created the tournament, so this is not a race).
    assert_eq!(queued_to(&app, "dave@example.org"), 0);
    assert_eq!(queued_to(&app, "erin@example.org"), 1);

    // erin's link switches challenge mail off without signing in; her next invitation is not
    // mailed.
    assert!(url.contains("c=challenges"), "{url}");
    let path = &url[url.find("/v1/").unwrap()..];
    let clicked = app.request(reqwest::Method::POST, path, None, None).await;
    assert_eq!(clicked.status, 200, "{clicked:?}");
    let again = post(
        &app,
        "/v1/tournaments",
        &organiser,
        tournament("Again", &["erin"]),
    )
    .await;
    assert_eq!(again.status, 201, "{again:?}");
    assert_eq!(queued_to(&app, "erin@example.org"), 1);
}

async fn invitations_are_charged_to_each_invitees_challenge_budget(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| {
        c.challenges_received_per_hour = RECEIVED_PER_HOUR;
    })
    .await;
    let organiser = play::player(&app.pool, "olga");
    play::player(&app.pool, "carol");
    play::player(&app.pool, "erin");
    for n in 0..RECEIVED_PER_HOUR {
        let made = post(
            &app,
            "/v1/tournaments",
            &organiser,
            tournament(&format!("Cup {n}"), &["carol", "carol", "CAROL"]),
        )
        .await;
        assert_eq!(made.status, 201, "{made:?}");
    }
    assert_eq!(
        queued_to(&app, "carol@example.org"),
        RECEIVED_PER_HOUR as usize
    );
    // carol's budget is spent: a tournament inviting her (with erin) is refused whole, and
    // neither is mailed.
    let refused = post(
        &app,
        "/v1/tournaments",
        &organiser,
        tournament("One too many", &["erin", "carol"]),
    )
    .await;
    assert_eq!(refused.status, 429, "{refused:?}");
    assert_eq!(
        queued_to(&app, "carol@example.org"),
        RECEIVED_PER_HOUR as usize
    );
    assert_eq!(queued_to(&app, "erin@example.org"), 0);
    let listed = common::get(&app, "/v1/tournaments", &organiser).await;
    assert!(
        !listed.body.to_string().contains("One too many"),
        "{listed:?}"
    );
    // The refusal gave erin's share back, and others may still be invited.
    for n in 0..RECEIVED_PER_HOUR {
        let made = post(
            &app,
            "/v1/tournaments",
            &organiser,
            tournament(&format!("Erin {n}"), &["erin"]),
        )
        .await;
        assert_eq!(made.status, 201, "{made:?}");
    }
}
