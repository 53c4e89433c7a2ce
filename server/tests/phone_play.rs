//! Playing from a phone, in a real headless Chromium at 375 CSS px (issue 26, points 7 and 8):
//! a SanQi move by tapping a cell and choosing its colour from the picker with the keyboard;
//! a Kechi two-part move tapped in both orders of its parts; board cells and buttons at least
//! 24 × 24 px (getBoundingClientRect); the public game page says "you" only to the seat's
//! player; the HTML turn card leads with its play button; and every page kind no wider than
//! the screen and without a serious or critical axe-core violation.
//! One browser serves every case (it is the slow part).
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

use common::{get, post, Backend, TestApp};
use fantoccini::{key::Key, Locator};
use phone::Phone;
use serde_json::json;

/// The least size of a touch target, in CSS px (WCAG 2.2, 2.5.8).
const TARGET_PX: f64 = 24.0;

/// Every page kind anyone may open: (what it is, path). `{game}` is a running Kefren game,
/// `{unsubscribe}` the signed unsubscribe link of its turn card. Add new pages here.
const PUBLIC_PAGES: &[(&str, &str)] = &[
    ("the home page", "/"),
    ("the game list", "/games"),
    ("a game page without the move form", "/games/{game}"),
    ("an earlier position of a game", "/games/{game}?ply=0"),
    ("a player page", "/players/anna"),
    ("the rating kinds", "/ratings"),
    ("a leaderboard", "/ratings/kefren"),
    ("the rules of Kefren", "/rules/kefren"),
    ("the rules of Kechi", "/rules/kechi"),
    ("the rules of SanQi", "/rules/sanqi"),
    ("the rules of Chinese Checkers", "/rules/chinese-checkers"),
    ("the API reference", "/docs"),
    ("an error page", "/games/999999"),
    ("the unsubscribe page", "{unsubscribe}"),
    ("the sign-up form", "/signup"),
    ("the sign-in form", "/signin"),
    ("the tournaments", "/tournaments"),
    (
        "a running tournament with its standings",
        "/tournaments/{tournament}",
    ),
];

/// The page kinds of a signed-in browser (signed up as `cara` from the sign-up form).
const SIGNED_IN_PAGES: &[(&str, &str)] = &[
    ("my games", "/"),
    ("my games at /me", "/me"),
    ("the new game form", "/new"),
    ("the open challenges", "/challenges"),
    ("the settings page", "/settings"),
    (
        "the tournaments with the link to organise one",
        "/tournaments",
    ),
    (
        "the form to organise a Chinese Checkers tournament",
        "/tournaments/new?kind=chinese-checkers",
    ),
    (
        "the form to organise a Kechi tournament",
        "/tournaments/new?kind=kechi",
    ),
    (
        "a tournament for a signed-in browser",
        "/tournaments/{tournament}",
    ),
    ("a game page for a signed-in spectator", "/games/{game}"),
];

/// The page kinds of a seat's player (after opening the play link of `{game}`).
const SEAT_PAGES: &[(&str, &str)] = &[
    ("a game page with the move form", "/games/{game}"),
    ("the resign confirmation", "/games/{game}/resign"),
];

#[actix_web::test]
async fn playing_from_a_phone() {
    let phone = Phone::start().await;
    let app = TestApp::spawn(Backend::Sqlite).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    sanqi_colour_by_tapping(&phone, &app, &anna, &bert).await;
    kechi_parts_in_either_order(&phone, &app, &anna, &bert).await;
    chinese_checkers_holes_are_finger_sized(&phone, &app, &anna, &bert).await;
    let kefren = web::started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    goals_say_you_only_to_the_seat(&phone, &app, kefren).await;
    turn_card_leads_with_the_play_button(&phone, &app, kefren).await;
    every_page_kind(&phone, &app, kefren, "light").await;
    phone.stop().await;
}

