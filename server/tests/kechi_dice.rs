//! Kechi's dice stay secret while a game runs (issue 19 item 2), on both backends: no answer,
//! list, record or mail of a running game shows the seed (the only way to future rolls);
//! the commitment shown from the start is the SHA-256 of the seed revealed at the end; the
//! finished record replays every roll; and a challenge shows no roll, so withdrawing and
//! challenging again gives no say over the dice.
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

use std::collections::HashSet;
use std::time::{Duration, Instant};

use common::{get, post, Backend, TestApp};
use serde_json::{json, Value};
use sha2::{Digest as _, Sha256};
use turnpost_server::db::outbox::OutboxStatus;
use turnpost_shared::play::DepartureText;
use turnpost_shared::{AnyGame, GameRecord, Options};

both_backends!(
    a_running_game_shows_no_seed_and_the_end_reveals_it,
    rechallenging_gives_no_control_of_the_seed,
    bots_think_without_the_seed,
);

/// The rules' die, written here from the rules file: `splitmix64(seed + ply) mod 6 + 1`.
fn roll(seed: u64, ply: u64) -> u64 {
    let mut z = seed.wrapping_add(ply).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 6 + 1
}

/// SHA-256 of the seed's decimal digits, in lower-case hex, computed here independently.
fn sha256_of_decimal(seed: u64) -> String {
    Sha256::digest(seed.to_string().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The seed the server drew, if it has, read from the stored options (players never see
/// this column).
fn stored_seed(app: &TestApp, id: i64) -> Option<u64> {
    use diesel::prelude::*;
    use turnpost_server::db::schema::games;
    let options: String = games::table
        .find(id)
        .select(games::options)
        .first(&mut *app.conn())
        .unwrap();
    Options::from_pairs(options.split_whitespace())
        .unwrap()
        .get("seed")
        .map(|seed| seed.parse().unwrap())
}

/// The total field of a view's position text.
fn shown_total(view: &Value) -> &str {
    view["position"]
        .as_str()
        .unwrap()
        .split(' ')
        .nth(3)
        .unwrap()
}

/// Fails if `text` (what `place` showed a player) holds `seed` in any way it could be written:
/// decimal, hex (both cases, padded or not), or its bytes in hex.
fn assert_no_seed(place: &str, text: &str, seed: u64) {
    let forms = [
        seed.to_string(),
        format!("{seed:x}"),
        format!("{seed:X}"),
        format!("{seed:016x}"),
        format!("{seed:016X}"),
        seed.to_le_bytes()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect(),
    ];
    for form in forms {
        assert!(
            !text.contains(&form),
            "{place} shows the seed as `{form}`:\n{text}"
        );
    }
}

async fn record_text(app: &TestApp, id: i64, token: &str) -> String {
    let resp = app
        .http
        .get(format!("{}/v1/games/{id}/record", app.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    resp.text().await.unwrap()
}

/// Every mail the game caused, once all are delivered: as sent over SMTP (raw and decoded) and
/// as queued in the outbox.
async fn delivered_mail(app: &TestApp) -> Vec<(String, String)> {
    app.game_mail_composed().await;
    let deadline = Instant::now() + Duration::from_secs(60);
    let rows = loop {
        let rows = turnpost_server::db::outbox::all(&mut app.conn()).unwrap();
        if rows.iter().all(|row| row.status == OutboxStatus::Sent)
            && app.smtp.messages().len() >= rows.len()
        {
            break rows;
        }
        assert!(
            Instant::now() < deadline,
            "mail not delivered in time: {} at the SMTP server, the outbox: {:?}",
            app.smtp.messages().len(),
            rows.iter()
                .map(|r| (r.id, r.status, r.recipient.clone(), r.subject.clone()))
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut texts = Vec::new();
    for row in &rows {
        texts.push((
            format!("outbox mail {} to {}", row.id, row.recipient),
            format!(
                "{}\n{}\n{}",
                row.subject,
                row.body_text,
                row.parts.clone().unwrap_or_default()
            ),
        ));
    }
    for (index, message) in app.smtp.messages().into_iter().enumerate() {
        let parsed = mail_parser::MessageParser::default()
            .parse(message.data.as_bytes())
            .unwrap();
        let mut decoded = String::new();
        for i in 0..parsed.text_body_count() {
            decoded.push_str(&parsed.body_text(i).unwrap_or_default());
        }
        for i in 0..parsed.html_body_count() {
            decoded.push_str(&parsed.body_html(i).unwrap_or_default());
        }
        assert!(!decoded.is_empty(), "mail {index} has no text");
        texts.push((format!("SMTP mail {index} (decoded)"), decoded));
        texts.push((format!("SMTP mail {index} (raw)"), message.data));
    }
    texts
}

fn engine_options(view: &Value) -> Options {
    Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap()
}

async fn a_running_game_shows_no_seed_and_the_end_reveals_it(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let tokens = [&anna, &bert];
    let challenge = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kechi", "options": {"total": "die"}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(challenge.status, 201, "{challenge:?}");
    let id = challenge.body["id"].as_i64().unwrap();
    // A challenge has no seed yet, so no roll and no commitment.
    assert_eq!(stored_seed(&app, id), None);
    assert_eq!(shown_total(&challenge.body), "?");
    assert!(
        challenge.body["seed_sha256"].is_null(),
        "{}",
        challenge.body
    );

    let mut shown: Vec<(String, Value)> = vec![("the challenge answer".into(), challenge.body)];
    let invites = get(&app, "/v1/games?status=invited", &bert).await.body;
    assert_eq!(invites["games"][0]["id"], id);
    shown.push(("bert's invites".into(), invites));
    shown.push((
        "the challenge as bert sees it".into(),
        get(&app, &format!("/v1/games/{id}"), &bert).await.body,
    ));
    let mut pages: Vec<(String, String)> = Vec::new();
    let mut texts = vec![(
        "the challenge's record".to_owned(),
        record_text(&app, id, &bert).await,
    )];
    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    // The game starts: the seed is drawn, its commitment shown.
    let seed = stored_seed(&app, id).unwrap();
    // A drawn 64-bit seed is this short with a probability below 1e-9; a short one could
    // appear in a text by chance.
    assert!(seed > 10_000_000_000, "seed {seed}");
    let commitment = sha256_of_decimal(seed);
    assert_eq!(accepted.body["seed_sha256"], commitment.as_str());
    assert_eq!(shown_total(&accepted.body), roll(seed, 0).to_string());
    shown.push(("the accept answer".into(), accepted.body));

    let mut ply = 0u64;
    let mut last = Value::Null;
    while ply < 8 {
        let seat = if ply % 2 == 0 { 0 } else { 1 };
        let view = get(&app, &format!("/v1/games/{id}"), tokens[seat])
            .await
            .body;
        if view["status"] != "active" {
            break;
        }
        assert_eq!(view["ply"], ply);
        // The roll of the turn in progress is shown, and is the rules' roll of this ply.
        let position = view["position"].as_str().unwrap();
        let total: u64 = position.split(' ').nth(3).unwrap().parse().unwrap();
        assert_eq!(total, roll(seed, ply), "ply {ply}");
        assert!(view["board"]
            .as_str()
            .unwrap()
            .contains(&format!("die roll {total}")));
        // The CLI's reading, with only that roll known, offers the server's legal moves.
        let local =
            AnyGame::from_position_text_seed_withheld(&engine_options(&view), position).unwrap();
        let legal: Vec<String> = view["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        assert_eq!(local.legal_moves(), legal);
        let Some(mv) = legal.first() else { break };
        shown.push((format!("the view at ply {ply}"), view.clone()));
        let other = get(&app, &format!("/v1/games/{id}"), tokens[1 - seat])
            .await
            .body;
        shown.push((format!("the opponent's view at ply {ply}"), other));
        let answer = post(
            &app,
            &format!("/v1/games/{id}/moves"),
            tokens[seat],
            json!({"move": mv, "ply": ply}),
        )
        .await;
        assert_eq!(answer.status, 201, "{answer:?}");
        last = answer.body.clone();
        shown.push((format!("the move answer at ply {ply}"), answer.body));
        for (who, token) in [("anna", &anna), ("bert", &bert)] {
            shown.push((
                format!("{who}'s list at ply {ply}"),
                get(&app, "/v1/games", token).await.body,
            ));
        }
        shown.push((
            format!("the moves at ply {ply}"),
            get(&app, &format!("/v1/games/{id}/moves"), &anna)
                .await
                .body,
        ));
        texts.push((
            format!("the record at ply {ply}"),
            record_text(&app, id, &anna).await,
        ));
        // The public pages replay earlier positions on the server (with the seed they never
        // show): every ply so far, the current one and the record download.
        for path in [
            format!("/games/{id}"),
            format!("/games/{id}?ply={ply}"),
            format!("/games/{id}?ply={}", ply / 2),
            format!("/games/{id}/record"),
        ] {
            let page = app
                .http
                .get(format!("{}{path}", app.base))
                .send()
                .await
                .unwrap();
            assert_eq!(page.status().as_u16(), 200, "{path} at ply {ply}");
            pages.push((
                format!("the page {path} at ply {ply}"),
                page.text().await.unwrap(),
            ));
        }
        ply += 1;
    }
    assert!(ply >= 2, "the game ended too soon to show anything");
    assert_eq!(
        last["status"], "active",
        "the test ends the game by resigning"
    );

    for (place, value) in &shown {
        assert_no_seed(place, &value.to_string(), seed);
        // Game views: no seed option; the commitment once started.
        if value.get("position").is_some() {
            assert!(value["options"].get("seed").is_none(), "{place}: {value}");
            if value["status"] == "invited" {
                assert!(value["seed_sha256"].is_null(), "{place}");
            } else {
                assert_eq!(value["seed_sha256"], commitment.as_str(), "{place}");
            }
        }
    }
    for (place, text) in &pages {
        assert_no_seed(place, text, seed);
    }
    for (place, text) in &texts {
        assert_no_seed(place, text, seed);
        let record = GameRecord::parse(text).unwrap();
        assert_eq!(record.header("Seed"), None, "{place}");
        let expected = (record.header("Started").is_some()).then_some(commitment.as_str());
        assert_eq!(record.header("Seed-SHA256"), expected, "{place}");
        assert_eq!(
            record.header("Options"),
            Some("lines=4 scoring=markers total=die")
        );
    }
    let mails = delivered_mail(&app).await;
    // The challenge, the start, a turn card per move: all of them, and not one shows the seed.
    assert!(mails.len() >= 2 * (2 + ply as usize), "{}", mails.len());
    for (place, text) in &mails {
        assert_no_seed(place, text, seed);
    }

    // The end reveals the seed: in the view and the record, matching the commitment.
    let resigned = post(&app, &format!("/v1/games/{id}/resign"), &anna, json!({})).await;
    assert_eq!(resigned.status, 200, "{resigned:?}");
    let end = get(&app, &format!("/v1/games/{id}"), &bert).await.body;
    assert_eq!(end["status"], "finished");
    assert_eq!(end["options"]["seed"], seed.to_string());
    assert_eq!(end["seed_sha256"], commitment.as_str());
    let text = record_text(&app, id, &bert).await;
    let record = GameRecord::parse(&text).unwrap();
    assert_eq!(record.header("Seed"), Some(seed.to_string().as_str()));
    assert_eq!(record.header("Seed-SHA256"), Some(commitment.as_str()));
    assert_eq!(
        sha256_of_decimal(record.header("Seed").unwrap().parse().unwrap()),
        commitment
    );
    // Replaying the finished record from its options reproduces every roll.
    let options =
        Options::from_pairs(record.header("Options").unwrap().split_whitespace()).unwrap();
    let mut game = AnyGame::new(turnpost_shared::GameKind::Kechi, &options).unwrap();
    let mut rolls = 0;
    for line in &record.moves {
        if !DepartureText::is_departure(line) {
            let total: u64 = game
                .position_text()
                .split(' ')
                .nth(3)
                .unwrap()
                .parse()
                .unwrap();
            let ply = game
                .position_text()
                .split(' ')
                .nth(6)
                .unwrap()
                .parse()
                .unwrap();
            assert_eq!(total, roll(seed, ply));
            rolls += 1;
        }
        game = game.play_line(line).unwrap().0;
    }
    assert_eq!(rolls, ply);
    // A two-seat game's resignation is in the Result header, not among the moves.
    assert_eq!(record.moves.len() as u64, ply);
    assert_eq!(record.header("Termination"), Some("resignation"));
}

async fn rechallenging_gives_no_control_of_the_seed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    // No way to give a seed, in any spelling of the key.
    for key in ["seed", "SEED", " Seed "] {
        let given = post(
            &app,
            "/v1/games",
            &anna,
            json!({"kind": "kechi", "options": {"total": "die", key: 7}, "seats": ["anna", "bert"]}),
        )
        .await;
        assert_eq!(
            (given.status, given.error_code()),
            (422, "invalid_options"),
            "{key}"
        );
        assert!(
            given.body.to_string().contains("drawn by the server"),
            "{given:?}"
        );
    }
    let challenge = || async {
        let made = post(
            &app,
            "/v1/games",
            &anna,
            json!({"kind": "kechi", "options": {"total": "die"}, "seats": ["anna", "bert"]}),
        )
        .await;
        assert_eq!(made.status, 201, "{made:?}");
        made.body
    };
    // A challenge withdrawn shows no roll and has no seed: challenging again and again tells
    // the challenger nothing about any dice.
    for _ in 0..3 {
        let made = challenge().await;
        let id = made["id"].as_i64().unwrap();
        let withdrawn = post(&app, &format!("/v1/games/{id}/decline"), &anna, json!({})).await;
        assert_eq!(withdrawn.status, 200, "{withdrawn:?}");
        assert_eq!(withdrawn.body["status"], "cancelled");
        for view in [&made, &withdrawn.body] {
            assert_eq!(shown_total(view), "?", "{view}");
            assert!(view["seed_sha256"].is_null(), "{view}");
            let board = view["board"].as_str().unwrap();
            assert!(board.contains("die roll not known yet"), "{board}");
            assert!(!(1..=6).any(|n| board.contains(&format!("die roll {n}"))));
        }
        assert_eq!(stored_seed(&app, id), None);
        let record = record_text(&app, id, &anna).await;
        assert!(!record.contains("Seed"), "{record}");
    }
    // Each game that starts draws its own seed then: the first roll and the commitment follow it.
    let mut seeds = HashSet::new();
    let mut commitments = HashSet::new();
    for _ in 0..3 {
        let id = challenge().await["id"].as_i64().unwrap();
        let started = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
        assert_eq!(started.status, 200, "{started:?}");
        let seed = stored_seed(&app, id).unwrap();
        assert_eq!(
            started.body["seed_sha256"],
            sha256_of_decimal(seed).as_str()
        );
        assert_eq!(shown_total(&started.body), roll(seed, 0).to_string());
        assert_no_seed("the start", &started.body.to_string(), seed);
        seeds.insert(seed);
        commitments.insert(started.body["seed_sha256"].as_str().unwrap().to_owned());
    }
    assert_eq!((seeds.len(), commitments.len()), (3, 3));
}

/// The bot worker's position (`games::player_view`) is the one players know: the running
/// game's position with no seed in its options, and later rolls unknown; the bot's move for it
/// is the move for any seed with the same roll now (invariant 7).
async fn bots_think_without_the_seed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let id = web::started_game(
        &app,
        "kechi",
        json!({"total": "die"}),
        &[&anna, &bert],
        &["anna", "bert"],
    )
    .await;
    let seed = stored_seed(&app, id).unwrap();
    let row = turnpost_server::db::games::find(&mut app.conn(), id)
        .unwrap()
        .unwrap();
    let full = turnpost_server::games::engine(&row).unwrap();
    let view = turnpost_server::games::player_view(&row).unwrap();
    assert_eq!(view.position_text(), full.position_text());
    assert_eq!(view.legal_moves(), full.legal_moves());
    assert_eq!(view.options().get("seed"), None, "{:?}", view.options());
    assert_no_seed("the bot's view", &format!("{:?}", view.options()), seed);
    // After a move, the next roll is not known to the view.
    let mv = view.legal_moves()[0].clone();
    let after = view.play(&mv).unwrap().0;
    assert!(
        after.position_text().contains(" ? "),
        "{}",
        after.position_text()
    );
    let level = turnpost_shared::bot::BotLevel::new(2).unwrap();
    assert_eq!(
        turnpost_shared::bot::choose_move(&view, level, 3).unwrap(),
        turnpost_shared::bot::choose_move(&full, level, 3).unwrap()
    );
}
