//! The web pages over real HTTP on both backends: every page's status and content, ply
//! navigation, HTML 404s, no email address anywhere, and playing from a turn card's play link
//! (cookie, CSRF, stale and refused moves, draw, resign with confirmation, revocation).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;
#[path = "common/web.rs"]
mod web;

use common::{get, post, Backend, TestApp};
use serde_json::json;
use turnpost_shared::{AnyGame, GameKind, Options};

both_backends!(
    pages_show_games_and_history,
    play_from_the_turn_card,
    play_cookie_is_secure_behind_https,
    odd_requests_get_html_answers,
    a_departed_seats_link_acts_no_more,
    the_page_shows_the_api_view_and_the_replayed_position,
);

/// The game page reads the game once (its view built from the same rows the API reads) and
/// shows the latest position from the stored one, without replaying: the view is the API's,
/// and the stored position is the one a replay of the record reaches.
async fn the_page_shows_the_api_view_and_the_replayed_position(backend: Backend) {
    use turnpost_server::games::{reads, Actor};
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    // More moves than the view's last moves, so the view's tail is cut from all of them.
    let id = kefren_game(&app, &anna, &bert, 13).await;
    let mut conn = app.conn();
    let anna_id = turnpost_server::db::accounts::by_name_key(&mut conn, "anna")
        .unwrap()
        .unwrap()
        .id;
    for viewer in [0, anna_id] {
        let page = reads::page(&mut conn, viewer, id).unwrap();
        if viewer != 0 {
            let api = reads::show(&mut conn, &Actor::Account(viewer), id).unwrap();
            assert_eq!(page.view, api);
        }
        assert_eq!(page.moves.moves.len(), 13);
        let replayed = page.start.clone().replay(&page.record.moves).unwrap();
        assert_eq!(page.position.position_text(), replayed.position_text());
        assert_eq!(page.position.legal_moves(), replayed.legal_moves());
    }
}

/// A page as text, with its status and content type.
struct Page {
    status: u16,
    content_type: String,
    headers: reqwest::header::HeaderMap,
    body: String,
}

/// A client that does not follow redirects (the tests look at them).
fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

async fn fetch(app: &TestApp, path: &str, cookie: Option<&str>) -> Page {
    let mut req = client().get(format!("{}{path}", app.base));
    if let Some(cookie) = cookie {
        req = req.header("cookie", cookie);
    }
    page_of(req.send().await.unwrap()).await
}

async fn submit(app: &TestApp, path: &str, cookie: Option<&str>, form: &[(&str, &str)]) -> Page {
    let mut req = client().post(format!("{}{path}", app.base)).form(form);
    if let Some(cookie) = cookie {
        req = req.header("cookie", cookie);
    }
    page_of(req.send().await.unwrap()).await
}

async fn page_of(resp: reqwest::Response) -> Page {
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let content_type = headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_owned())
        .unwrap_or_default();
    let body = resp.text().await.unwrap();
    assert_ne!(status, 500, "server answered 500: {body}");
    web::assert_no_email_address(&body);
    Page {
        status,
        content_type,
        headers,
        body,
    }
}

/// The `name="csrf"` value of the page's first form.
fn csrf_of(body: &str) -> String {
    let at = body.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
    body[at..at + 32].to_owned()
}