/// Every page kind again with the dark theme (issue 47): its colours must pass axe-core's
/// contrast checks as the light ones do; and the site menu opens and closes on one line.
#[actix_web::test]
async fn every_page_kind_in_the_dark() {
    let phone = Phone::start_dark().await;
    let app = TestApp::spawn(Backend::Sqlite).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let kefren = web::started_game(
        &app,
        "kefren",
        json!({}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    phone.open(&format!("{}/games", app.base)).await;
    assert_eq!(
        phone
            .client
            .execute(
                "return matchMedia('(prefers-color-scheme: dark)').matches",
                vec![]
            )
            .await
            .unwrap(),
        json!(true),
        "the dark theme asked for"
    );
    // The background is the dark token, not the light one.
    let background = phone
        .client
        .execute(
            "return getComputedStyle(document.body).backgroundColor",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(background, json!("rgb(22, 19, 15)"), "the dark background");
    site_menu_on_one_line(&phone).await;
    every_page_kind(&phone, &app, kefren, "dark").await;
    phone.stop().await;
}

/// The main page kinds in a 1280 px window, light and dark (issue 47): the home page, a game
/// page on your turn (a few moves in), your games, a running tournament and the settings, each
/// no wider than the window and without a serious or critical axe-core violation, saved as
/// `desktop-<theme>-<page>.png` under target/screenshots (the README shows two).
#[actix_web::test]
async fn main_page_kinds_on_a_desktop() {
    for dark in [false, true] {
        let theme = if dark { "dark" } else { "light" };
        let desktop = Phone::start_desktop(dark).await;
        let app = TestApp::spawn(Backend::Sqlite).await;
        let anna = play::player(&app.pool, "anna");
        let bert = play::player(&app.pool, "bert");
        desktop.open(&format!("{}/", app.base)).await;
        desktop_page(&desktop, "home", theme).await;
        // Signed in first: the code is anna's first mail.
        desktop.sign_in(&app, "anna").await;
        let game = web::started_game(
            &app,
            "chinese-checkers",
            json!({"players": 2}),
            &[&anna, &bert],
            &["anna", "bert"],
        )
        .await;
        for token in [&anna, &bert, &anna, &bert] {
            web::play_first_legal_move(&app, game, token).await;
        }
        let waiting =
            web::started_game(&app, "kechi", json!({}), &[&anna, &bert], &["anna", "bert"]).await;
        web::play_first_legal_move(&app, waiting, &anna).await;
        let tournament = running_tournament(&app).await;
        for (what, path) in [
            ("your-games", "/".to_owned()),
            ("game", format!("/games/{game}")),
            ("tournament", format!("/tournaments/{tournament}")),
            ("settings", "/settings".to_owned()),
        ] {
            desktop.open(&format!("{}{path}", app.base)).await;
            if what == "game" {
                desktop
                    .wait_until(
                        "return !!document.querySelector('#board .cell-hit')",
                        "the board's targets",
                    )
                    .await;
                let zoom = desktop
                    .client
                    .execute(
                        "const z = document.getElementById('zoom-board');\
                         return !!z && z.offsetParent !== null",
                        vec![],
                    )
                    .await
                    .unwrap();
                assert_eq!(zoom, json!(false), "no zoom offered at 1280 px");
                desktop.assert_targets(".cell-hit", TARGET_PX).await;
            }
            if what == "your-games" {
                // The deadline in words, in anna's time zone (issue 47), not a raw UTC time.
                let deadline = desktop.text_of("ul.my-games time").await;
                assert!(
                    deadline.contains(" (in ") && !deadline.contains("UTC"),
                    "the deadline on your games: {deadline:?}"
                );
            }
            desktop_page(&desktop, what, theme).await;
        }
        desktop.stop().await;
    }
}

/// The page `what` fits the window, passes axe-core, and is saved as a screenshot.
async fn desktop_page(desktop: &Phone, what: &str, theme: &str) {
    let what = format!("the desktop's {what} page");
    desktop.assert_fits(&what).await;
    desktop.assert_accessible(&what).await;
    let name = what
        .trim_start_matches("the desktop's ")
        .trim_end_matches(" page");
    desktop.screenshot(&format!("desktop-{theme}-{name}")).await;
}

/// The site navigation is one line at 375 px; its menu opens over the page with the rest of
/// the links and closes again.
async fn site_menu_on_one_line(phone: &Phone) {
    let height = phone
        .number("return document.querySelector('header.site nav').getBoundingClientRect().height")
        .await;
    assert!(
        height < 56.0,
        "the navigation is {height} px high: more than one line"
    );
    let shown = "return document.querySelector('header.site .menu-items').checkVisibility()";
    assert_eq!(
        phone.client.execute(shown, vec![]).await.unwrap(),
        json!(false),
        "the menu starts closed"
    );
    phone.click("header details.menu summary").await;
    phone
        .wait_until(
            "return document.querySelector('header.site .menu-items').checkVisibility()",
            "the open menu",
        )
        .await;
    let links = phone
        .number("return [...document.querySelectorAll('header.site .menu-items a')].filter(a => a.getBoundingClientRect().height >= 24).length")
        .await;
    assert!(
        links >= 7.0,
        "ratings, four rules, the API and an account link: {links}"
    );
    phone.assert_fits("the open site menu").await;
    phone.click("header details.menu summary").await;
    phone
        .wait_until(
            "return !document.querySelector('header.site .menu-items').checkVisibility()",
            "the menu closed again",
        )
        .await;
}

/// The moves played in game `id`, in order.
async fn moves_of(app: &TestApp, id: i64, token: &str) -> Vec<String> {
    let moves = get(app, &format!("/v1/games/{id}/moves"), token).await.body;
    moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_owned())
        .collect()
}

/// Opens the play link of the newest turn card of game `id` to `to`; waits for the form.
async fn open_play_link(phone: &Phone, app: &TestApp, to: &str, id: i64) {
    let marker = format!("/games/{id}/play/");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let text = loop {
        let found = app
            .smtp
            .messages_to(to)
            .iter()
            .rev()
            .map(|m| web::text_of(&m.data))
            .find(|text| text.contains(&marker));
        if let Some(text) = found {
            break text;
        }
        assert!(std::time::Instant::now() < deadline, "no card to {to}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let link = web::play_link_in(&text, id);
    phone
        .open(&format!(
            "{}{}",
            app.base,
            &link[link.find("/games/").unwrap()..]
        ))
        .await;
    phone.wait_for_text("id=\"move-form\"").await;
}

/// Tapping a SanQi cell that several colours can fill offers one button per colour; the
/// keyboard chooses one; Play plays it.
async fn sanqi_colour_by_tapping(phone: &Phone, app: &TestApp, anna: &str, bert: &str) {
    let id = web::started_game(app, "sanqi", json!({}), &[anna, bert], &["anna", "bert"]).await;
    open_play_link(phone, app, "anna@example.org", id).await;
    let legal = web::position_of(app, id, anna).await.legal_moves();
    // The cell with the most colours to choose from.
    let cell_of = |mv: &String| mv.split('@').nth(1).unwrap().to_owned();
    let cell = legal
        .iter()
        .map(cell_of)
        .max_by_key(|cell| legal.iter().filter(|mv| cell_of(mv) == *cell).count())
        .unwrap();
    let colours: Vec<&String> = legal.iter().filter(|mv| cell_of(mv) == cell).collect();
    assert!(colours.len() > 1, "a cell several colours can fill");

    phone.tap_cell(&cell).await;
    phone
        .wait_until(
            "return !document.getElementById('move-choices').hidden",
            "the colour picker",
        )
        .await;
    let buttons = phone
        .client
        .find_all(Locator::Css("#move-choices button"))
        .await
        .unwrap();
    assert_eq!(buttons.len(), colours.len(), "one button per colour");
    let mut labels = Vec::new();
    for button in &buttons {
        labels.push(button.text().await.unwrap());
    }
    for mv in &colours {
        assert!(
            labels.iter().any(|l| l.contains(mv.as_str())),
            "{mv} among {labels:?}"
        );
    }
    assert!(
        labels
            .iter()
            .all(|l| ["Red", "Blue", "Yellow"].iter().any(|c| l.starts_with(c))),
        "each button names its colour: {labels:?}"
    );
    phone
        .assert_targets("#move-choices button", TARGET_PX)
        .await;
    // The picker has the focus; the keyboard moves on to the second colour and presses it.
    let focused = phone
        .client
        .execute(
            "return document.activeElement === document.querySelector('#move-choices button')",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(focused, json!(true), "the first colour has the focus");
    phone
        .client
        .active_element()
        .await
        .unwrap()
        .send_keys(&Key::Tab.to_string())
        .await
        .unwrap();
    phone
        .client
        .active_element()
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    let chosen = colours
        .iter()
        .find(|mv| labels[1].contains(mv.as_str()))
        .unwrap()
        .to_string();
    assert_eq!(phone.value_of("#move").await, chosen, "the second colour");
    phone
        .assert_accessible("a SanQi game page with the picker")
        .await;
    phone.assert_fits("a SanQi game page").await;
    phone.click("#play").await;
    phone.wait_for_text("Move 1 of 1").await;
    assert_eq!(moves_of(app, id, anna).await, [chosen]);
}

/// A Kechi turn of two stone moves, tapped second part first and then first part first,
/// gives the same move both times; cells and buttons are finger-sized.
async fn kechi_parts_in_either_order(phone: &Phone, app: &TestApp, anna: &str, bert: &str) {
    let id = web::started_game(app, "kechi", json!({}), &[anna, bert], &["anna", "bert"]).await;
    open_play_link(phone, app, "anna@example.org", id).await;
    let legal = web::position_of(app, id, anna).await.legal_moves();
    let mv = legal
        .iter()
        .find(|mv| mv.split(',').count() == 2)
        .expect("a turn of two stone moves")
        .clone();
    let parts: Vec<Vec<&str>> = mv
        .split(',')
        .map(|part| part.split(['-', ':']).collect())
        .collect();
    assert!(parts.iter().all(|p| p.len() == 2), "{mv}");
    phone.assert_targets(".cell-hit", TARGET_PX).await;
    phone
        .assert_targets(
            "#move-form button:not([hidden]), .actions button, a.resign",
            TARGET_PX,
        )
        .await;
    phone.assert_fits("a Kechi game page").await;

    // The first tap on a stone rings where it may go, not nearly the whole board (issue 47).
    phone.tap_cell(parts[0][0]).await;
    let ringed = phone
        .number("return document.querySelectorAll('#board .candidate').length")
        .await;
    assert!(
        (1.0..=30.0).contains(&ringed),
        "{ringed} cells ringed after tapping {}",
        parts[0][0]
    );
    let help = phone
        .client
        .execute(
            "return document.getElementById('move-help').textContent",
            vec![],
        )
        .await
        .unwrap();
    assert!(
        help.as_str().is_some_and(|text| text.len() < 200),
        "a short hint, not a list of moves: {help}"
    );
    phone.click("#clear-pick").await;

    for order in [[1, 0], [0, 1]] {
        for part in order {
            for cell in &parts[part] {
                phone.tap_cell(cell).await;
            }
        }
        assert_eq!(
            phone.value_of("#move").await,
            mv,
            "tapping the parts of {mv} in the order {order:?}"
        );
        phone.click("#clear-pick").await;
        assert_eq!(phone.value_of("#move").await, "");
    }
    // Second part first again, then Play.
    for part in [1, 0] {
        for cell in &parts[part] {
            phone.tap_cell(cell).await;
        }
    }
    phone.assert_accessible("a Kechi game page").await;
    // The form works from the keyboard: Enter in the field plays the move.
    phone
        .client
        .find(Locator::Css("#move"))
        .await
        .unwrap()
        .send_keys(&Key::Enter.to_string())
        .await
        .unwrap();
    phone.wait_for_text("Move 1 of 1").await;
    assert_eq!(moves_of(app, id, anna).await, [mv]);
}

/// The Chinese Checkers board, the densest, fits the 375 px screen at rest, its holes then a
/// little under a finger apart: "Zoom board" keeps them at least that, the board scrolling
/// inside its frame (opened at its middle) instead of the page; axe-core finds the switch
/// fine in both states.
async fn chinese_checkers_holes_are_finger_sized(
    phone: &Phone,
    app: &TestApp,
    anna: &str,
    bert: &str,
) {
    let id = web::started_game(
        app,
        "chinese-checkers",
        json!({"players": 2}),
        &[anna, bert],
        &["anna", "bert"],
    )
    .await;
    open_play_link(phone, app, "anna@example.org", id).await;
    let frame_scrolls = "const f = document.querySelector('figure.board');\
                         return f.scrollWidth > f.clientWidth;";
    let at_rest = phone.client.execute(frame_scrolls, vec![]).await.unwrap();
    assert_eq!(at_rest, json!(false), "the star fits its frame at rest");
    phone
        .assert_accessible("a Chinese Checkers game page, the board at rest")
        .await;
    phone.click("#zoom-board").await;
    phone
        .wait_until(
            "return document.getElementById('zoom-board').getAttribute('aria-pressed') === 'true'",
            "the board zoomed",
        )
        .await;
    let holes = phone.assert_targets(".cell-hit", TARGET_PX).await;
    let board = phone
        .number("return document.querySelector('figure.board svg').getBoundingClientRect().width")
        .await;
    eprintln!("the zoomed Chinese Checkers board is {board} px wide at 375 px");
    assert_eq!(holes, 121, "every hole of the star is a target");
    let centred = phone
        .client
        .execute(
            "const f = document.querySelector('figure.board');\
             return f.scrollWidth > f.clientWidth\
               && Math.abs(f.scrollLeft - (f.scrollWidth - f.clientWidth) / 2) <= 1;",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(
        centred,
        json!(true),
        "the zoomed star, wider than the screen, scrolls in its frame and opens at its middle"
    );
    phone.assert_fits("a Chinese Checkers game page").await;
    phone
        .assert_accessible("a Chinese Checkers game page")
        .await;
}

/// A spectator reads each seat's goal said of the seat; the seat's player reads their own
/// goal addressed to them, and the others' said of them.
async fn goals_say_you_only_to_the_seat(phone: &Phone, app: &TestApp, id: i64) {
    let goals = "return Array.from(document.querySelectorAll('table.players tbody tr'))\
                 .map(row => row.cells[2].textContent)";
    phone.client.delete_all_cookies().await.unwrap();
    phone.open(&format!("{}/games/{id}", app.base)).await;
    let public = phone.client.execute(goals, vec![]).await.unwrap();
    let public: Vec<String> = serde_json::from_value(public).unwrap();
    assert_eq!(public.len(), 2);
    assert!(public[0].starts_with("Black wins"), "{public:?}");
    assert!(public[1].starts_with("White wins"), "{public:?}");
    let main = phone
        .client
        .find(Locator::Css("main"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let words: Vec<String> = main
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .collect();
    assert!(
        !words.iter().any(|w| w == "you" || w == "your"),
        "the public page says \"you\":\n{main}"
    );
    open_play_link(phone, app, "anna@example.org", id).await;
    let own = phone.client.execute(goals, vec![]).await.unwrap();
    let own: Vec<String> = serde_json::from_value(own).unwrap();
    assert!(own[0].starts_with("you (Black) win"), "{own:?}");
    assert!(own[1].starts_with("White wins"), "{own:?}");
}

/// The HTML part of the turn card at 375 px: one large play button first, the board once,
/// the command lower down; no sideways scrolling.
async fn turn_card_leads_with_the_play_button(phone: &Phone, app: &TestApp, id: i64) {
    let card = app.smtp.wait_for("anna@example.org", 1).await;
    let raw = card
        .iter()
        .rev()
        .find(|m| web::text_of(&m.data).contains(&format!("/games/{id}/play/")))
        .unwrap();
    let message = mail_parser::MessageParser::default()
        .parse(raw.data.as_bytes())
        .unwrap();
    let html = message.body_html(0).unwrap().into_owned();
    assert_eq!(html.matches("<img").count(), 1, "the board once:\n{html}");
    assert_eq!(
        html.matches("<pre").count(),
        1,
        "no text board, one command:\n{html}"
    );
    let button = html.find("Play this move in your browser").unwrap();
    let command = html.find("<pre").unwrap();
    let picture = html.find("<img").unwrap();
    assert!(button < picture && picture < command, "{html}");
    phone.open("about:blank").await;
    phone
        .client
        .execute(
            "document.open(); document.write(arguments[0]); document.close();",
            vec![json!(html)],
        )
        .await
        .unwrap();
    let first_link = phone
        .client
        .execute(
            "const a = document.querySelector('a'); const r = a.getBoundingClientRect();\
             return [a.textContent, r.top, r.width, r.height];",
            vec![],
        )
        .await
        .unwrap();
    assert_eq!(first_link[0], "Play this move in your browser");
    assert!(first_link[1].as_f64().unwrap() < 200.0, "{first_link}");
    assert!(first_link[2].as_f64().unwrap() >= 250.0, "{first_link}");
    assert!(first_link[3].as_f64().unwrap() >= 44.0, "{first_link}");
    phone.assert_fits("the HTML turn card").await;
}

/// Every page kind at 375 px: no wider than the screen, and no serious or critical axe-core
/// violation; each saved as `phone-<theme>-<page>.png` under target/screenshots.
async fn every_page_kind(phone: &Phone, app: &TestApp, game: i64, theme: &str) {
    let card = app.smtp.wait_for("anna@example.org", 1).await;
    let unsubscribe = card
        .iter()
        .rev()
        .find_map(|m| m.header("List-Unsubscribe"))
        .expect("a card with an unsubscribe link");
    let unsubscribe = unsubscribe
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    let unsubscribe = &unsubscribe[unsubscribe.find("/v1/").unwrap()..];
    let tournament = running_tournament(app).await;
    let path_of = |path: &str| {
        path.replace("{game}", &game.to_string())
            .replace("{unsubscribe}", unsubscribe)
            .replace("{tournament}", &tournament.to_string())
    };
    phone.client.delete_all_cookies().await.unwrap();
    for (what, path) in PUBLIC_PAGES {
        phone.open(&format!("{}{}", app.base, path_of(path))).await;
        phone.assert_fits(what).await;
        phone.assert_accessible(what).await;
        phone
            .screenshot(&format!("phone-{theme}-{}", what.replace(' ', "-")))
            .await;
    }
    open_play_link(phone, app, "anna@example.org", game).await;
    for (what, path) in SEAT_PAGES {
        phone.open(&format!("{}{}", app.base, path_of(path))).await;
        phone.assert_fits(what).await;
        phone.assert_accessible(what).await;
        phone
            .screenshot(&format!("phone-{theme}-{}", what.replace(' ', "-")))
            .await;
    }
    phone.client.delete_all_cookies().await.unwrap();
    sign_up(phone, app, "cara").await;
    for (what, path) in SIGNED_IN_PAGES {
        phone.open(&format!("{}{}", app.base, path_of(path))).await;
        phone.assert_fits(what).await;
        phone.assert_accessible(what).await;
        phone
            .screenshot(&format!("phone-{theme}-{}", what.replace(' ', "-")))
            .await;
    }
}

/// A Swiss tournament of three long-named players in its first round (a game, a bye, the
/// standings table): its id.
async fn running_tournament(app: &TestApp) -> i64 {
    let names = [
        "tournament-player-1",
        "tournament-player-2",
        "tournament-player-3",
    ];
    let tokens: Vec<String> = names.iter().map(|n| play::player(&app.pool, n)).collect();
    let closes = turnpost_server::db::now() + chrono::Duration::hours(1);
    let created = post(
        app,
        "/v1/tournaments",
        &tokens[0],
        json!({"name": "The phone cup, a tournament with a long name", "kind": "kefren",
               "format": "swiss", "rounds": 3,
               "entry_closes_at": turnpost_server::db::rfc3339(closes)}),
    )
    .await;
    assert_eq!(created.status, 201, "{created:?}");
    let id = created.body["id"].as_i64().unwrap();
    for token in &tokens {
        let joined = post(app, &format!("/v1/tournaments/{id}/join"), token, json!({})).await;
        assert_eq!(joined.status, 200, "{joined:?}");
    }
    let step = turnpost_server::tournaments::advance(
        &mut app.conn(),
        &app.mail_context(),
        id,
        closes + chrono::Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(step, turnpost_server::tournaments::Step::Started);
    id
}

/// Signs `name` up from the sign-up form with the mailed code, checking the code form too.
async fn sign_up(phone: &Phone, app: &TestApp, name: &str) {
    let email = format!("{name}@example.org");
    phone.open(&format!("{}/signup", app.base)).await;
    phone.fill("#name", name).await;
    phone.fill("#email", &email).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("id=\"code\"").await;
    phone.assert_fits("the code form").await;
    phone.assert_accessible("the code form").await;
    let mail = app.smtp.wait_for(&email, 1).await;
    phone.fill("#code", &common::code_in(&mail[0].data)).await;
    phone.click("form.stack button[type=submit]").await;
    phone.wait_for_text("Your games").await;
}
