//! Organising and entering a tournament in a real headless Chromium at 375 px (issue 27's web
//! pages), on both backends, with no CLI and no API call by the browsers: olga signs up, finds
//! Tournaments in the site navigation, chooses SanQi on the organising form, fills in a double
//! round-robin with a board-size option, a Fischer clock and claims on timeout; the form first
//! refuses it as a Swiss (double is for round-robins) and shows why with her values kept, then
//! creates it. pia and ola, in a second browser one after the other, sign up and press Join; the
//! tournament page lists them. Every page on the way fits the screen and passes axe-core.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/phone.rs"]
mod phone;
#[path = "common/play.rs"]
mod play;

use common::{get, Backend, TestApp};
use fantoccini::Locator;
use phone::Phone;
use serde_json::json;

both_backends!(organise_and_join_a_tournament_at_375_px);

/// Signs `name` up from the sign-up form with the mailed code; ends on their games.
async fn sign_up(phone: &Phone, app: &TestApp, name: &str) {
    let email = format!("{name}@example.org");
    phone.open(&format!("{}/signup", app.base)).await;
    phone.fill("#name", name).await;
    phone.fill("#email", &email).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("id=\"code\"").await;
    let mail = app.smtp.wait_for(&email, 1).await;
    phone.fill("#code", &common::code_in(&mail[0].data)).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("Your games").await;
}

/// Chooses `value` in the select `css`.
async fn choose(phone: &Phone, css: &str, value: &str) {
    phone
        .client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .select_by_value(value)
        .await
        .unwrap_or_else(|e| panic!("no {value} in {css}: {e}"));
}

/// Whether the checkbox `id` is ticked.
async fn ticked(phone: &Phone, id: &str) -> bool {
    phone
        .client
        .execute(
            "return document.getElementById(arguments[0]).checked",
            vec![json!(id)],
        )
        .await
        .unwrap()
        .as_bool()
        .unwrap()
}

/// The page fits a phone's screen and passes axe-core; a screenshot of it is saved under
/// `target/screenshots/` to look at.
async fn checked(phone: &Phone, what: &str) {
    phone.assert_fits(what).await;
    phone.assert_accessible(what).await;
    let png = phone.client.screenshot().await.unwrap();
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(format!("tournament-{}.png", what.replace(' ', "-"))),
        png,
    )
    .unwrap();
}

async fn organise_and_join_a_tournament_at_375_px(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let watcher = play::player(&app.pool, "watcher");
    let olga = Phone::start().await;

    // olga finds the tournaments in the site navigation, and the form from there.
    sign_up(&olga, &app, "olga").await;
    olga.click("header nav a[href=\"/tournaments\"]").await;
    olga.wait_for_text("Taking entries").await;
    checked(&olga, "the tournaments").await;
    olga.click("main a[href=\"/tournaments/new\"]").await;
    olga.wait_for_text("Create the tournament").await;
    // SanQi's options come with the kind chosen.
    choose(&olga, "form.filter select[name=kind]", "sanqi").await;
    olga.click("form.filter button[type=submit]").await;
    olga.wait_for_text("name=\"option.side\"").await;
    checked(&olga, "the tournament form").await;

    // A Swiss with "double" ticked is refused on the form, saying why, with her values kept.
    olga.fill("#name", "Phone league").await;
    choose(&olga, "#format", "swiss").await;
    olga.click("#double").await;
    choose(&olga, "#option-side", "6").await;
    olga.fill("#fischer", "7d+1d/14d").await;
    choose(&olga, "#timeout", "claim").await;
    olga.fill("#entry_days", "3").await;
    olga.fill("#max_players", "4").await;
    olga.click("form.tournament button[type=submit]").await;
    let refused = olga.wait_for_text("role=\"alert\"").await;
    assert!(
        refused.contains("are for the round-robin format"),
        "{refused}"
    );
    checked(&olga, "a refused tournament form").await;
    assert_eq!(olga.value_of("#name").await, "Phone league");
    assert_eq!(olga.value_of("#option-side").await, "6");
    assert_eq!(olga.value_of("#fischer").await, "7d+1d/14d");
    assert_eq!(olga.value_of("#timeout").await, "claim");
    assert_eq!(olga.value_of("#max_players").await, "4");
    assert!(ticked(&olga, "double").await, "double stays ticked");
    let none = get(&app, "/v1/tournaments", &watcher).await;
    assert_eq!(none.body["tournaments"], json!([]), "{none:?}");

    // As a round-robin it is made: its page says what it is.
    choose(&olga, "#format", "round_robin").await;
    olga.click("form.tournament button[type=submit]").await;
    olga.wait_for_text("round-robin (double)").await;
    let url = olga.client.current_url().await.unwrap();
    let id: i64 = url
        .path()
        .strip_prefix("/tournaments/")
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("not a tournament page: {url}"));
    let view = get(&app, &format!("/v1/tournaments/{id}"), &watcher)
        .await
        .body;
    assert_eq!(
        (
            &view["name"],
            &view["kind"],
            &view["format"],
            &view["double"],
            &view["options"],
            &view["clock"],
            &view["timeout"],
            &view["max_players"],
            &view["organiser"],
        ),
        (
            &json!("Phone league"),
            &json!("sanqi"),
            &json!("round_robin"),
            &json!(true),
            &json!("side=6"),
            &json!("7d+1d/14d"),
            &json!("claim"),
            &json!(4),
            &json!("olga"),
        ),
        "{view}"
    );
    checked(&olga, "a new tournament for its organiser").await;

    // pia, then ola, in another browser: each signs up and presses Join.
    let other = Phone::start().await;
    for name in ["pia", "ola"] {
        other.client.delete_all_cookies().await.unwrap();
        sign_up(&other, &app, name).await;
        other.click("header nav a[href=\"/tournaments\"]").await;
        other.wait_for_text("Phone league").await;
        other
            .click(&format!("main a[href=\"/tournaments/{id}\"]"))
            .await;
        other.wait_for_text("Entrants (").await;
        other
            .click(&format!("form[action=\"/tournaments/{id}/join\"] button"))
            .await;
        other
            .wait_for_text(&format!("action=\"/tournaments/{id}/withdraw\""))
            .await;
        // The account links are in the site menu (issue 47).
        other.click("header details.menu summary").await;
        other.click("header form[action=\"/signout\"] button").await;
        other.wait_for_text("href=\"/signin\"").await;
    }
    other.stop().await;

    // The page lists them, in the order they entered.
    olga.open(&format!("{}/tournaments/{id}", app.base)).await;
    let page = olga.wait_for_text("Entrants (2 of at most 4)").await;
    let pia = page.find("href=\"/players/pia\"").expect("pia listed");
    let ola = page.find("href=\"/players/ola\"").expect("ola listed");
    assert!(pia < ola, "{page}");
    checked(&olga, "a tournament with entrants").await;
    let view = get(&app, &format!("/v1/tournaments/{id}"), &watcher)
        .await
        .body;
    let entrants: Vec<&str> = view["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player"].as_str().unwrap())
        .collect();
    assert_eq!(entrants, ["pia", "ola"], "{view}");
    olga.stop().await;
}
