//! Prepared answers (conditional moves) from the game page, in a real headless Chromium at
//! 375 CSS px (issue 47, point 1): the waiting player stores two lines by tapping (their move,
//! then the answer on the board as it would stand), sees them as a tree, removes one; the
//! opponent plays the move the kept line expects, the answer is played at once, and both
//! players' pages say so.
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
use phone::Phone;
use serde_json::json;
use turnpost_shared::AnyGame;

/// A legal move of `position` from one cell to another (`A2-A3`): two taps.
fn simple_moves(position: &AnyGame) -> Vec<String> {
    position
        .legal_moves()
        .into_iter()
        .filter(|mv| mv.split('-').count() == 2 && !mv.contains([':', ',']))
        .collect()
}

/// Taps the cells of `mv` and presses the picker's button once the field holds it.
async fn tap_move(phone: &Phone, mv: &str) {
    for cell in mv.split('-') {
        phone.tap_cell(cell).await;
    }
    phone
        .wait_until(
            &format!(
                "return document.getElementById('move').value.toUpperCase() === '{}'",
                mv.to_uppercase()
            ),
            &format!("{mv} in the field after tapping it"),
        )
        .await;
    phone.click("#play").await;
}

/// Stores the answer `mine` to `theirs` by tapping both on the board.
async fn prepare(phone: &Phone, theirs: &str, mine: &str) {
    phone.wait_for_text("id=\"prepared\"").await;
    tap_move(phone, theirs).await;
    phone.wait_for_text("choose your answer").await;
    tap_move(phone, mine).await;
    phone.wait_for_text("Your prepared answer is stored.").await;
}

