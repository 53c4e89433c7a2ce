//! Ratings over HTTP on both backends (issue 27): which challenges are rated, the update after
//! a win (by resignation), a draw by agreement, a loss on time and departures in a
//! multi-player game; aborted and unrated games change nothing; the players' and leaderboard
//! routes; `ratings rebuild` reproduces the stored table and finds a changed row.
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
use common::{get, post, Backend, TestApp};
use diesel::prelude::*;
use serde_json::{json, Value};
use turnpost_server::db;
use turnpost_server::db::outbox::OutboxMail;
use turnpost_server::db::schema::{games, mail_outbox, rating_history};
use turnpost_server::sweeps;

both_backends!(
    a_rated_game_rates_both_players,
    aborted_unrated_and_bot_games_change_nothing,
    draws_and_timeouts_rate_and_rebuild_reproduces_them,
    multi_player_games_rate_by_placings,
);

/// Players with tokens, by name.
fn players(app: &TestApp, names: &[&str]) -> Vec<String> {
    names.iter().map(|n| play::player(&app.pool, n)).collect()
}

/// A challenge by `tokens[0]` to `names` (in seat order) with `extra` fields; answers it.
async fn challenge(app: &TestApp, kind: &str, names: &[&str], token: &str, extra: Value) -> Value {
    let mut body = json!({"kind": kind, "seats": names});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    let answer = post(app, "/v1/games", token, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    answer.body
}

/// A started game: challenged by the first token, accepted by the others.
async fn started(
    app: &TestApp,
    kind: &str,
    names: &[&str],
    tokens: &[String],
    extra: Value,
) -> i64 {
    let id = challenge(app, kind, names, &tokens[0], extra).await["id"]
        .as_i64()
        .unwrap();
    for token in &tokens[1..] {
        let answer = post(app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    id
}

/// The seat to move plays its first legal move (the tokens in seat order).
async fn play_one(app: &TestApp, id: i64, tokens: &[String]) -> Value {
    let game = get(app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    let seat = usize::try_from(game["to_move"].as_u64().unwrap()).unwrap();
    let token = &tokens[seat - 1];
    let game = get(app, &format!("/v1/games/{id}"), token).await.body;
    let mv = game["legal_moves"][0].as_str().unwrap().to_owned();
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": game["ply"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    answer.body
}

async fn resign(app: &TestApp, id: i64, token: &str) -> Value {
    let answer = post(app, &format!("/v1/games/{id}/resign"), token, json!({})).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body
}

/// A player's rating entry of `kind` (Null when they have none).
async fn rating_of(app: &TestApp, token: &str, name: &str, kind: &str) -> Value {
    let answer = get(app, &format!("/v1/players/{name}"), token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["kind"] == kind)
        .cloned()
        .unwrap_or(Value::Null)
}

fn history_rows(app: &TestApp) -> i64 {
    rating_history::table
        .count()
        .get_result(&mut *app.conn())
        .unwrap()
}

/// The text parts of the mails queued for `name`, oldest first.
fn mail_texts(app: &TestApp, name: &str) -> Vec<String> {
    app.game_mail_queued();
    mail_outbox::table
        .filter(mail_outbox::recipient.eq(format!("{name}@example.org")))
        .order(mail_outbox::id.asc())
        .select(OutboxMail::as_select())
        .load(&mut *app.conn())
        .unwrap()
        .into_iter()
        .map(|m| m.body_text)
        .collect()
}

async fn a_rated_game_rates_both_players(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let tokens = players(&app, &["anna", "bert"]);
    let made = challenge(&app, "kefren", &["anna", "bert"], &tokens[0], json!({})).await;
    assert_eq!(made["rated"], true, "rated between people by default");
    let id = made["id"].as_i64().unwrap();
    // Before it starts, bert sees what each result would do to his rating.
    let invited = get(&app, &format!("/v1/games/{id}"), &tokens[1]).await.body;
    assert_eq!(
        invited["rating_changes"],
        json!({"win": 162, "draw": 0, "loss": -162}),
        "{invited}"
    );
    assert_eq!(
        invited["seats"][0]["rating"],
        json!({"rating": 1500, "provisional": true})
    );
    // So does his invitation mail, and the players' ratings stand beside their names.
    let invitation = mail_texts(&app, "bert").pop().unwrap();
    assert!(
        invitation
            .contains("your rating changes by +162 for a win, +0 for a draw, -162 for a loss"),
        "{invitation}"
    );
    assert!(invitation.contains("anna (1500?), "), "{invitation}");
    post(
        &app,
        &format!("/v1/games/{id}/accept"),
        &tokens[1],
        json!({}),
    )
    .await;
    play_one(&app, id, &tokens).await;
    play_one(&app, id, &tokens).await;
    // anna's turn card names bert with his rating.
    let card = mail_texts(&app, "anna").pop().unwrap();
    assert!(card.contains("bert (1500?), "), "{card}");
    let over = resign(&app, id, &tokens[0]).await;
    assert_eq!(over["status"], "finished");
    assert!(
        over.get("rating_changes").is_none(),
        "only before the game: {over}"
    );
    let bert = rating_of(&app, &tokens[0], "bert", "kefren").await;
    assert_eq!(bert["rating"], 1662, "{bert}");
    assert_eq!(bert["deviation"], 290, "{bert}");
    assert_eq!(bert["provisional"], true);
    assert_eq!(bert["games"], 1);
    assert_eq!(bert["history"][0]["game"], id);
    assert_eq!(bert["history"][0]["before"], 1500);
    assert_eq!(bert["history"][0]["after"], 1662);
    let anna = rating_of(&app, &tokens[1], "ANNA", "kefren").await;
    assert_eq!(anna["rating"], 1338, "{anna}");
    // The finished game's view shows the ratings after it.
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["seats"][1]["rating"]["rating"], 1662, "{view}");
    // The leaderboard: bert first.
    let board = get(&app, "/v1/ratings/kefren", &tokens[0]).await;
    assert_eq!(board.status, 200, "{board:?}");
    let names: Vec<&str> = board.body["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["player"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bert", "anna"]);
    assert_eq!(board.body["players"][0]["rank"], 1);
    assert_eq!(board.body["players"][0]["provisional"], true);
    assert_eq!(board.body["total"], 2, "{board:?}");
    assert_eq!(board.body["offset"], 0, "{board:?}");
    assert!(
        board.body.get("next_offset").is_none(),
        "one page: {board:?}"
    );
    // A page at a time: one player a page.
    let first = get(&app, "/v1/ratings/kefren?limit=1", &tokens[0])
        .await
        .body;
    assert_eq!(first["players"].as_array().unwrap().len(), 1, "{first}");
    assert_eq!(first["players"][0]["player"], "bert", "{first}");
    assert_eq!(
        (&first["total"], &first["next_offset"]),
        (&json!(2), &json!(1))
    );
    let second = get(&app, "/v1/ratings/kefren?limit=1&offset=1", &tokens[0])
        .await
        .body;
    assert_eq!(second["players"][0]["player"], "anna", "{second}");
    assert_eq!(second["players"][0]["rank"], 2, "{second}");
    assert!(
        second.get("next_offset").is_none(),
        "the last page: {second}"
    );
    let past = get(&app, "/v1/ratings/kefren?offset=5", &tokens[0])
        .await
        .body;
    assert_eq!(past["players"], json!([]), "{past}");
    assert_eq!(past["total"], 2, "{past}");
    for bad in ["limit=0", "limit=101", "offset=-1", "offset=x", "page=2"] {
        let refused = get(&app, &format!("/v1/ratings/kefren?{bad}"), &tokens[0]).await;
        assert_eq!(refused.status, 400, "{bad}: {refused:?}");
        assert_eq!(
            refused.body["error"]["code"], "bad_query",
            "{bad}: {refused:?}"
        );
    }
    // Unknown kinds and players are 404s that say what there is.
    let unknown = get(&app, "/v1/ratings/chess", &tokens[0]).await;
    assert_eq!(unknown.status, 404, "{unknown:?}");
    assert!(
        unknown.body["error"]["message"]
            .as_str()
            .unwrap()
            .contains("chinese-checkers-multi"),
        "{unknown:?}"
    );
    assert_eq!(
        get(&app, "/v1/players/nobody", &tokens[0]).await.status,
        404
    );
    assert_eq!(app.get("/v1/ratings/kefren", None).await.status, 401);
    // The web pages show them.
    let page = app
        .http
        .get(format!("{}/ratings/kefren", app.base))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    assert!(html.contains("bert") && html.contains("1662?"), "{html}");
    assert!(html.contains("Page 1 of 1 (2 players)"), "{html}");
    // Kinds by their names for people; "Other kinds" leaves out the one shown (issue 47).
    assert!(html.contains("<h1>Ratings: Kefren</h1>"), "{html}");
    let others = html.split("Other kinds").nth(1).unwrap();
    assert!(!others.contains("href=\"/ratings/kefren\""), "{others}");
    assert!(
        others.contains("Chinese Checkers, 3 or more players"),
        "{others}"
    );
    // bert's page: the kind by its name, and a graph with a rating axis, a date axis and
    // the band of the rating now, 1662 ± 290 (issue 47).
    let player = app
        .http
        .get(format!("{}/players/bert", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        player.contains("<a href=\"/ratings/kefren\">Kefren</a>"),
        "{player}"
    );
    let graph = &player[player.find("<svg class=\"rating-graph\"").unwrap()..];
    let graph = &graph[..graph.find("</svg>").unwrap()];
    assert!(graph.contains("Kefren rating history</title>"), "{graph}");
    assert!(
        graph.contains("The rating now is 1662 ± 290 (the shaded band)."),
        "{graph}"
    );
    assert!(graph.contains("<rect class=\"band\""), "{graph}");
    // The scale reaches the whole band: 1662 + 290 on top.
    assert!(graph.contains(">1952</text>"), "{graph}");
    let today = chrono::Utc::now().format("%-d %b %Y").to_string();
    assert!(graph.contains(&format!(">{today}</text>")), "{graph}");
    // The web leaderboard in pages, with links between them.
    let page_html = |query: &'static str| {
        let url = format!("{}/ratings/kefren?{query}", app.base);
        let http = app.http.clone();
        async move {
            let answer = http.get(url).send().await.unwrap();
            (answer.status().as_u16(), answer.text().await.unwrap())
        }
    };
    let (status, first) = page_html("limit=1").await;
    assert_eq!(status, 200);
    assert!(first.contains("href=\"/players/bert\""), "{first}");
    assert!(!first.contains("href=\"/players/anna\""), "{first}");
    assert!(first.contains("Page 1 of 2 (2 players)"), "{first}");
    assert!(
        first.contains("href=\"/ratings/kefren?page=2&amp;limit=1\""),
        "{first}"
    );
    let (_, second) = page_html("page=2&limit=1").await;
    assert!(second.contains("href=\"/players/anna\""), "{second}");
    assert!(!second.contains("href=\"/players/bert\""), "{second}");
    assert!(second.contains("Page 2 of 2"), "{second}");
    assert!(
        second.contains("href=\"/ratings/kefren?page=1&amp;limit=1\""),
        "{second}"
    );
    let (_, past) = page_html("page=9").await;
    assert!(past.contains("page 9 is past the last"), "{past}");
    for bad in ["page=0", "page=x", "limit=500"] {
        let (status, body) = page_html(bad).await;
        assert_eq!(status, 400, "{bad}: {body}");
        assert!(body.contains("expected"), "{bad}: {body}");
    }
    let page = app
        .http
        .get(format!("{}/players/bert", app.base))
        .send()
        .await
        .unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains("<svg") && html.contains("Kefren rating history"),
        "{html}"
    );
    assert_eq!(
        app.http
            .get(format!("{}/ratings/chess", app.base))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
}

async fn aborted_unrated_and_bot_games_change_nothing(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let tokens = players(&app, &["anna", "bert"]);
    // Aborted: bert resigns before he moved once.
    let id = started(&app, "kefren", &["anna", "bert"], &tokens, json!({})).await;
    play_one(&app, id, &tokens).await;
    resign(&app, id, &tokens[1]).await;
    assert_eq!(history_rows(&app), 0, "an aborted game rates nobody");
    // Unrated on request.
    let id = started(
        &app,
        "kefren",
        &["anna", "bert"],
        &tokens,
        json!({"rated": false}),
    )
    .await;
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["rated"], false);
    play_one(&app, id, &tokens).await;
    play_one(&app, id, &tokens).await;
    resign(&app, id, &tokens[1]).await;
    assert_eq!(history_rows(&app), 0, "an unrated game rates nobody");
    assert_eq!(
        rating_of(&app, &tokens[0], "anna", "kefren").await,
        Value::Null
    );
    // A non-standard board is unrated by default, and refused as rated.
    let made = challenge(
        &app,
        "sanqi",
        &["anna", "bert"],
        &tokens[0],
        json!({"options": {"side": 6}}),
    )
    .await;
    assert_eq!(made["rated"], false);
    let refused = post(
        &app,
        "/v1/games",
        &tokens[0],
        json!({"kind": "sanqi", "seats": ["anna", "bert"], "options": {"side": 6}, "rated": true}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");
    assert_eq!(refused.error_code(), "invalid_options");
    let message = refused.body["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("side=6") && message.contains("not rated"),
        "{message}"
    );
    // A bot game is unrated unless asked for; asked for, it is rated.
    let bot_game = challenge(&app, "kefren", &["anna", "bot-2"], &tokens[0], json!({})).await;
    assert_eq!(bot_game["rated"], false);
    assert_eq!(bot_game["status"], "active");
    let asked = challenge(
        &app,
        "kefren",
        &["bert", "bot-2"],
        &tokens[1],
        json!({"rated": true}),
    )
    .await;
    assert_eq!(asked["rated"], true);
}

async fn draws_and_timeouts_rate_and_rebuild_reproduces_them(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let tokens = players(&app, &["anna", "bert", "cleo"]);
    // A draw by agreement after both moved: ratings stay, deviations shrink.
    let id = started(&app, "kefren", &["anna", "bert"], &tokens[..2], json!({})).await;
    play_one(&app, id, &tokens[..2]).await;
    play_one(&app, id, &tokens[..2]).await;
    post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &tokens[0],
        json!({"action": "offer"}),
    )
    .await;
    let drawn = post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &tokens[1],
        json!({"action": "accept"}),
    )
    .await;
    assert_eq!(drawn.body["result"], "draw", "{drawn:?}");
    let anna = rating_of(&app, &tokens[0], "anna", "kefren").await;
    assert_eq!(
        (anna["rating"].as_i64(), anna["deviation"].as_i64()),
        (Some(1500), Some(290))
    );
    // A loss on time: cleo (seat 2) runs out of time after both moved.
    let pair = [tokens[0].clone(), tokens[2].clone()];
    let id = started(&app, "kefren", &["anna", "cleo"], &pair, json!({})).await;
    play_one(&app, id, &pair).await;
    play_one(&app, id, &pair).await;
    play_one(&app, id, &pair).await;
    diesel::update(games::table.find(id))
        .set(games::deadline_at.eq(Some(db::now() - Duration::minutes(1))))
        .execute(&mut *app.conn())
        .unwrap();
    sweeps::end_timed_out(&mut app.conn(), db::now()).unwrap();
    let view = get(&app, &format!("/v1/games/{id}"), &tokens[0]).await.body;
    assert_eq!(view["result_reason"], "timeout", "{view}");
    let anna = rating_of(&app, &tokens[0], "anna", "kefren").await;
    assert!(anna["rating"].as_i64().unwrap() > 1500, "{anna}");
    assert_eq!(anna["games"], 2);
    let cleo = rating_of(&app, &tokens[0], "cleo", "kefren").await;
    assert!(cleo["rating"].as_i64().unwrap() < 1500, "{cleo}");
    assert_eq!(anna["history"][1]["before"], 1500);
    // The rebuild reproduces the stored table and writes nothing with --check.
    let stored = history_rows(&app);
    assert_eq!(stored, 4);
    let report = turnpost_server::cli::rating_rebuild::rebuild(&mut app.conn(), true).unwrap();
    assert_eq!((report.games, report.rows, report.stored), (2, 4, 4));
    assert!(report.mismatches.is_empty(), "{report:?}");
    // A changed row is found, and a rebuild without --check puts it right.
    diesel::update(rating_history::table.filter(rating_history::game_id.eq(id)))
        .set(rating_history::rating_after.eq(1234.0))
        .execute(&mut *app.conn())
        .unwrap();
    let report = turnpost_server::cli::rating_rebuild::rebuild(&mut app.conn(), true).unwrap();
    assert_eq!(report.mismatches.len(), 2, "{report:?}");
    assert!(report.mismatches[0].contains("1234.00"), "{report:?}");
    let report = turnpost_server::cli::rating_rebuild::rebuild(&mut app.conn(), false).unwrap();
    assert_eq!(report.mismatches.len(), 2);
    let report = turnpost_server::cli::rating_rebuild::rebuild(&mut app.conn(), true).unwrap();
    assert!(report.mismatches.is_empty(), "{report:?}");
    assert_eq!(rating_of(&app, &tokens[0], "anna", "kefren").await, anna);
}

async fn multi_player_games_rate_by_placings(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let names = ["pia", "ola", "uma"];
    let tokens = players(&app, &names);
    let id = started(&app, "chinese-checkers", &names, &tokens, json!({})).await;
    for _ in 0..3 {
        play_one(&app, id, &tokens).await;
    }
    // pia leaves first, then ola: uma wins, ola second, pia third.
    resign(&app, id, &tokens[0]).await;
    let over = resign(&app, id, &tokens[1]).await;
    assert_eq!(over["status"], "finished", "{over}");
    assert_eq!(over["placings"], json!([3, 2, 1]));
    let rating = |v: &Value| v["rating"].as_i64().unwrap();
    let pia = rating_of(&app, &tokens[0], "pia", "chinese-checkers-multi").await;
    let ola = rating_of(&app, &tokens[0], "ola", "chinese-checkers-multi").await;
    let uma = rating_of(&app, &tokens[0], "uma", "chinese-checkers-multi").await;
    assert!(
        rating(&uma) > rating(&ola) && rating(&ola) > rating(&pia),
        "{uma} {ola} {pia}"
    );
    assert_eq!(
        rating(&uma) - 1500,
        1500 - rating(&pia),
        "symmetric among equals"
    );
    assert_eq!(
        rating_of(&app, &tokens[0], "uma", "chinese-checkers").await,
        Value::Null
    );
    let board = get(&app, "/v1/ratings/chinese-checkers-multi", &tokens[0])
        .await
        .body;
    assert_eq!(board["players"][0]["player"], "uma", "{board}");
    // uma's page names the kind as players say it, not by its URL name (issue 47).
    let page = app
        .http
        .get(format!("{}/players/uma", app.base))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        page.contains(
            "<a href=\"/ratings/chinese-checkers-multi\">Chinese Checkers, 3 or more players</a>"
        ),
        "{page}"
    );
    assert!(!page.contains(">chinese-checkers-multi"), "{page}");
    // A departure before every seat moved aborts: nothing more is rated.
    let before = history_rows(&app);
    let id = started(&app, "chinese-checkers", &names, &tokens, json!({})).await;
    play_one(&app, id, &tokens).await;
    resign(&app, id, &tokens[1]).await;
    resign(&app, id, &tokens[2]).await;
    assert_eq!(history_rows(&app), before);
}
