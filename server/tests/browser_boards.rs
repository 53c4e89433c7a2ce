//! Boards that fit and turn for the player (issue 47, point 2), in a real headless Chromium
//! at 320 and 375 CSS px (a phone's screen, emulated with touch): for every game and variant
//! size, on the second player's page on their turn, the page is no wider than the screen, the
//! board's frame no wider either, every cell's tap target at least 24 × 24 px
//! (getBoundingClientRect); the player's own pieces are drawn in the bottom half, and "Turn
//! board" puts them at the top; a move tapped on a turned board plays the tapped cells; the
//! first Kechi hint names the few stones a move can start with. One browser session a width.
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
use serde_json::{json, Value};

/// The least size of a touch target, in CSS px (WCAG 2.2, 2.5.8).
const TARGET_PX: f64 = 24.0;

/// Every board: kind, options, players, and whether a seat has pieces of its own (`SanQi`'s
/// stones are everyone's: its board is never turned).
const BOARDS: [(&str, &str, usize, bool); 11] = [
    ("kefren", "{}", 2, true),
    ("kechi", r#"{"lines": "4"}"#, 2, true),
    ("kechi", r#"{"lines": "5"}"#, 2, true),
    ("kechi", r#"{"lines": "6"}"#, 2, true),
    ("kechi", r#"{"lines": "7"}"#, 2, true),
    ("sanqi", r#"{"side": "4"}"#, 2, false),
    ("sanqi", r#"{"side": "6"}"#, 2, false),
    ("sanqi", r#"{"side": "8"}"#, 2, false),
    ("sanqi", r#"{"side": "10"}"#, 2, false),
    ("chinese-checkers", r#"{"players": "2"}"#, 2, true),
    ("chinese-checkers", r#"{"players": "3"}"#, 3, true),
];

/// A phone's screen `width` CSS px wide: chromedriver and one Chromium session (headless
/// windows are at least 500 px wide, so the screen is emulated).
struct Screen {
    driver: Child,
    client: Client,
    profile: PathBuf,
    width: u32,
}

impl Screen {
    async fn start(width: u32) -> Self {
        let (driver, port) = chromedriver::start();
        let profile = chromedriver::unique_temp_path("turnpost-boards");
        std::fs::create_dir_all(&profile).unwrap();
        let capabilities = json!({
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--disable-dev-shm-usage", "--hide-scrollbars",
                    format!("--user-data-dir={}", profile.display()),
                ],
                "mobileEmulation": {
                    "deviceMetrics": {"width": width, "height": 700, "pixelRatio": 2.0, "touch": true},
                },
            },
        });
        let Value::Object(capabilities) = capabilities else {
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
            width,
        }
    }

    async fn stop(mut self) {
        let _ = self.client.close().await;
        let _ = self.driver.kill();
        let _ = self.driver.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }

    async fn run(&self, script: &str, args: Vec<Value>) -> Value {
        self.client.execute(script, args).await.unwrap()
    }

    /// Waits until `script` returns true (`what` names it in the failure).
    async fn wait_until(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            if self.run(script, vec![]).await == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "waited in vain for {what}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
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

    async fn fill(&self, css: &str, text: &str) {
        let field = self.client.find(Locator::Css(css)).await.unwrap();
        field.clear().await.unwrap();
        field.send_keys(text).await.unwrap();
    }

    /// Taps board cell `name`, scrolled into view first (a wide board scrolls in its frame).
    async fn tap_cell(&self, name: &str) {
        let css = format!("#board g[data-cell=\"{name}\"] .cell-hit");
        self.run(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center', inline: 'center'});",
            vec![json!(css)],
        )
        .await;
        self.click(&css).await;
    }

    async fn text_of(&self, css: &str) -> String {
        let text = self
            .run(
                "return document.querySelector(arguments[0]).textContent.trim()",
                vec![json!(css)],
            )
            .await;
        text.as_str().unwrap().to_owned()
    }

    /// Saves a screenshot as `name` under `target/screenshots/` (to look at).
    async fn screenshot(&self, name: &str) {
        let png = self.client.screenshot().await.unwrap();
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }

    /// Signs `name` in with the code mailed to them (their first mail).
    async fn sign_in(&self, app: &TestApp, name: &str) {
        let email = format!("{name}@example.org");
        self.client
            .goto(&format!("{}/signin", app.base))
            .await
            .unwrap();
        self.fill("#email", &email).await;
        self.click("form.stack button[type=submit]").await;
        self.wait_until("return !!document.getElementById('code')", "the code field")
            .await;
        let mail = app.smtp.wait_for(&email, 1).await;
        self.fill("#code", &common::code_in(&mail[0].data)).await;
        self.click("form.stack button[type=submit]").await;
        self.wait_until(
            "return document.body.textContent.includes('Your games')",
            "the signed-in games page",
        )
        .await;
    }

    /// The vertical middle of the own pieces (circles filled in the colour of the seat's swatch
    /// in the players' table, row `seat`) as a share of the board's height: 0 top, 1 bottom.
    async fn own_pieces_at(&self, seat: usize) -> f64 {
        let at = self
            .run(
                "const row = document.querySelectorAll('table.players tbody tr')[arguments[0] - 1];\
                 const colour = getComputedStyle(row.querySelector('.swatch')).backgroundColor;\
                 const board = document.getElementById('board').getBoundingClientRect();\
                 const ys = Array.from(document.querySelectorAll('#board g[data-cell] circle'))\
                   .filter(c => c.getAttribute('fill') && getComputedStyle(c).fill === colour)\
                   .map(c => { const r = c.getBoundingClientRect(); return r.top + r.height / 2; });\
                 if (ys.length === 0) return -1;\
                 return (ys.reduce((a, b) => a + b, 0) / ys.length - board.top) / board.height;",
                vec![json!(seat)],
            )
            .await;
        let at = at.as_f64().unwrap();
        assert!(at >= 0.0, "no pieces of seat {seat} on the board");
        at
    }
}

#[actix_web::test]
async fn boards_fit_the_screen_and_turn_for_their_player() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let anna = play::player(&app.pool, "anna");
    let dora = play::player(&app.pool, "dora");
    for (width, second) in [(320, "bert"), (375, "cleo")] {
        let token = play::player(&app.pool, second);
        let screen = Screen::start(width).await;
        screen.sign_in(&app, second).await;
        for (kind, options, players, own_pieces) in BOARDS {
            let options: Value = serde_json::from_str(options).unwrap();
            let (tokens, names) = if players == 3 {
                (vec![&*anna, &*token, &*dora], vec!["anna", second, "dora"])
            } else {
                (vec![&*anna, &*token], vec!["anna", second])
            };
            let id = web::started_game(&app, kind, options.clone(), &tokens, &names).await;
            play_first_legal_move(&app, id, &anna).await;
            let what = format!("{kind} {options} at {width} px");
            open_turn(&screen, &app, id, &what).await;
            fits(&screen, &what).await;
            screen
                .screenshot(&format!("boards-{kind}-{}-{width}", options_name(&options)))
                .await;
            if own_pieces {
                // The memory of a board turned back, once a width for each way.
                let reload = kind == "kefren" || (kind == "kechi" && options["lines"] == "4");
                own_pieces_turn(&screen, &app, id, &what, reload).await;
            } else {
                assert!(
                    screen
                        .client
                        .find(Locator::Css("#turn-board"))
                        .await
                        .is_err(),
                    "{what}: no switch on a board without own pieces"
                );
            }
            if kind == "kechi" && options["lines"] == "4" {
                kechi_hints(&screen, &what).await;
            }
            if kind == "kefren" && width == 375 {
                tap_on_a_turned_board(&screen, &app, id, &token).await;
            }
        }
        screen.stop().await;
    }
}

/// The options as a file name's part: `lines-4`.
fn options_name(options: &Value) -> String {
    options
        .as_object()
        .unwrap()
        .iter()
        .map(|(key, value)| format!("{key}-{}", value.as_str().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("-")
}

/// Plays the first legal move of game `id` for `token`'s player through the API.
async fn play_first_legal_move(app: &TestApp, id: i64, token: &str) {
    let view = get(app, &format!("/v1/games/{id}"), token).await.body;
    let mv = view["legal_moves"][0].as_str().unwrap().to_owned();
    let played = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": view["ply"]}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
}

/// Opens game `id` and waits for its move form with the cells' targets.
async fn open_turn(screen: &Screen, app: &TestApp, id: i64, what: &str) {
    screen
        .client
        .goto(&format!("{}/games/{id}", app.base))
        .await
        .unwrap();
    let mut deadline = Instant::now() + Duration::from_secs(45);
    let mut reloaded = false;
    let ready =
        "return document.readyState === 'complete' && !!document.querySelector('#board .cell-hit')";
    while screen.run(ready, vec![]).await != json!(true) {
        if Instant::now() > deadline && !reloaded {
            // A loaded CI machine's test server has answered a request for the page's script
            // 408 (its body deadline): the page then has no targets. Once, load it again.
            eprintln!("{what}: no targets after 45 s, loading the page again");
            screen.client.refresh().await.unwrap();
            reloaded = true;
            deadline = Instant::now() + Duration::from_secs(45);
        } else if Instant::now() > deadline {
            let main = screen
                .run("return document.querySelector('main').innerText", vec![])
                .await;
            panic!(
                "{what}: no move form with the board's targets in:\n{}",
                main.as_str().unwrap_or_default()
            );
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The page and the board's frame are no wider than the screen; every cell a finger's target.
async fn fits(screen: &Screen, what: &str) {
    let sizes = screen
        .run(
            "const frame = document.querySelector('figure.board').getBoundingClientRect();\
             const svg = document.getElementById('board').getBoundingClientRect();\
             const hits = Array.from(document.querySelectorAll('#board .cell-hit'))\
               .map(e => e.getBoundingClientRect());\
             return {inner: innerWidth, scroll: document.documentElement.scrollWidth,\
               left: frame.left, right: frame.right, board: svg.width,\
               cells: hits.length,\
               least: Math.min(...hits.map(r => Math.min(r.width, r.height)))};",
            vec![],
        )
        .await;
    let number = |key: &str| sizes[key].as_f64().unwrap();
    let inner = number("inner");
    assert!(
        inner <= f64::from(screen.width),
        "{what}: laid out {inner} px wide"
    );
    assert!(
        number("scroll") <= inner,
        "{what}: the page is {} px wide in {inner}",
        number("scroll")
    );
    assert!(
        number("left") >= 0.0 && number("right") <= inner,
        "{what}: the board's frame runs from {} to {} px in {inner}",
        number("left"),
        number("right")
    );
    assert!(
        number("least") >= TARGET_PX,
        "{what}: a cell's target is {:.1} px, less than {TARGET_PX}",
        number("least")
    );
    eprintln!(
        "{what}: board {:.0} px wide in a {:.0} px frame, {} cells, the least target {:.1} px",
        number("board"),
        number("right") - number("left"),
        number("cells"),
        number("least")
    );
}

/// The second player's own pieces are in the bottom half; "Turn board" puts them at the top,
/// and again back at the bottom. With `reload`, a board the server turned and the player turned
/// back stays so when the page is loaded again (this browser remembers it), and one the
/// server drew as it is comes back as drawn (turning it over was for the moment).
async fn own_pieces_turn(screen: &Screen, app: &TestApp, id: i64, what: &str, reload: bool) {
    let at = screen.own_pieces_at(2).await;
    assert!(
        at > 0.5,
        "{what}: the second player's pieces at {at:.2} of the height"
    );
    screen.click("#turn-board").await;
    let turned = screen.own_pieces_at(2).await;
    assert!(
        turned < 0.5,
        "{what}: turned back, the second player's pieces at {turned:.2} of the height"
    );
    if reload {
        let server_turned = screen
            .run(
                "return document.getElementById('board').getAttribute('data-turn') === 'turned'",
                vec![],
            )
            .await
            == json!(true);
        open_turn(screen, app, id, what).await;
        let reloaded = screen.own_pieces_at(2).await;
        if server_turned {
            assert!(
                reloaded < 0.5,
                "{what}: loaded again, the board is not as the player turned it back: {reloaded:.2}"
            );
        } else {
            assert!(
                (reloaded - at).abs() < 0.01,
                "{what}: loaded again, the board is not as drawn: {reloaded:.2}"
            );
            return;
        }
    }
    screen.click("#turn-board").await;
    let again = screen.own_pieces_at(2).await;
    assert!(
        (again - at).abs() < 0.01,
        "{what}: turned twice {again:.2}, first {at:.2}"
    );
}

/// Before the first tap, the hint names the few stones that can start a move and rings them;
/// tapping one names where it may go, never hundreds of moves.
async fn kechi_hints(screen: &Screen, what: &str) {
    let help = screen.text_of("#move-help").await;
    let named = help
        .split_once(':')
        .map(|(_, list)| list.split(',').count())
        .unwrap_or(0);
    assert!(
        help.starts_with("Start at a ringed cell:") && (1..=8).contains(&named),
        "{what}: the first hint {help:?}"
    );
    let ringed = screen
        .run(
            "return Array.from(document.querySelectorAll('#board .candidate')).map(g => g.getAttribute('data-cell'))",
            vec![],
        )
        .await;
    let ringed: Vec<String> = serde_json::from_value(ringed).unwrap();
    assert_eq!(
        ringed.len(),
        named,
        "{what}: ringed {ringed:?} for {help:?}"
    );
    screen.tap_cell(&ringed[0]).await;
    let help = screen.text_of("#move-help").await;
    assert!(
        help.starts_with(&format!("{}: tap a ringed cell next", ringed[0])) && help.len() < 120,
        "{what}: the hint after tapping {}: {help:?}",
        ringed[0]
    );
    screen.click("#clear-pick").await;
}

/// On the turned Kefren board, a move tapped cell by cell is the move on those cells.
async fn tap_on_a_turned_board(screen: &Screen, app: &TestApp, id: i64, token: &str) {
    let turned = screen
        .run(
            "return document.getElementById('board').classList.contains('turned')",
            vec![],
        )
        .await;
    assert_eq!(turned, json!(true), "Kefren's second player sees it turned");
    let moves = screen
        .run(
            "return JSON.parse(document.getElementById('legal-moves').textContent)",
            vec![],
        )
        .await;
    // A plain step (two cells) no other move shares.
    let (mv, cells) = moves
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let cells: Vec<String> = m["c"][0]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            (m["m"].as_str().unwrap().to_owned(), cells)
        })
        .find(|(mv, cells)| cells.len() == 2 && mv.contains('-'))
        .expect("a step");
    for cell in &cells {
        screen.tap_cell(cell).await;
    }
    let value = screen
        .run("return document.getElementById('move').value", vec![])
        .await;
    assert_eq!(value, json!(mv), "tapping {cells:?} on the turned board");
    screen.click("#play").await;
    screen
        .wait_until(
            "return document.body.textContent.includes('You played')",
            "the played move",
        )
        .await;
    let record = get(app, &format!("/v1/games/{id}/moves"), token).await.body;
    let last = record["moves"]
        .as_array()
        .and_then(|moves| moves.last())
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned());
    assert_eq!(last.as_deref(), Some(mv.as_str()), "{record}");
}