#[actix_web::test]
async fn prepared_answers_are_tapped_listed_removed_and_played() {
    let phone = Phone::start().await;
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

    // Anna opens her turn card's play link, then moves (through the API): she waits.
    let card = app.smtp.wait_for("anna@example.org", 1).await;
    let text = card
        .iter()
        .rev()
        .map(|m| web::text_of(&m.data))
        .find(|text| text.contains(&format!("/games/{id}/play/")))
        .expect("a turn card with a play link");
    let link = web::play_link_in(&text, id);
    phone
        .open(&format!(
            "{}{}",
            app.base,
            &link[link.find("/games/").unwrap()..]
        ))
        .await;
    phone.wait_for_text("id=\"move-form\"").await;
    let first = simple_moves(&web::position_of(&app, id, &anna).await)[0].clone();
    let played = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": first, "ply": 0}),
    )
    .await;
    assert_eq!(played.status, 201, "{played:?}");
    phone.open(&format!("{}/games/{id}", app.base)).await;
    phone
        .assert_fits("the waiting player's page with its panel")
        .await;
    phone.assert_accessible("the prepared-answers panel").await;

    // Two lines, each tapped: bert's move, then anna's answer on the board after it.
    let now = web::position_of(&app, id, &anna).await;
    let theirs = simple_moves(&now);
    let lines: Vec<(String, String)> = theirs
        .iter()
        .take(2)
        .map(|their| {
            let (after, _) = now.play(their).unwrap();
            (their.clone(), simple_moves(&after)[0].clone())
        })
        .collect();
    for (their, mine) in &lines {
        prepare(&phone, their, mine).await;
    }
    let stored = get(&app, &format!("/v1/games/{id}/conditional"), &anna).await;
    assert_eq!(stored.status, 200, "{stored:?}");
    assert_eq!(
        stored.body["lines"],
        json!(lines.iter().map(|(t, m)| vec![t, m]).collect::<Vec<_>>()),
        "both lines stored as tapped"
    );
    // Listed as a tree: one "If bert plays" per line, each answered.
    let listed = phone
        .number("return document.querySelectorAll('#prepared ul.tree > li').length")
        .await;
    assert_eq!(listed, 2.0, "two lines in the tree");
    let tree = phone
        .client
        .execute(
            "return document.querySelector('#prepared ul.tree').innerText",
            vec![],
        )
        .await
        .unwrap();
    let tree = tree.as_str().unwrap().to_owned();
    for (their, mine) in &lines {
        assert!(
            tree.contains(&format!("If bert plays {their}")) && tree.contains(mine),
            "{their} → {mine} in:\n{tree}"
        );
    }

    phone
        .client
        .execute(
            "document.getElementById('prepared').scrollIntoView()",
            vec![],
        )
        .await
        .unwrap();
    phone.screenshot("phone-light-prepared").await;

    // The first removed; the second kept.
    phone.click("#prepared button.remove").await;
    phone
        .wait_for_text("That line of prepared answers is removed.")
        .await;
    let (kept_theirs, first_answer) = &lines[1];
    let stored = get(&app, &format!("/v1/games/{id}/conditional"), &anna).await;
    assert_eq!(
        stored.body["lines"],
        json!([[kept_theirs, first_answer]]),
        "one line left"
    );

    // Edited: the kept line's answer changed by typing.
    let (after, _) = now.play(kept_theirs).unwrap();
    let kept_mine = &simple_moves(&after)
        .into_iter()
        .find(|mv| mv != first_answer)
        .unwrap();
    phone.click("#prepared a.edit").await;
    phone.wait_for_text("Store the changed line").await;
    assert_eq!(
        phone.value_of("#prepared-line").await,
        format!("{kept_theirs} {first_answer}"),
        "the line to edit in the field"
    );
    phone
        .fill("#prepared-line", &format!("{kept_theirs} {kept_mine}"))
        .await;
    phone.click("details.type-line button[type=submit]").await;
    phone.wait_for_text("Your prepared answer is stored.").await;
    let stored = get(&app, &format!("/v1/games/{id}/conditional"), &anna).await;
    assert_eq!(
        stored.body["lines"],
        json!([[kept_theirs, kept_mine]]),
        "the line changed in its place"
    );

    // Bert plays the move the kept line expects: anna's answer is played at once.
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": kept_theirs, "ply": 1}),
    )
    .await;
    assert_eq!(moved.status, 201, "{moved:?}");
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
        .await
        .body;
    let moves = moves["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert_eq!(
        moves[2]["move"].as_str().unwrap().to_uppercase(),
        kept_mine.to_uppercase()
    );
    let answer = moves[2]["move"].as_str().unwrap();
    let said = format!("anna's prepared answer {answer} was played");
    // Anna's own page says it to her; everyone else's names her.
    phone.open(&format!("{}/games/{id}", app.base)).await;
    phone
        .wait_for_text(&format!("Your prepared answer {answer} was played"))
        .await;
    let berts_page = app
        .http
        .get(format!("{}/games/{id}", app.base))
        .send()
        .await
        .unwrap();
    let berts_page = berts_page.text().await.unwrap();
    assert!(
        berts_page.contains(&said),
        "{said} on the page anyone reads"
    );

    // A line bert's next move does not follow is dropped, and anna's page says which move did.
    let now = web::position_of(&app, id, &anna).await;
    let theirs = simple_moves(&now);
    let (expected, other) = (&theirs[0], &theirs[1]);
    let (after, _) = now.play(expected).unwrap();
    let set = app
        .request(
            reqwest::Method::PUT,
            &format!("/v1/games/{id}/conditional"),
            Some(&anna),
            Some(&json!({"ply": 3, "lines": [[expected, simple_moves(&after)[0]]]}).to_string()),
        )
        .await;
    assert_eq!(set.status, 200, "{set:?}");
    let moved = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": other, "ply": 3}),
    )
    .await;
    assert_eq!(moved.status, 201, "{moved:?}");
    phone.open(&format!("{}/games/{id}", app.base)).await;
    phone
        .wait_for_text(&format!(
            "bert played {other}, which none of your prepared answers expected"
        ))
        .await;
    phone.stop().await;
}
