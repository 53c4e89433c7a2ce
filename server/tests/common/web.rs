//! Helpers of the page tests: starting a game and playing its first legal move, a page's legal
//! moves with their cells, reading a turn card's text and play link, and checking that a page
//! shows no email address.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use serde_json::{json, Value};

use super::common::{post, TestApp};

/// Creates a challenge of `kind` with `options` for `names` (the first, holding `tokens[0]`,
/// makes it) and has every other seat accept; returns the game id.
pub async fn started_game(
    app: &TestApp,
    kind: &str,
    options: Value,
    tokens: &[&str],
    names: &[&str],
) -> i64 {
    let answer = post(
        app,
        "/v1/games",
        tokens[0],
        json!({"kind": kind, "options": options, "seats": names}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let answer = post(app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(answer.status, 200, "{answer:?}");
    }
    id
}

/// Plays the first legal move of game `id` for `token`'s player through the API: the move.
pub async fn play_first_legal_move(app: &TestApp, id: i64, token: &str) -> String {
    let view = super::common::get(app, &format!("/v1/games/{id}"), token)
        .await
        .body;
    let mv = view["legal_moves"][0].as_str().unwrap().to_owned();
    let played = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": view["ply"]}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    mv
}

/// The moves of a page's legal-move list (the `#legal-moves` JSON), each with its cells: those
/// of its parts one after the other.
pub fn legal_moves(list: &Value) -> Vec<(String, Vec<String>)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let cells = m["c"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|part| part.as_array().unwrap().iter())
                .map(|c| c.as_str().unwrap().to_owned())
                .collect();
            (m["m"].as_str().unwrap().to_owned(), cells)
        })
        .collect()
}

/// The position of game `id` as the API shows it to `token`'s player.
pub async fn position_of(app: &TestApp, id: i64, token: &str) -> turnpost_shared::AnyGame {
    let view = super::common::get(app, &format!("/v1/games/{id}"), token)
        .await
        .body;
    let options = turnpost_shared::Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    turnpost_shared::AnyGame::from_position_text(&options, view["position"].as_str().unwrap())
        .unwrap()
}

/// The text part of a raw mail, decoded.
pub fn text_of(raw: &str) -> String {
    let message = mail_parser::MessageParser::default()
        .parse(raw.as_bytes())
        .expect("a readable mail");
    message.body_text(0).expect("a text part").into_owned()
}

/// The play link of game `id` in a mail's text.
pub fn play_link_in(text: &str, id: i64) -> String {
    let marker = format!("/games/{id}/play/");
    let line = text
        .lines()
        .find(|l| l.contains(&marker))
        .unwrap_or_else(|| panic!("no play link in:\n{text}"));
    let start = line.find("http").expect("an absolute link");
    line[start..].trim().to_owned()
}

/// Fails when `body` holds anything shaped like an email address.
pub fn assert_no_email_address(body: &str) {
    for (at, _) in body.match_indices('@') {
        let before = body[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || "._%+-".contains(*c))
            .count();
        let after: String = body[at + 1..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || ".-".contains(*c))
            .collect();
        let domain_like = after.contains('.') && !after.ends_with('.');
        assert!(
            before == 0 || !domain_like,
            "an email address on a page: …{}…",
            &body[at.saturating_sub(before)..(at + 1 + after.len()).min(body.len())]
        );
    }
}
