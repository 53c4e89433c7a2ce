//! Boards that fit and turn for the player (issue 47, point 2), in a real headless Chromium
//! at 320 and 375 CSS px (a phone's screen, emulated with touch): for every game and variant
//! size, on the second player's page on their turn, the page is no wider than the screen, and
//! at rest the board (labels included) no wider than its frame and the screen; where its cells'
//! tap targets are then under 24 × 24 px (getBoundingClientRect), "Zoom board" makes every one
//! at least that and the board scrolls in its frame (elsewhere the resting targets are), and a
//! move is tapped and played on a zoomed board (zoomed by the switch, and by a first tap about
//! the tapped point), the zoom kept through a live update; the player's own pieces are drawn
//! in the bottom half, and "Turn board" puts them at the top; a move tapped on a turned board
//! plays the tapped cells; the first Kechi hint names the few stones a move can start with.
//! One browser session a width.
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
#[path = "common/web.rs"]
mod web;

use std::time::{Duration, Instant};

use common::{get, Backend, TestApp};
use fantoccini::Locator;
use phone::Phone;
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

#[actix_web::test]
async fn boards_fit_the_screen_and_turn_for_their_player() {
    let app = TestApp::spawn(Backend::Sqlite).await;
    let anna = play::player(&app.pool, "anna");
    let dora = play::player(&app.pool, "dora");
    for (width, second) in [(320, "bert"), (375, "cleo")] {
        let token = play::player(&app.pool, second);
        let screen = Phone::start_at(width).await;
        screen.sign_in(&app, second).await;
        for (kind, options, players, own_pieces) in BOARDS {
            let options: Value = serde_json::from_str(options).unwrap();
            let (tokens, names) = if players == 3 {
                (vec![&*anna, &*token, &*dora], vec!["anna", second, "dora"])
            } else {
                (vec![&*anna, &*token], vec!["anna", second])
            };
            let id = web::started_game(&app, kind, options.clone(), &tokens, &names).await;
            web::play_first_legal_move(&app, id, &anna).await;
            let what = format!("{kind} {options} at {width} px");
            open_turn(&screen, &app, id, &what).await;
            let name = format!("boards-{kind}-{}-{width}", options_name(&options));
            let zoom = fits(&screen, &what).await;
            screen.screenshot(&name).await;
            if zoom {
                zoomed(&screen, &what).await;
                screen.screenshot(&format!("{name}-zoomed")).await;
                screen.click("#zoom-board").await;
                assert_zoom(&screen, false, &what).await;
                fits(&screen, &what).await;
            }
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
            // A large board at 320 px: moves tapped on it zoomed.
            if width == 320 && (options["lines"] == "7" || options["side"] == "10") {
                assert!(zoom, "{what}: the zoom is offered");
                play_zoomed(&screen, &app, id, &token, &anna, &what).await;
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

/// Opens game `id` and waits for its move form with the cells' targets.
async fn open_turn(screen: &Phone, app: &TestApp, id: i64, what: &str) {
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

/// The page and the board's frame are no wider than the screen, and at rest the board with
/// its labels no wider than the frame, so nothing scrolls; where the cells' targets are then
/// under [`TARGET_PX`], the zoom is offered (answered: whether it is).
async fn fits(screen: &Phone, what: &str) -> bool {
    let sizes = screen
        .run(
            "const frame = document.querySelector('figure.board');\
             const f = frame.getBoundingClientRect();\
             const svg = document.getElementById('board').getBoundingClientRect();\
             const labels = Array.from(document.querySelectorAll('#board text'))\
               .map(e => e.getBoundingClientRect());\
             const hits = Array.from(document.querySelectorAll('#board .cell-hit'))\
               .map(e => e.getBoundingClientRect());\
             const zoom = document.getElementById('zoom-board');\
             return {inner: innerWidth, scroll: document.documentElement.scrollWidth,\
               left: f.left, right: f.right, frameScroll: frame.scrollWidth - frame.clientWidth,\
               boardLeft: svg.left, boardRight: svg.right, board: svg.width,\
               labelLeft: Math.min(...labels.map(r => r.left)),\
               labelRight: Math.max(...labels.map(r => r.right)),\
               zoom: !!zoom && zoom.offsetParent !== null,\
               pressed: zoom ? zoom.getAttribute('aria-pressed') : null,\
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
        number("boardLeft") >= number("left") - 0.5
            && number("boardRight") <= number("right") + 0.5
            && number("frameScroll") <= 0.0,
        "{what}: at rest the board runs from {} to {} px in a frame from {} to {} \
         (scrolling {} px)",
        number("boardLeft"),
        number("boardRight"),
        number("left"),
        number("right"),
        number("frameScroll")
    );
    assert!(
        number("labelLeft") >= 0.0 && number("labelRight") <= inner,
        "{what}: the labels run from {} to {} px in {inner}",
        number("labelLeft"),
        number("labelRight")
    );
    let zoom = sizes["zoom"] == json!(true);
    assert!(
        zoom || number("least") >= TARGET_PX,
        "{what}: a cell's target is {:.1} px, less than {TARGET_PX}, and no zoom is offered",
        number("least")
    );
    if zoom {
        assert_eq!(
            sizes["pressed"],
            json!("false"),
            "{what}: at rest, not zoomed"
        );
    }
    eprintln!(
        "{what}: at rest the board is {:.0} px wide in a {:.0} px frame, {} cells, the least \
         target {:.1} px{}",
        number("board"),
        number("right") - number("left"),
        number("cells"),
        number("least"),
        if zoom { ", zoom offered" } else { "" }
    );
    zoom
}

/// "Zoom board" is pressed (`on`) or not, and the board's width follows within the deadline.
async fn assert_zoom(screen: &Phone, on: bool, what: &str) {
    let pressed = if on { "true" } else { "false" };
    screen
        .wait_until(
            &format!(
                "return document.getElementById('zoom-board').getAttribute('aria-pressed') === \
                 '{pressed}' && document.querySelector('figure.board').classList.contains('zoomed') \
                 === {on}"
            ),
            &format!("{what}: the zoom {pressed}"),
        )
        .await;
}

/// The least target and the sizes of a zoomed board.
async fn zoomed_sizes(screen: &Phone) -> Value {
    screen
        .run(
            "const frame = document.querySelector('figure.board');\
             const f = frame.getBoundingClientRect();\
             const hits = Array.from(document.querySelectorAll('#board .cell-hit'))\
               .map(e => e.getBoundingClientRect());\
             return {inner: innerWidth, scroll: document.documentElement.scrollWidth,\
               left: f.left, right: f.right, frameScroll: frame.scrollLeft,\
               board: document.getElementById('board').getBoundingClientRect().width,\
               least: Math.min(...hits.map(r => Math.min(r.width, r.height)))};",
            vec![],
        )
        .await
}

/// Zoomed with the switch: every target at least [`TARGET_PX`] square, the page and the
/// frame still no wider than the screen (the board scrolls inside its frame).
async fn zoomed(screen: &Phone, what: &str) {
    screen.click("#zoom-board").await;
    assert_zoom(screen, true, what).await;
    assert_zoomed_fits(screen, what).await;
}

async fn assert_zoomed_fits(screen: &Phone, what: &str) {
    let sizes = zoomed_sizes(screen).await;
    let number = |key: &str| sizes[key].as_f64().unwrap();
    let inner = number("inner");
    assert!(
        number("least") >= TARGET_PX,
        "{what}: zoomed, a cell's target is {:.1} px, less than {TARGET_PX}",
        number("least")
    );
    assert!(
        number("scroll") <= inner && number("left") >= 0.0 && number("right") <= inner,
        "{what}: zoomed, the page is {} px wide, the frame from {} to {} in {inner}",
        number("scroll"),
        number("left"),
        number("right")
    );
    eprintln!(
        "{what}: zoomed, the board is {:.0} px wide, the least target {:.1} px",
        number("board"),
        number("least")
    );
}

/// On a large board at 320 px: a move tapped and played on the board zoomed by the switch;
/// the board zoomed again on the next page keeps its zoom and scroll through the live update
/// that brings the opponent's move; a first tap on the board at rest zooms it about the tapped
/// point and picks nothing, and the move tapped next is played.
async fn play_zoomed(screen: &Phone, app: &TestApp, id: i64, token: &str, first: &str, what: &str) {
    zoomed(screen, what).await;
    let (mv, cells) = fewest_cells(screen).await;
    play_by_tapping(screen, app, id, token, &mv, &cells, what).await;

    // Waiting, the board zoomed and scrolled; the opponent's move arrives live.
    screen
        .wait_until(
            "return document.body.getAttribute('data-live') === 'open' \
             && !!document.getElementById('zoom-board')",
            &format!("{what}: the page's live stream"),
        )
        .await;
    zoomed(screen, what).await;
    let scrolled = screen
        .run(
            "const f = document.querySelector('figure.board');\
             f.scrollLeft = Math.floor((f.scrollWidth - f.clientWidth) / 3);\
             window.zoomMarker = 'kept'; return f.scrollLeft;",
            vec![],
        )
        .await;
    assert!(
        scrolled.as_f64().unwrap() > 0.0,
        "{what}: the zoomed board scrolls"
    );
    web::play_first_legal_move(app, id, first).await;
    screen
        .wait_until(
            "return !!document.getElementById('move-form') \
             && !!document.querySelector('#board .cell-hit')",
            &format!("{what}: the move form swapped in live"),
        )
        .await;
    let kept = screen
        .run(
            "return [window.zoomMarker, document.querySelector('figure.board').scrollLeft]",
            vec![],
        )
        .await;
    assert_eq!(kept[0], json!("kept"), "{what}: the page was reloaded");
    let (now, was) = (kept[1].as_f64().unwrap(), scrolled.as_f64().unwrap());
    assert!(
        (now - was).abs() <= 1.0,
        "{what}: the board scrolled {now} px after the live update, {was} before"
    );
    assert_zoom(screen, true, &format!("{what} after the live update")).await;
    assert_zoomed_fits(screen, &format!("{what} after the live update")).await;

    // At rest again; the first tap zooms about the tapped point.
    screen.click("#zoom-board").await;
    assert_zoom(screen, false, what).await;
    let (mv, cells) = fewest_cells(screen).await;
    let target = format!("#board g[data-cell=\"{}\"] .cell-hit", cells[0]);
    let before = screen
        .run(
            "const e = document.querySelector(arguments[0]);\
             e.scrollIntoView({block: 'center', inline: 'center'});\
             const r = e.getBoundingClientRect();\
             return [r.left + r.width / 2, r.top + r.height / 2, document.getElementById('move-help').textContent];",
            vec![json!(target)],
        )
        .await;
    screen.click(&target).await;
    assert_zoom(screen, true, &format!("{what}: the first tap")).await;
    let after = screen
        .run(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();\
             return [r.left, r.right, r.top, r.bottom, document.querySelectorAll('#board .picked').length,\
               document.getElementById('move-help').textContent];",
            vec![json!(target)],
        )
        .await;
    let (x, y) = (before[0].as_f64().unwrap(), before[1].as_f64().unwrap());
    let at = |i: usize| after[i].as_f64().unwrap();
    assert!(
        at(0) <= x && x <= at(1) && at(2) <= y && y <= at(3),
        "{what}: the tapped point ({x:.0}, {y:.0}) is not on the tapped cell after zooming: {after}"
    );
    assert_eq!(after[4], json!(0), "{what}: the zooming tap picked a cell");
    assert_eq!(
        after[5], before[2],
        "{what}: the zooming tap changed the hint"
    );
    assert_zoomed_fits(screen, &format!("{what}, zoomed by a tap")).await;
    screen
        .screenshot(&format!("boards-zoomed-by-a-tap-{}", screen.width))
        .await;
    play_by_tapping(screen, app, id, token, &mv, &cells, what).await;
}

/// Of the legal moves on the page, one through the fewest cells: its text and its cells.
async fn fewest_cells(screen: &Phone) -> (String, Vec<String>) {
    let moves = screen
        .run(
            "return JSON.parse(document.getElementById('legal-moves').textContent)",
            vec![],
        )
        .await;
    web::legal_moves(&moves)
        .into_iter()
        .min_by_key(|(_, cells)| cells.len())
        .expect("a legal move")
}

/// Taps `cells` in order, chooses `mv` among the moves through them if several are, plays it,
/// and checks the game's record ends with it.
async fn play_by_tapping(
    screen: &Phone,
    app: &TestApp,
    id: i64,
    token: &str,
    mv: &str,
    cells: &[String],
    what: &str,
) {
    for cell in cells {
        screen.tap_cell(cell).await;
    }
    let value = screen
        .run("return document.getElementById('move').value", vec![])
        .await;
    if value != json!(mv) {
        let chose = screen
            .run(
                "const b = Array.from(document.querySelectorAll('#move-choices button'))\
                   .find(b => b.textContent.endsWith('(' + arguments[0] + ')'));\
                 if (b) b.click(); return !!b;",
                vec![json!(mv)],
            )
            .await;
        assert_eq!(chose, json!(true), "{what}: tapping {cells:?} offers {mv}");
    }
    let value = screen
        .run("return document.getElementById('move').value", vec![])
        .await;
    assert_eq!(value, json!(mv), "{what}: tapping {cells:?}");
    screen.click("#play").await;
    screen
        .wait_until(
            "return document.body.textContent.includes('You played')",
            &format!("{what}: the played move"),
        )
        .await;
    let record = get(app, &format!("/v1/games/{id}/moves"), token).await.body;
    let last = record["moves"]
        .as_array()
        .and_then(|moves| moves.last())
        .map(|m| m["move"].as_str().unwrap_or_default().to_owned());
    assert_eq!(last.as_deref(), Some(mv), "{what}: {record}");
}

/// The second player's own pieces are in the bottom half; "Turn board" puts them at the top,
/// and again back at the bottom. With `reload`, a board the server turned and the player turned
/// back stays so when the page is loaded again (this browser remembers it), and one the
/// server drew as it is comes back as drawn (turning it over was for the moment).
async fn own_pieces_turn(screen: &Phone, app: &TestApp, id: i64, what: &str, reload: bool) {
    let at = own_pieces_at(screen, 2).await;
    assert!(
        at > 0.5,
        "{what}: the second player's pieces at {at:.2} of the height"
    );
    screen.click("#turn-board").await;
    let turned = own_pieces_at(screen, 2).await;
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
        let reloaded = own_pieces_at(screen, 2).await;
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
    let again = own_pieces_at(screen, 2).await;
    assert!(
        (again - at).abs() < 0.01,
        "{what}: turned twice {again:.2}, first {at:.2}"
    );
}

/// Before the first tap, the hint names the few stones that can start a move and rings them;
/// tapping one names where it may go, never hundreds of moves.
async fn kechi_hints(screen: &Phone, what: &str) {
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
async fn tap_on_a_turned_board(screen: &Phone, app: &TestApp, id: i64, token: &str) {
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
    let (mv, cells) = web::legal_moves(&moves)
        .into_iter()
        .find(|(mv, cells)| cells.len() == 2 && mv.contains('-'))
        .expect("a step");
    play_by_tapping(
        screen,
        app,
        id,
        token,
        &mv,
        &cells,
        "the turned Kefren board",
    )
    .await;
}

/// The vertical middle of the own pieces (circles filled in the colour of the seat's swatch
/// in the players' table, row `seat`) as a share of the board's height: 0 top, 1 bottom.
async fn own_pieces_at(screen: &Phone, seat: usize) -> f64 {
    let at = screen
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
