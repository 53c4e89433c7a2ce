//! The game page in a real headless Chromium (Debian's `chromium` and `chromium-driver`),
//! driven over WebDriver: a player opens the play link of their turn card, clicks the cells of
//! a legal move and plays it (Kefren on PostgreSQL, 3-player Chinese Checkers on SQLite), and
//! the next player's turn card arrives at the SMTP sink; a stale form, a refused move and the
//! form without the cookie; a game page framed by another page does not render; screenshots
//! at 375 px and 1280 px under `target/screenshots/`.
//! One browser serves every case (it is the slow part).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

#[path = "common/chromedriver.rs"]
mod chromedriver;
mod common;
#[path = "common/play.rs"]
mod play;
#[path = "common/web.rs"]
mod web;

use std::path::PathBuf;
use std::process::Child;
use std::time::{Duration, Instant};

use common::{get, post, Backend, TestApp};
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::json;
use turnpost_shared::{AnyGame, Options};

/// chromedriver on a port it picked and announced, and one Chromium session.
struct Browser {
    driver: Child,
    client: Client,
    profile: PathBuf,
}

impl Browser {
    async fn start() -> Self {
        let (driver, port) = chromedriver::start();
        let profile = chromedriver::unique_temp_path("turnpost-chromium");
        std::fs::create_dir_all(&profile).unwrap();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--window-size=1280,900",
                    format!("--user-data-dir={}", profile.display()),
                ],
            },
        });
        let serde_json::Value::Object(capabilities) = capabilities else {
            unreachable!()
        };
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(capabilities)
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a Chromium session");
        Self {
            driver,
            client,
            profile,
        }
    }

    async fn stop(mut self) {
        let _ = self.client.close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }

    /// The page's HTML as the browser has it now.
    async fn source(&self) -> String {
        let source = self.client.source().await.unwrap();
        web::assert_no_email_address(&source);
        source
    }

    /// Waits until the page's HTML contains `text` (after a navigation).
    async fn wait_for_text(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let source = self.source().await;
            if source.contains(text) {
                return source;
            }
            let shown = source.split("</svg>").last().unwrap_or(&source);
            assert!(Instant::now() < deadline, "no {text:?} in:\n{shown}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Opens a mail's play link on the test server and waits for the move form.
    async fn open_play_link(&self, app: &TestApp, link: &str) {
        let local = format!("{}{}", app.base, &link[link.find("/games/").unwrap()..]);
        self.client.goto(&local).await.unwrap();
        self.wait_for_text("id=\"move-form\"").await;
    }

    async fn value_of(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap()
            .prop("value")
            .await
            .unwrap()
            .unwrap_or_default()
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    async fn type_move(&self, text: &str) {
        let field = self.client.find(Locator::Css("#move")).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    /// Clicks the cells of `mv` in order; the field then holds the move.
    async fn click_move(&self, cells: &[String], mv: &str) {
        for cell in cells {
            self.click(&format!("g[data-cell=\"{cell}\"] .cell-hit"))
                .await;
        }
        let value = self.value_of("#move").await;
        assert_eq!(value, mv, "clicking {cells:?} narrows the moves to {mv}");
    }

    /// A screenshot at `width` px wide under `target/screenshots/`; the page must not scroll
    /// sideways.
    async fn screenshot(&self, name: &str, width: u32) {
        self.client.set_window_size(width, 900).await.unwrap();
        let inner = self
            .client
            .execute("return window.innerWidth", vec![])
            .await
            .unwrap();
        let scroll = self
            .client
            .execute("return document.documentElement.scrollWidth", vec![])
            .await
            .unwrap();
        assert!(
            scroll.as_u64() <= inner.as_u64(),
            "{name} at {width} px scrolls sideways: content {scroll} px in {inner} px"
        );
        let png = self.client.screenshot().await.unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}-{width}.png")), png).unwrap();
    }
}

/// Waits for a turn card of game `id` to `to` whose text contains `containing`; its text.
async fn turn_card(app: &TestApp, to: &str, id: i64, containing: &str) -> String {
    let marker = format!("/games/{id}/play/");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = app
            .smtp
            .messages_to(to)
            .iter()
            .map(|m| web::text_of(&m.data))
            .find(|text| text.contains(&marker) && text.contains(containing));
        if let Some(text) = found {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "no turn card with {containing:?} to {to}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The cells a move names, in order (as the page computes them for clicking).
fn cells_of(position: &AnyGame, mv: &str) -> Vec<String> {
    let view = position.board_view();
    mv.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|word| {
            view.cells
                .iter()
                .find(|cell| !word.is_empty() && cell.name.eq_ignore_ascii_case(word))
                .map(|cell| cell.name.clone())
        })
        .collect()
}

/// Whether `cells` are a subsequence of `of`.
fn passes(of: &[String], cells: &[String]) -> bool {
    let mut at = 0;
    for cell in of {
        if at < cells.len() && cells[at] == *cell {
            at += 1;
        }
    }
    at == cells.len()
}

/// A legal move that clicking its own cells singles out, with those cells; the longest such
/// move, so the clicks really narrow a list.
fn clickable_move(position: &AnyGame) -> (String, Vec<String>) {
    let moves = position.legal_moves();
    let cells: Vec<Vec<String>> = moves.iter().map(|m| cells_of(position, m)).collect();
    moves
        .iter()
        .zip(&cells)
        .filter(|(_, own)| cells.iter().filter(|other| passes(other, own)).count() == 1)
        .max_by_key(|(_, own)| own.len())
        .map(|(mv, own)| (mv.clone(), own.clone()))
        .expect("a move its cells single out")
}

/// The position of game `id` as the API shows it to `token`'s player.
async fn position_of(app: &TestApp, id: i64, token: &str) -> (AnyGame, u64) {
    let view = get(app, &format!("/v1/games/{id}"), token).await.body;
    let options = Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    (
        AnyGame::from_position_text(&options, view["position"].as_str().unwrap()).unwrap(),
        view["ply"].as_u64().unwrap(),
    )
}

#[actix_web::test]
async fn playing_in_chromium() {
    let browser = Browser::start().await;
    kefren_on_postgres(&browser).await;
    chinese_checkers_on_sqlite(&browser).await;
    a_framed_play_page_does_not_render(&browser).await;
    browser.stop().await;
}

/// Kefren: play by clicking; then a stale form, a refused move, the form without the cookie.
async fn kefren_on_postgres(browser: &Browser) {
    let app = TestApp::spawn(Backend::Postgres).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = web::started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;

    // anna opens her card's play link: the game page with the move form.
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let link = web::play_link_in(&web::text_of(&card.data), id);
    browser.open_play_link(&app, &link).await;
    let url = browser.client.current_url().await.unwrap();
    assert_eq!(
        url.path(),
        format!("/games/{id}"),
        "the link redirects to the page"
    );
    browser.screenshot("kefren-your-turn", 375).await;
    browser.screenshot("kefren-your-turn", 1280).await;

    // Click the cells of a legal move, then Play.
    let (position, _) = position_of(&app, id, &anna).await;
    let (mv, cells) = clickable_move(&position);
    browser.click_move(&cells, &mv).await;
    browser.click("#play").await;
    browser.wait_for_text("Move 1 of 1").await;
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
        .await
        .body;
    assert_eq!(moves["moves"][0]["move"], mv.as_str());
    let bert_card = turn_card(&app, "bert@example.org", id, &mv).await;

    // The arrow keys step through the positions.
    let body = browser.client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&fantoccini::key::Key::Left.to_string())
        .await
        .unwrap();
    browser.wait_for_text("Move 0 of 1").await;
    let url = browser.client.current_url().await.unwrap();
    assert_eq!(url.query(), Some("ply=0"));
    let body = browser.client.find(Locator::Css("body")).await.unwrap();
    body.send_keys(&fantoccini::key::Key::Right.to_string())
        .await
        .unwrap();
    browser.wait_for_text("Move 1 of 1").await;
    assert_eq!(
        browser.client.current_url().await.unwrap().query(),
        Some("ply=1")
    );
    assert!(bert_card.contains("It is your move"), "{bert_card}");
    assert!(bert_card.contains(&mv), "{bert_card}");

    // bert's page is open when he moves from the CLI: the page follows the game's stream and
    // drops its move form by itself (issue 45; posting a stale form is covered in pages.rs).
    let bert_link = web::play_link_in(&bert_card, id);
    browser.open_play_link(&app, &bert_link).await;
    let (position, ply) = position_of(&app, id, &bert).await;
    let elsewhere = position.legal_moves()[0].clone();
    let answer = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": elsewhere, "ply": ply}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let moved = browser.wait_for_text("Move 2 of 2").await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while browser
        .client
        .source()
        .await
        .unwrap()
        .contains("id=\"move-form\"")
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no longer bert's turn: {moved}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    // anna again: a move the engine refuses shows its reason by the field.
    let anna_card = turn_card(&app, "anna@example.org", id, &elsewhere).await;
    let anna_link = web::play_link_in(&anna_card, id);
    browser.open_play_link(&app, &anna_link).await;
    browser.type_move("A1-A9").await;
    browser.click("#play").await;
    let refused = browser.wait_for_text("id=\"move-error\"").await;
    let reason = browser
        .client
        .find(Locator::Css("#move-error"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(!reason.trim().is_empty(), "{refused}");
    assert_eq!(browser.value_of("#move").await, "A1-A9", "the text stays");

    // Without the cookie, posting the form is refused.
    browser.client.delete_all_cookies().await.unwrap();
    let (position, _) = position_of(&app, id, &anna).await;
    browser.type_move(&position.legal_moves()[0]).await;
    browser.click("#play").await;
    browser.wait_for_text("needs your play link").await;
    let (_, ply) = position_of(&app, id, &anna).await;
    assert_eq!(ply, 2, "nothing was played");
}

/// 3-player Chinese Checkers: the second seat plays by clicking; the third gets its card.
async fn chinese_checkers_on_sqlite(browser: &Browser) {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let tokens: Vec<String> = ["cara", "dirk", "emil"]
        .iter()
        .map(|name| play::player(&app.pool, name))
        .collect();
    let t: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let id = web::started_game(
        &app,
        "chinese-checkers",
        json!({"players": 3}),
        &t,
        &["cara", "dirk", "emil"],
    )
    .await;
    // cara moves from the CLI; dirk plays from his card in the browser.
    let (position, ply) = position_of(&app, id, t[0]).await;
    let first = position.legal_moves()[0].clone();
    let answer = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        t[0],
        json!({"move": first, "ply": ply}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let card = turn_card(&app, "dirk@example.org", id, &first).await;
    let link = web::play_link_in(&card, id);
    browser.open_play_link(&app, &link).await;
    browser.screenshot("chinese-checkers-your-turn", 375).await;
    browser.screenshot("chinese-checkers-your-turn", 1280).await;

    let (position, _) = position_of(&app, id, t[1]).await;
    let (mv, cells) = clickable_move(&position);
    browser.click_move(&cells, &mv).await;
    browser.click("#play").await;
    browser.wait_for_text("Move 2 of 2").await;
    let moves = get(&app, &format!("/v1/games/{id}/moves"), t[1]).await.body;
    assert_eq!(moves["moves"][1]["move"], mv.as_str());
    let emil_card = turn_card(&app, "emil@example.org", id, &mv).await;
    assert!(emil_card.contains("It is your move"), "{emil_card}");
    assert!(emil_card.contains(&mv), "{emil_card}");
    assert!(
        emil_card.contains(&format!("/games/{id}/play/")),
        "{emil_card}"
    );
}

/// A page that frames a game page (here one of the same site, which gets the play cookie:
/// issue 31 offered a draw by a click through such a frame) shows nothing of it: the pages
/// forbid framing (`frame-ancestors 'none'`, `X-Frame-Options: DENY`). The same page opened
/// on its own renders, with the move form.
async fn a_framed_play_page_does_not_render(browser: &Browser) {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = web::started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let link = web::play_link_in(&web::text_of(&card.data), id);
    browser.open_play_link(&app, &link).await;

    // The rules page (same site) gets a frame of the game page, as a framing attacker's page.
    browser
        .client
        .goto(&format!("{}/rules/kefren", app.base))
        .await
        .unwrap();
    browser
        .client
        .execute(
            "const frame = document.createElement('iframe');\
             frame.src = arguments[0]; frame.id = 'framed';\
             frame.width = 800; frame.height = 600;\
             document.body.prepend(frame);",
            vec![json!(format!("/games/{id}"))],
        )
        .await
        .unwrap();
    // Give the frame time to load (or be refused), then look inside it.
    tokio::time::sleep(Duration::from_secs(2)).await;
    // A refused frame holds the browser's error page (or cannot be entered at all).
    let framed = match browser.client.enter_frame(0).await {
        Ok(()) => {
            let source = browser.client.source().await.unwrap_or_default();
            browser.client.enter_parent_frame().await.unwrap();
            source
        }
        Err(_) => String::new(),
    };
    assert!(
        !framed.contains("move-form") && !framed.contains("/assets/game.js"),
        "the game page rendered in a frame:\n{framed}"
    );
    // The frame's document is not the page's (a refused frame is an error page).
    let same_origin = browser
        .client
        .execute(
            "const d = document.getElementById('framed').contentDocument;\
             return d !== null && d.getElementById('move-form') !== null;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(same_origin, json!(false));
}
