//! The whole player's journey in a real headless Chromium at 375 px (issue 26's first test),
//! with no CLI and no API call by the test: pia signs up with the code read from the SMTP
//! sink and posts an open Kefren challenge; ola, in a second browser, signs up and joins it;
//! both play by tapping the board's cells; ola resigns; pia asks for a rematch from the game
//! page and ola accepts it from her games; both sign out.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

#[path = "common/chromium.rs"]
mod chromium;
mod common;
#[path = "common/web.rs"]
mod web;

use std::time::{Duration, Instant};

use chromium::Chromium;
use common::{code_in, Backend, TestApp};

/// Signs `name` up from the home page with the mailed code; ends on their games.
async fn sign_up(app: &TestApp, phone: &Chromium, name: &str) {
    let email = format!("{}@example.org", name.to_lowercase());
    phone.open(&format!("{}/", app.base)).await;
    phone.wait_for_text("Play in your browser").await;
    phone.click("main a[href=\"/signup\"]").await;
    phone.wait_for_text("id=\"name\"").await;
    phone.fill("#name", name).await;
    phone.fill("#email", &email).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("id=\"code\"").await;
    let mail = app.smtp.wait_for(&email, 1).await;
    phone.fill("#code", &code_in(&mail[0].data)).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("Your games").await;
    phone
        .fits(&format!("my-games-{}-375", name.to_lowercase()))
        .await;
}

/// The game id of the game page shown.
async fn game_id_shown(phone: &Chromium) -> i64 {
    let url = phone.client.current_url().await.unwrap();
    url.path()
        .strip_prefix("/games/")
        .and_then(|rest| rest.split('/').next())
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("not a game page: {url}"))
}

/// Whether the cells `picked` are, in order, a subsequence of `cells` (as the page's script
/// narrows the moves).
fn passes(cells: &[String], picked: &[String]) -> bool {
    let mut at = 0;
    for cell in cells {
        if at < picked.len() && cell.eq_ignore_ascii_case(&picked[at]) {
            at += 1;
        }
    }
    at == picked.len()
}

/// Plays a move by tapping its cells on the board, then Play: a move no other legal move
/// shares its cells with, taken from the page's list of legal moves. Returns the move.
async fn tap_a_move(phone: &Chromium) -> String {
    phone.wait_for_text("id=\"legal-moves\"").await;
    let moves = phone
        .client
        .execute(
            "return JSON.parse(document.getElementById('legal-moves').textContent)",
            vec![],
        )
        .await
        .unwrap();
    let moves = web::legal_moves(&moves);
    let (mv, cells) = moves
        .iter()
        .find(|(_, cells)| {
            !cells.is_empty() && moves.iter().filter(|(_, c)| passes(c, cells)).count() == 1
        })
        .cloned()
        .expect("a move its cells name alone");
    for cell in &cells {
        phone
            .click(&format!("#board g[data-cell=\"{cell}\"] .cell-hit"))
            .await;
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let value = phone
            .client
            .execute("return document.getElementById('move').value", vec![])
            .await
            .unwrap();
        if value.as_str() == Some(mv.as_str()) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "tapping {cells:?} did not pick {mv}: {value}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    phone.click("#play").await;
    mv
}

#[actix_web::test]
async fn a_whole_journey_in_the_browser_at_375_px() {
    let mut app = TestApp::spawn(Backend::Postgres).await;
    let pia = Chromium::start(375).await;
    let ola = Chromium::start(375).await;

    // pia signs up and posts an open Kefren challenge from the new game form.
    sign_up(&app, &pia, "Pia").await;
    pia.click("main a[href=\"/new\"]").await;
    pia.wait_for_text("Post the challenge").await;
    pia.fits("new-game-375").await;
    pia.click("form.new-game button[type=submit]").await;
    pia.wait_for_text("Waiting for players to take the open seats")
        .await;
    let id = game_id_shown(&pia).await;

    // ola signs up, finds it among the open challenges and joins: the game starts.
    sign_up(&app, &ola, "Ola").await;
    ola.click("main a[href=\"/challenges\"]").await;
    ola.wait_for_text(&format!("Kefren #{id}")).await;
    ola.fits("challenges-375").await;
    ola.click(&format!("form[action=\"/challenges/{id}/join\"] button"))
        .await;
    ola.wait_for_text("Pia to move").await;
    assert_eq!(game_id_shown(&ola).await, id);

    // They play by tapping: pia (seat 1) first, then ola, twice each.
    for _ in 0..2 {
        pia.open(&format!("{}/games/{id}", app.base)).await;
        let played = tap_a_move(&pia).await;
        pia.wait_for_text("Ola to move").await;
        pia.wait_for_text(&played).await;
        ola.open(&format!("{}/games/{id}", app.base)).await;
        let played = tap_a_move(&ola).await;
        ola.wait_for_text("Pia to move").await;
        ola.wait_for_text(&played).await;
    }
    pia.open(&format!("{}/", app.base)).await;
    let home = pia.wait_for_text("Your turn (1)").await;
    assert!(home.contains(&format!("Kefren #{id}")), "{home}");
    ola.fits("game-375").await;

    // ola resigns (after the confirmation step): pia won.
    ola.click("a.resign").await;
    ola.wait_for_text("Yes, resign").await;
    ola.click("button.danger").await;
    ola.wait_for_text("Pia won").await;

    // pia asks for a rematch from the game page: a new challenge, seats rotated.
    pia.open(&format!("{}/games/{id}", app.base)).await;
    pia.wait_for_text("Pia won").await;
    pia.click(&format!("form[action=\"/games/{id}/rematch\"] button"))
        .await;
    pia.wait_for_text("A challenge: waiting for the players to accept.")
        .await;
    let rematch = game_id_shown(&pia).await;
    assert_ne!(rematch, id);

    // ola accepts it among the invitations on her games page: Ola moves first now.
    ola.open(&format!("{}/", app.base)).await;
    ola.wait_for_text("Invitations (1)").await;
    ola.click(&format!("form[action=\"/games/{rematch}/accept\"] button"))
        .await;
    ola.wait_for_text("Ola to move").await;
    assert_eq!(game_id_shown(&ola).await, rematch);

    // Both sign out.
    for phone in [&pia, &ola] {
        // The account links are in the site menu (issue 47).
        phone.click("header details.menu summary").await;
        phone.click("header form[action=\"/signout\"] button").await;
        let home = phone.wait_for_text("href=\"/signin\"").await;
        assert!(!home.contains("Your games"), "{home}");
    }
    pia.stop().await;
    ola.stop().await;
    // The process exits right after this test: its workers must be done with PostgreSQL
    // first (`TestApp::shutdown`).
    app.shutdown().await;
}