/// Creates a Kefren game anna (seat 1) vs bert and plays `moves` first legal moves (passing
/// over those that would end it by repetition).
async fn kefren_game(app: &TestApp, anna: &str, bert: &str, moves: usize) -> i64 {
    let id = web::started_game(app, "kefren", json!({}), &[anna, bert], &["anna", "bert"]).await;
    let mut position = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
    let mut history = turnpost_shared::play::PositionHistory::new(&position);
    for ply in 0..moves {
        let mv = position
            .legal_moves()
            .into_iter()
            .find(|mv| {
                let next = position.play(mv).unwrap().0;
                !history.completes_repetition(&next.position_text())
            })
            .unwrap();
        let token = if ply % 2 == 0 { anna } else { bert };
        let answer = post(
            app,
            &format!("/v1/games/{id}/moves"),
            token,
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        position = position.play(&mv).unwrap().0;
        history.after_line(&mv, &position);
    }
    id
}

async fn pages_show_games_and_history(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = kefren_game(&app, &anna, &bert, 3).await;
    let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
    let first = start.legal_moves()[0].clone();

    let home = fetch(&app, "/", None).await;
    assert_eq!(home.status, 200);
    assert!(
        home.content_type.starts_with("text/html"),
        "{}",
        home.content_type
    );
    assert!(
        home.body.contains("turnpost signup --server"),
        "{}",
        home.body
    );
    assert!(home.body.contains("href=\"/assets/turnpost.css\""));
    assert!(home.body.contains("name=\"viewport\""));
    // The site's name once in the title; an icon served from the binary, also where browsers
    // look without being told.
    assert!(!home.body.contains("turnpost · turnpost"), "{}", home.body);
    assert!(
        home.body
            .contains("<title>Abstract games by mail · turnpost</title>"),
        "{}",
        home.body
    );
    assert!(home
        .body
        .contains("rel=\"icon\" type=\"image/svg+xml\" href=\"/assets/favicon.svg\""));
    for icon in ["/assets/favicon.svg", "/favicon.ico"] {
        let served = fetch(&app, icon, None).await;
        assert_eq!(served.status, 200, "{icon}");
        assert_eq!(served.content_type, "image/svg+xml", "{icon}");
        assert!(served.body.starts_with("<svg "), "{icon}");
    }

    // The web app manifest and its icons (issue 47): a phone can put the site on its home
    // screen.
    assert!(home
        .body
        .contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"));
    let manifest = fetch(&app, "/manifest.webmanifest", None).await;
    assert_eq!(manifest.status, 200);
    assert_eq!(manifest.content_type, "application/manifest+json");
    let manifest: serde_json::Value = serde_json::from_str(&manifest.body).unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");
    let icons = manifest["icons"].as_array().unwrap();
    for side in [192_u32, 512] {
        let icon = icons
            .iter()
            .find(|icon| icon["sizes"] == format!("{side}x{side}"))
            .unwrap_or_else(|| panic!("a {side} px icon in {manifest}"));
        let png = app
            .http
            .get(format!("{}{}", app.base, icon["src"].as_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(png.status(), 200);
        assert_eq!(png.headers()["content-type"], "image/png");
        let bytes = png.bytes().await.unwrap();
        assert_eq!(
            &bytes[16..24],
            [side.to_be_bytes(), side.to_be_bytes()].concat()
        );
    }
    assert_eq!(fetch(&app, "/assets/icon-100.png", None).await.status, 404);

    // The latest position: the board with its title, the text board, the move list.
    let game = fetch(&app, &format!("/games/{id}"), None).await;
    assert_eq!(game.status, 200, "{}", game.body);
    // Times in words, in UTC for a reader who is not signed in (issue 47), exact for machines.
    assert!(
        game.body.contains("<dt>Started</dt><dd><time datetime=\""),
        "{}",
        game.body
    );
    assert!(
        game.body.contains(" UTC (now)</time>") || game.body.contains(" min ago)</time>"),
        "the start in words: {}",
        game.body
    );
    assert!(
        game.body.contains(" UTC (in 2 days)</time>"),
        "the deadline in words: {}",
        game.body
    );
    assert!(game.body.contains("<h1>Kefren #"), "{}", game.body);
    assert!(
        game.body.contains("<title id=\"board-title\">"),
        "{}",
        game.body
    );
    assert!(game.body.contains("role=\"img\""));
    assert!(game.body.contains("<details class=\"text-board\">"));
    assert!(game.body.contains("Move 3 of 3"));
    assert!(game
        .body
        .contains(&format!("rel=\"prev\" href=\"/games/{id}?ply=2\"")));
    assert!(!game.body.contains("rel=\"next\""));
    assert!(game.body.contains(&format!("href=\"/games/{id}?ply=1\"")));
    assert!(game.body.contains(&first), "the move list shows {first}");
    assert!(game.body.contains("bert to move."), "{}", game.body);
    assert!(game.body.contains("href=\"/players/anna\""));
    assert!(game.body.contains("href=\"/rules/kefren\""));
    assert!(
        !game.body.contains("id=\"move-form\""),
        "no form without a play cookie"
    );

    // Stepping back: the position after one move, with links both ways.
    let one = fetch(&app, &format!("/games/{id}?ply=1"), None).await;
    assert_eq!(one.status, 200);
    assert!(one.body.contains("Move 1 of 3"));
    assert!(one
        .body
        .contains(&format!("rel=\"prev\" href=\"/games/{id}?ply=0\"")));
    assert!(one
        .body
        .contains(&format!("rel=\"next\" href=\"/games/{id}?ply=2\"")));
    assert!(one.body.contains("aria-current=\"step\""));
    let board =
        |body: &str| body[body.find("<svg").unwrap()..body.find("</svg>").unwrap()].to_owned();
    assert_ne!(board(&one.body), board(&game.body), "another position");
    let zero = fetch(&app, &format!("/games/{id}?ply=0"), None).await;
    assert!(zero.body.contains("Move 0 of 3"));
    assert!(!zero.body.contains("rel=\"prev\""));
    let past = fetch(&app, &format!("/games/{id}?ply=9"), None).await;
    assert_eq!(past.status, 404);
    assert!(past.content_type.starts_with("text/html"));
    assert!(past.body.contains("has 3 moves"), "{}", past.body);
    let bad = fetch(&app, &format!("/games/{id}?ply=x"), None).await;
    assert_eq!(bad.status, 400);
    assert!(bad.body.contains("ply=x is not a number"), "{}", bad.body);

    let record = fetch(&app, &format!("/games/{id}/record"), None).await;
    assert_eq!(record.status, 200);
    assert!(record.content_type.starts_with("text/plain"));
    assert!(record.headers["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    assert!(record.body.contains("[Kind \"kefren\"]"), "{}", record.body);
    assert!(record.body.contains(&first));

    // A challenge not yet accepted has a page too, and stays out of the public listing.
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "sanqi", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let invited = answer.body["id"].as_i64().unwrap();
    let challenge = fetch(&app, &format!("/games/{invited}"), None).await;
    assert_eq!(challenge.status, 200);
    assert!(
        challenge.body.contains("waiting for the players to accept"),
        "{}",
        challenge.body
    );
    assert!(challenge.body.contains("No moves yet."));

    // Listings, players, rules.
    let list = fetch(&app, "/games", None).await;
    assert_eq!(list.status, 200);
    assert!(!list.body.contains(&format!("href=\"/games/{invited}\"")));
    assert!(
        list.body.contains(&format!("href=\"/games/{id}\"")),
        "{}",
        list.body
    );
    let filtered = fetch(&app, "/games?kind=kefren&player=ANNA", None).await;
    assert!(filtered.body.contains(&format!("href=\"/games/{id}\"")));
    let other_kind = fetch(&app, "/games?kind=sanqi", None).await;
    assert!(!other_kind.body.contains(&format!("href=\"/games/{id}\"")));
    assert!(other_kind.body.contains("No games here yet."));
    let nobody = fetch(&app, "/games?player=nobody", None).await;
    assert!(nobody.body.contains("No games here yet."));
    let unknown_kind = fetch(&app, "/games?kind=chess", None).await;
    assert_eq!(unknown_kind.status, 400);
    assert!(unknown_kind.body.contains("kind=chess is not a game"));
    let player = fetch(&app, "/players/anna", None).await;
    assert_eq!(player.status, 200);
    assert!(player.body.contains("<h1>anna</h1>"));
    assert!(player.body.contains(&format!("href=\"/games/{id}\"")));
    assert_eq!(fetch(&app, "/players/nobody", None).await.status, 404);
    let rules = fetch(&app, "/rules/kefren", None).await;
    assert_eq!(rules.status, 200);
    assert!(rules.body.contains("twirl"), "{}", rules.body);
    assert!(
        rules.body.contains("<pre tabindex=\"0\"><code>"),
        "the diagrams stay preformatted"
    );
    let unknown_rules = fetch(&app, "/rules/chess", None).await;
    assert_eq!(unknown_rules.status, 404);
    assert!(unknown_rules.body.contains("the games are kefren"));

    // 404s: HTML outside the API, JSON inside it.
    for path in [
        "/nowhere",
        "/games/0",
        "/games/abc",
        "/games/99999",
        "/assets/x.js",
    ] {
        let missing = fetch(&app, path, None).await;
        assert_eq!(missing.status, 404, "{path}");
        assert!(missing.content_type.starts_with("text/html"), "{path}");
        assert!(
            missing.body.contains("<h1>Not found</h1>"),
            "{path}: {}",
            missing.body
        );
    }
    let wrong_method = submit(&app, &format!("/games/{id}"), None, &[]).await;
    assert_eq!(wrong_method.status, 405);
    assert!(wrong_method.content_type.starts_with("text/html"));
    assert_eq!(wrong_method.headers["allow"], "GET, HEAD");
    let api = fetch(&app, "/v1/nowhere", None).await;
    assert_eq!(api.status, 404);
    assert!(api.content_type.starts_with("application/json"));

    // Assets and the API reference come from the binary: no other site is named.
    let css = fetch(&app, "/assets/turnpost.css", None).await;
    assert!(css.content_type.starts_with("text/css"));
    let script = fetch(&app, "/assets/game.js", None).await;
    assert!(script.content_type.starts_with("text/javascript"));
    let docs = fetch(&app, "/docs", None).await;
    assert_eq!(docs.status, 200);
    assert!(docs.body.contains("/v1/games/{id}/moves"), "{}", docs.body);
    for page in [&home, &game, &docs, &list, &rules] {
        assert!(
            !page.body.contains("src=\"http"),
            "nothing loaded from elsewhere"
        );
        assert!(
            !page.body.contains("href=\"http"),
            "nothing loaded from elsewhere"
        );
    }
}

async fn play_from_the_turn_card(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = kefren_game(&app, &anna, &bert, 0).await;

    // anna moves first: her turn card links to the page and carries her play link.
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let text = web::text_of(&card.data);
    let game_line = text.lines().find(|l| l.starts_with("The game: ")).unwrap();
    assert!(
        game_line.trim_end().ends_with(&format!("/games/{id}")),
        "{text}"
    );
    let link = web::play_link_in(&text, id);
    let path = link[link.find("/games/").unwrap()..].to_owned();

    // Following it sets the cookie and redirects to the game page.
    let followed = fetch(&app, &path, None).await;
    assert_eq!(followed.status, 303);
    assert_eq!(followed.headers["location"], format!("/games/{id}"));
    let set_cookie = followed.headers["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        set_cookie.starts_with(&format!("tp_play_{id}=")),
        "{set_cookie}"
    );
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
    assert!(set_cookie.contains("SameSite=Lax"), "{set_cookie}");
    assert!(
        set_cookie.contains(&format!("Path=/games/{id}")),
        "{set_cookie}"
    );
    assert!(
        !set_cookie.contains("Secure"),
        "http public URL: {set_cookie}"
    );
    let cookie = set_cookie.split(';').next().unwrap().to_owned();

    // A damaged link is refused (its last digit changed: to 1 when it is 0).
    let last = if path.ends_with('0') { "1" } else { "0" };
    let forged = fetch(&app, &format!("{}{last}", &path[..path.len() - 1]), None).await;
    assert_eq!(forged.status, 403);

    let page = fetch(&app, &format!("/games/{id}"), Some(&cookie)).await;
    assert!(page.body.contains("id=\"move-form\""), "{}", page.body);
    // The message fields say what they go with (issue 47: two read alike).
    assert!(page.body.contains("A message with your move (optional)"));
    assert!(page
        .body
        .contains("A message with your draw offer (optional)"));
    assert!(page.body.contains("<datalist id=\"legal-list\">"));
    assert!(page.body.contains("id=\"legal-moves\""));
    let csrf = csrf_of(&page.body);
    let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
    let legal = start.legal_moves()[0].clone();
    let move_path = format!("/games/{id}/move");

    // Without the cookie, or with a token of another page, posting is refused.
    let no_cookie = submit(
        &app,
        &move_path,
        None,
        &[("move", &legal), ("ply", "0"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(no_cookie.status, 403);
    assert!(
        no_cookie.body.contains("needs your play link"),
        "{}",
        no_cookie.body
    );
    let bad_token = submit(
        &app,
        &move_path,
        Some(&cookie),
        &[("move", &legal), ("ply", "0"), ("csrf", "00")],
    )
    .await;
    assert_eq!(bad_token.status, 403);

    // An illegal move: the engine's reason by the field, the text kept.
    let refused = submit(
        &app,
        &move_path,
        Some(&cookie),
        &[("move", "A1:A9:A5"), ("ply", "0"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        refused.body.contains("id=\"move-error\""),
        "{}",
        refused.body
    );
    assert!(refused.body.contains("value=\"A1:A9:A5\""));
    let bad_syntax = submit(
        &app,
        &move_path,
        Some(&cookie),
        &[("move", "hello"), ("ply", "0"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(bad_syntax.status, 422);
    // Said for a player: the word, what was expected; no byte offsets.
    assert!(
        bad_syntax.body.contains(
            "In &quot;hello&quot;, the &quot;e&quot; after &quot;h&quot; does not fit: \
             expected a number after the letter h."
        ),
        "{}",
        bad_syntax.body
    );
    assert!(!bad_syntax.body.contains("at byte"), "{}", bad_syntax.body);

    // A stale form (meant for another ply): the position now, with a note; nothing played.
    let stale = submit(
        &app,
        &move_path,
        Some(&cookie),
        &[("move", &legal), ("ply", "3"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(stale.status, 409, "{}", stale.body);
    assert!(stale.body.contains("moved on"), "{}", stale.body);
    // Numbered as everywhere: the next move's number (no move played yet: move 1).
    assert!(stale.body.contains("it is at move 1 now"), "{}", stale.body);
    assert_eq!(
        get(&app, &format!("/v1/games/{id}"), &anna).await.body["ply"],
        0
    );

    // The move: played through the service, then the page again; bert's card follows.
    let played = submit(
        &app,
        &move_path,
        Some(&cookie),
        &[("move", &legal), ("ply", "0"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(played.status, 303, "{}", played.body);
    // The page it leads to confirms the move (to this browser's seat only).
    let location = played.headers["location"].to_str().unwrap().to_owned();
    assert_eq!(location, format!("/games/{id}?played=1"));
    let confirmed = fetch(&app, &location, Some(&cookie)).await;
    assert!(
        confirmed
            .body
            .contains(&format!("You played {legal} (move 1).")),
        "{}",
        confirmed.body
    );
    let watched = fetch(&app, &location, None).await;
    assert!(!watched.body.contains("You played"), "{}", watched.body);
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await.body;
    assert_eq!(view["ply"], 1);
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
        .await
        .body;
    assert_eq!(moves["moves"][0]["move"], legal.as_str(), "{moves}");
    let cards = app.smtp.wait_for("bert@example.org", 2).await;
    let bert_text = web::text_of(&cards.last().unwrap().data);
    assert!(bert_text.contains(&legal), "{bert_text}");
    let bert_link = web::play_link_in(&bert_text, id);
    assert_ne!(bert_link, link, "each seat has its own link");
    let after = fetch(&app, &format!("/games/{id}"), Some(&cookie)).await;
    assert!(!after.body.contains("id=\"move-form\""), "not anna's turn");
    assert!(after.body.contains("It is not your turn"));

    // bert, in another browser, offers a draw; anna sees it and declines.
    let bert_path = bert_link[bert_link.find("/games/").unwrap()..].to_owned();
    let bert_cookie = fetch(&app, &bert_path, None).await.headers["set-cookie"]
        .to_str()
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_owned();
    let bert_page = fetch(&app, &format!("/games/{id}"), Some(&bert_cookie)).await;
    let bert_csrf = csrf_of(&bert_page.body);
    assert_ne!(bert_csrf, csrf);
    let offer = submit(
        &app,
        &format!("/games/{id}/draw"),
        Some(&bert_cookie),
        &[("action", "offer"), ("csrf", &bert_csrf)],
    )
    .await;
    assert_eq!(offer.status, 303, "{}", offer.body);
    let anna_page = fetch(&app, &format!("/games/{id}"), Some(&cookie)).await;
    assert!(
        anna_page.body.contains("Accept the draw"),
        "{}",
        anna_page.body
    );
    let decline = submit(
        &app,
        &format!("/games/{id}/draw"),
        Some(&cookie),
        &[("action", "decline"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(decline.status, 303, "{}", decline.body);
    // bert moves; anna reloads her "You played" address: the confirmation is stale now
    // (issue 47), while the same address before bert's move showed it.
    let answer = start.play(&legal).unwrap().0.legal_moves()[0].clone();
    let bert_moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": answer, "ply": 1}),
    )
    .await;
    assert_eq!(bert_moved.status, 201, "{bert_moved:?}");
    let reloaded = fetch(&app, &location, Some(&cookie)).await;
    assert_eq!(reloaded.status, 200);
    assert!(!reloaded.body.contains("You played"), "{}", reloaded.body);
    let odd = submit(
        &app,
        &format!("/games/{id}/draw"),
        Some(&cookie),
        &[("action", "maybe"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(odd.status, 400);
    assert!(odd.body.contains("use offer, accept or decline"));

    // Revoking anna's API token revokes her play link and cookie.
    let tokens = get(&app, "/v1/tokens", &anna).await.body;
    let token_id = tokens["tokens"][0]["id"].as_i64().unwrap();
    let revoked = common::call(
        &app,
        reqwest::Method::DELETE,
        &format!("/v1/tokens/{token_id}"),
        &anna,
        None,
    )
    .await;
    assert_eq!(revoked.status, 204);
    assert_eq!(fetch(&app, &path, None).await.status, 403);
    let refused_after = submit(
        &app,
        &format!("/games/{id}/draw"),
        Some(&cookie),
        &[("action", "offer"), ("csrf", &csrf)],
    )
    .await;
    assert_eq!(refused_after.status, 403);
    assert!(
        refused_after.body.contains("revoked"),
        "{}",
        refused_after.body
    );

    // bert resigns, with a confirmation step; then his link stops working.
    let confirm = fetch(&app, &format!("/games/{id}/resign"), Some(&bert_cookie)).await;
    assert_eq!(confirm.status, 200);
    assert!(confirm.body.contains("Yes, resign"));
    let unconfirmed = submit(
        &app,
        &format!("/games/{id}/resign"),
        Some(&bert_cookie),
        &[("csrf", &bert_csrf), ("confirm", "no")],
    )
    .await;
    assert_eq!(unconfirmed.status, 400);
    let resigned = submit(
        &app,
        &format!("/games/{id}/resign"),
        Some(&bert_cookie),
        &[("csrf", &bert_csrf), ("confirm", "yes")],
    )
    .await;
    assert_eq!(resigned.status, 303, "{}", resigned.body);
    let over = fetch(&app, &format!("/games/{id}"), None).await;
    assert!(
        over.body.contains("anna won (resignation)"),
        "{}",
        over.body
    );
    let gone = fetch(&app, &bert_path, None).await;
    assert_eq!(gone.status, 403);
    assert!(gone.body.contains("not being played"), "{}", gone.body);
}

async fn play_cookie_is_secure_behind_https(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| {
        config.public_url = Some("https://games.example.org".to_owned());
    })
    .await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = kefren_game(&app, &anna, &bert, 0).await;
    let card = &app.smtp.wait_for("anna@example.org", 1).await[0];
    let link = web::play_link_in(&web::text_of(&card.data), id);
    assert!(
        link.starts_with(&format!("https://games.example.org/games/{id}/play/")),
        "{link}"
    );
    let followed = fetch(&app, &link["https://games.example.org".len()..], None).await;
    assert_eq!(followed.status, 303);
    let set_cookie = followed.headers["set-cookie"].to_str().unwrap();
    assert!(set_cookie.contains("Secure"), "{set_cookie}");
    assert!(set_cookie.contains("HttpOnly"), "{set_cookie}");
}

/// A request of any method, its answer as a page.
async fn request(app: &TestApp, method: &str, path: &str) -> Page {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    page_of(
        client()
            .request(method, format!("{}{path}", app.base))
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// A form body as given, bytes and all.
async fn raw_form(app: &TestApp, path: &str, content_type: &str, body: Vec<u8>) -> Page {
    page_of(
        client()
            .post(format!("{}{path}", app.base))
            .header("content-type", content_type)
            .body(body)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// HEAD, OPTIONS, queries and forms a browser would never send: an HTML answer with a 4xx
/// status saying what was expected, never a 500 or the API's JSON.
async fn odd_requests_get_html_answers(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = kefren_game(&app, &anna, &bert, 1).await;

    // HEAD: GET's status and headers, no body.
    for path in [
        "/",
        "/games",
        &format!("/games/{id}"),
        "/players/anna",
        "/rules/kefren",
        "/docs",
    ] {
        let head = request(&app, "HEAD", path).await;
        assert_eq!(head.status, 200, "HEAD {path}");
        assert!(head.content_type.starts_with("text/html"), "HEAD {path}");
        assert!(head.body.is_empty(), "HEAD {path}: {}", head.body);
    }
    let head = request(&app, "HEAD", &format!("/games/{id}/record")).await;
    assert_eq!(head.status, 200);
    assert!(head.content_type.starts_with("text/plain"));
    // OPTIONS and other methods: 405 naming what is allowed.
    let options = request(&app, "OPTIONS", &format!("/games/{id}")).await;
    assert_eq!(options.status, 405);
    assert_eq!(options.headers["allow"], "GET, HEAD");
    assert!(options.content_type.starts_with("text/html"));

    // Bad positions: 400 or 404 as a page.
    for query in [
        "ply=-1",
        "ply=99999999999999999999999",
        "ply=1&ply=0",
        "ply=%FF",
        "ply=1e3",
    ] {
        let page = fetch(&app, &format!("/games/{id}?{query}"), None).await;
        assert!(
            page.status == 400 || page.status == 404,
            "?{query}: {}",
            page.status
        );
        assert!(
            page.content_type.starts_with("text/html"),
            "?{query}: {} {}",
            page.content_type,
            page.body
        );
        assert!(page.body.contains("ply"), "?{query}: {}", page.body);
    }
    // A name with a NUL (PostgreSQL refuses one in a query): nobody, on every backend.
    let nobody = fetch(&app, "/players/an%00na", None).await;
    assert_eq!(nobody.status, 404, "{}", nobody.body);
    let none = fetch(&app, "/games?player=an%00na", None).await;
    assert_eq!(none.status, 200, "{}", none.body);
    assert!(none.body.contains("No games here yet."), "{}", none.body);
    let challenge = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "be\u{0}rt"]}),
    )
    .await;
    assert_eq!(challenge.status, 422, "{challenge:?}");
    let list = fetch(&app, "/games?kind=kefren&kind=sanqi", None).await;
    assert_eq!(list.status, 400);
    assert!(list.content_type.starts_with("text/html"), "{}", list.body);

    // Forms: over the size limit 413, not a form 415, bytes that are not UTF-8 a 4xx; all pages.
    let form = "application/x-www-form-urlencoded";
    let path = format!("/games/{id}/move");
    let big = raw_form(&app, &path, form, vec![b'a'; 64 * 1024]).await;
    assert_eq!(big.status, 413, "{}", big.body);
    assert!(big.content_type.starts_with("text/html"));
    assert!(big.body.contains("larger than"), "{}", big.body);
    let json = raw_form(&app, &path, "application/json", b"{}".to_vec()).await;
    assert_eq!(json.status, 415, "{}", json.body);
    assert!(json.content_type.starts_with("text/html"));
    let bytes = raw_form(&app, &path, form, b"move=\xff\xfe&ply=1&csrf=\xff".to_vec()).await;
    assert!((400..500).contains(&bytes.status), "{}", bytes.status);
    assert!(bytes.content_type.starts_with("text/html"));
}

/// A seat whose player resigned and a bot plays on (`on_leave=bot`): the player's play link and
/// its cookie still open the page, without forms, and every form posted with them is refused.
async fn a_departed_seats_link_acts_no_more(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let names = ["dp1", "dp2", "dp3"];
    let tokens: Vec<String> = names.iter().map(|n| play::player(&app.pool, n)).collect();
    let answer = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "chinese-checkers", "seats": names, "on_leave": "bot"}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let answer = post(&app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    // dp2's link, as its turn cards carry it; followed while dp2 still plays.
    let link = {
        let mut conn = app.conn();
        let key = turnpost_server::preferences::unsubscribe::load_key(&mut conn).unwrap();
        let account = turnpost_server::db::accounts::by_name_key(&mut conn, "dp2")
            .unwrap()
            .unwrap();
        turnpost_server::play_link::link("", &key, id, 2, account.id, account.link_generation)
    };
    let followed = fetch(&app, &link, None).await;
    assert_eq!(followed.status, 303, "{}", followed.body);
    let set_cookie = followed.headers["set-cookie"].to_str().unwrap().to_owned();
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let page = fetch(&app, &format!("/games/{id}"), Some(&cookie)).await;
    assert!(page.body.contains("Offer a draw"), "{}", page.body);
    let csrf = csrf_of(&page.body);

    // dp2 resigns; a bot plays the seat on.
    let resigned = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &tokens[1],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    assert_eq!(resigned.body["seats"][1]["played_by"], "bot-3");

    let page = fetch(&app, &format!("/games/{id}"), Some(&cookie)).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("name=\"csrf\""), "{}", page.body);
    let draw = submit(
        &app,
        &format!("/games/{id}/draw"),
        Some(&cookie),
        &[("action", "offer"), ("csrf", &csrf)],
    )
    .await;
    assert!((400..500).contains(&draw.status), "{}", draw.body);
    let resign = submit(
        &app,
        &format!("/games/{id}/resign"),
        Some(&cookie),
        &[("confirm", "yes"), ("csrf", &csrf)],
    )
    .await;
    assert!((400..500).contains(&resign.status), "{}", resign.body);
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    let legal = {
        let mine = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
        mine["legal_moves"][0]
            .as_str()
            .unwrap_or("A1-A2")
            .to_owned()
    };
    let ply = view["ply"].to_string();
    let moved = submit(
        &app,
        &format!("/games/{id}/move"),
        Some(&cookie),
        &[("move", &legal), ("ply", &ply), ("csrf", &csrf)],
    )
    .await;
    assert!((400..500).contains(&moved.status), "{}", moved.body);
    let after = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert!(after["draw_offered_by"].is_null(), "{after}");
    assert_eq!(after["seats"][1]["played_by"], "bot-3");
    assert_eq!(after["ply"], view["ply"], "nothing was played: {after}");
    // Every position of the game, the departure included, has its page; so has every
    // position of a game whose player left the board (on_leave=remove).
    for ply in 0..=after["ply"].as_u64().unwrap() {
        let page = fetch(&app, &format!("/games/{id}?ply={ply}"), None).await;
        assert_eq!(page.status, 200, "ply {ply}: {}", page.body);
    }
    let refs: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let removed = web::started_game(&app, "chinese-checkers", json!({}), &refs, &names).await;
    let resigned = post(
        &app,
        &format!("/v1/games/{removed}/resign"),
        &tokens[2],
        json!({}),
    )
    .await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    for ply in 0..=resigned.body["ply"].as_u64().unwrap() {
        let page = fetch(&app, &format!("/games/{removed}?ply={ply}"), None).await;
        assert_eq!(page.status, 200, "ply {ply}: {}", page.body);
        assert!(page.body.contains("<svg"), "ply {ply}");
    }
}
