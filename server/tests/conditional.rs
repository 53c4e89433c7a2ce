//! Conditional moves (issue 28) on both backends: a tree set over the API, by a mail reply and
//! from the game page's form is played the moment the opponent moves as a line expects; a
//! deviation drops it and the owner's next card says so; illegal lines are refused with the
//! engine's reason; an edit racing the opponent's move never plays twice or a stale answer;
//! the answer's card and clock are right with Kefren capture chains, Kechi turns of several
//! stones and a forced pass in two-player Chinese Checkers; the answer is said to be a prepared
//! one in the move list, the opponent's card, the game page and the mover's confirmation.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::sync::Arc;

use common::{get, post, Backend, Received, TestApp};
use reqwest::Method;
use serde_json::{json, Value};
use turnpost_server::inbound::InboundMessage;
use turnpost_server::mail_context::MailContext;
use turnpost_shared::{AnyGame, Options, Status};

both_backends!(
    answers_at_once_and_drops_on_deviation,
    refusals_name_the_line_and_the_engine_reason,
    an_edit_racing_the_move_never_plays_twice_or_stale,
    kefren_capture_chain_as_the_answer,
    kechi_turn_of_several_stones_as_the_answer,
    chinese_checkers_forced_pass_inside_a_line,
    mail_reply_sets_lines_and_answers_with_the_tree,
    page_form_sets_a_line_after_the_move,
);

/// A started two-player game of `kind` between anna (seat 1) and bert; their tokens and its id.
async fn started(app: &TestApp, kind: &str, options: Value) -> (String, String, i64) {
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let answer = post(
        app,
        "/v1/games",
        &anna,
        json!({"kind": kind, "options": options, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    (anna, bert, id)
}

async fn put(
    app: &TestApp,
    id: i64,
    token: &str,
    ply: u32,
    lines: &[Vec<String>],
) -> common::Answer {
    common::call(
        app,
        Method::PUT,
        &format!("/v1/games/{id}/conditional"),
        token,
        Some(json!({"ply": ply, "lines": lines})),
    )
    .await
}

async fn lines_of(app: &TestApp, id: i64, token: &str) -> Vec<Vec<String>> {
    let answer = get(app, &format!("/v1/games/{id}/conditional"), token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    serde_json::from_value(answer.body["lines"].clone()).unwrap()
}

async fn play_move(app: &TestApp, id: i64, token: &str, mv: &str, ply: u64) -> Value {
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": ply}),
    )
    .await;
    assert_eq!(answer.status, 201, "{mv} at {ply}: {answer:?}");
    answer.body
}

async fn view(app: &TestApp, id: i64, token: &str) -> Value {
    get(app, &format!("/v1/games/{id}"), token).await.body
}

/// The engine position of a game view.
fn engine_of(view: &Value) -> AnyGame {
    let options = Options::from_pairs(
        view["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    AnyGame::from_position_text_seed_withheld(&options, view["position"].as_str().unwrap()).unwrap()
}

/// `position` after `mv` and the forced moves after it.
fn after(position: &AnyGame, mv: &str) -> AnyGame {
    position.play(mv).unwrap().0.forced_continuation().position
}

fn to_move(position: &AnyGame) -> u8 {
    match position.status() {
        Status::Ongoing { to_move } => to_move.number(),
        other => panic!("the game is over: {other:?}"),
    }
}

/// The words of the first mail to `to` that contains `wanted`, waiting for it.
async fn mail_containing(app: &TestApp, to: &str, wanted: &str) -> String {
    // Every card of a long game draws its board picture first: allow for a queue.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    loop {
        // Words, whatever the line breaks of the text.
        let texts: Vec<String> = app
            .smtp
            .messages_to(to)
            .iter()
            .map(|m| text_of(m).split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        if let Some(found) = texts.iter().find(|t| t.contains(wanted)) {
            return found.clone();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no mail to {to} saying {wanted:?}; got:\n{}",
            texts.join("\n----\n")
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// The game page as anyone reads it (signed out).
async fn public_page(app: &TestApp, id: i64) -> String {
    let page = reqwest::get(format!("{}/games/{id}", app.base))
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    page.text().await.unwrap()
}

fn text_of(mail: &Received) -> String {
    InboundMessage::read(mail.data.as_bytes()).unwrap().text()
}

fn strings(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|m| (*m).to_owned()).collect()
}

/// anna answers bert's expected move at once, keeps the branch below, and loses it all at an
/// unexpected move, which her next card reports.
async fn answers_at_once_and_drops_on_deviation(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kefren", json!({})).await;
    let start = engine_of(&view(&app, id, &anna).await);
    let first = start.legal_moves()[0].clone();
    play_move(&app, id, &anna, &first, 0).await;
    let p1 = after(&start, &first);
    let theirs = p1.legal_moves();
    let (b1, b1_other) = (theirs[0].clone(), theirs[1].clone());
    let p2 = after(&p1, &b1);
    let a1 = p2.legal_moves()[0].clone();
    let p3 = after(&p2, &a1);
    let (b2, b2_other) = (p3.legal_moves()[0].clone(), p3.legal_moves()[1].clone());
    let a2 = after(&p3, &b2).legal_moves()[0].clone();
    let p1_other = after(&p1, &b1_other);
    let a1_other = p1_other.legal_moves()[0].clone();

    let set = put(
        &app,
        id,
        &anna,
        1,
        &[
            vec![b1.clone(), a1.clone(), b2.clone(), a2.clone()],
            vec![b1_other.clone(), a1_other.clone()],
        ],
    )
    .await;
    assert_eq!(set.status, 200, "{set:?}");
    assert_eq!(set.body["ply"], 1);
    assert_eq!(set.body["lines"].as_array().unwrap().len(), 2);
    // Private: bert sees none of anna's lines.
    assert!(lines_of(&app, id, &bert).await.is_empty());

    let answered = play_move(&app, id, &bert, &b1, 1).await;
    assert_eq!(answered["ply"], 3, "{answered}");
    assert_eq!(answered["to_move"], 2);
    assert_eq!(answered["your_turn"], true);
    assert!(answered["deadline"].is_string());
    let last = answered["last_moves"].as_array().unwrap();
    let answer = last.last().unwrap();
    assert_eq!(answer["move"], a1.as_str());
    assert_eq!(answer["seat"], 1);
    assert_eq!(answer["automatic"], false);
    assert_eq!(answer["prepared"], true);
    assert_eq!(answered["position"], p3.position_text());
    // The move list says which move was the prepared answer.
    let moves = get(&app, &format!("/v1/games/{id}/moves"), &bert)
        .await
        .body;
    let prepared: Vec<&Value> = moves["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["prepared"])
        .collect();
    assert_eq!(
        prepared,
        [&json!(false), &json!(false), &json!(true)],
        "{moves}"
    );
    // The branch below stays, from the new ply.
    let kept = get(&app, &format!("/v1/games/{id}/conditional"), &anna).await;
    assert_eq!(kept.body["ply"], 3);
    assert_eq!(kept.body["lines"], json!([[b2, a2]]));
    // bert's card shows the answer already played, and that it was prepared; anna gets no
    // card for a turn she did not have.
    let card = mail_containing(
        &app,
        "bert@example.org",
        &format!("anna's prepared answer {a1} was played."),
    )
    .await;
    assert!(card.contains(&format!("anna played {a1}")), "{card}");
    assert!(card.contains(&format!("{a1} (prepared answer)")), "{card}");
    // Every reader of the game page reads it too, and its move list marks the answer.
    let page = public_page(&app, id).await;
    assert!(
        page.contains(&format!("anna's prepared answer {a1} was played (move 3).")),
        "{page}"
    );
    assert!(page.contains(">prepared</abbr>"), "{page}");

    let deviated = play_move(&app, id, &bert, &b2_other, 3).await;
    assert_eq!(deviated["ply"], 4);
    assert_eq!(deviated["to_move"], 1);
    assert!(lines_of(&app, id, &anna).await.is_empty());
    let card = mail_containing(&app, "anna@example.org", "conditional moves are dropped").await;
    assert!(card.contains(&b2_other), "{card}");
    // bert moved since: the page's notice is gone, the move list still marks the answer.
    let page = public_page(&app, id).await;
    assert!(
        !page.contains(&format!("prepared answer {a1} was played")),
        "{page}"
    );
    assert_eq!(page.matches(">prepared</abbr>").count(), 1, "{page}");
    // Her card at the start and this one: none for the turn the answer took.
    let cards = app.smtp.messages_to("anna@example.org").len();
    assert_eq!(
        cards, 2,
        "anna's cards: the first move and after the deviation"
    );
}

/// Every refusal says what was wrong: the engine's reason for an illegal move in a line, the
/// line and move, the limits, a stale ply (409 with the game), the owner's own turn, a game of
/// three; an outsider has no lines.
async fn refusals_name_the_line_and_the_engine_reason(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kefren", json!({})).await;
    let start = engine_of(&view(&app, id, &anna).await);
    // anna is to move: lines start with the opponent's move.
    let own = put(&app, id, &anna, 0, &[strings(&["F2-F3", "F3-F4"])]).await;
    assert_eq!(own.status, 422, "{own:?}");
    assert_eq!(own.error_code(), "bad_conditional");
    assert!(own.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("your turn"));
    let first = start.legal_moves()[0].clone();
    play_move(&app, id, &anna, &first, 0).await;
    let p1 = after(&start, &first);
    let b1 = p1.legal_moves()[0].clone();
    let p2 = after(&p1, &b1);
    let a1 = p2.legal_moves()[0].clone();

    // An illegal answer: the engine's own words.
    let illegal = "A1-A9";
    let reason = p2.play(illegal).unwrap_err().to_string();
    let refused = put(&app, id, &anna, 1, &[vec![b1.clone(), illegal.to_owned()]]).await;
    assert_eq!(refused.status, 422, "{refused:?}");
    assert_eq!(refused.error_code(), "bad_conditional");
    let message = refused.body["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("line 1, move 2 (`A1-A9`): "),
        "{message}"
    );
    assert!(message.ends_with(&reason), "{message} / {reason}");
    // Nothing was stored.
    assert!(lines_of(&app, id, &anna).await.is_empty());

    let cases: Vec<(Vec<Vec<String>>, &str)> = vec![
        (vec![vec![b1.clone()]], "ends with your opponent's move"),
        (vec![vec![]], "holds no moves"),
        (vec![vec![b1.clone(); 13]], "at most 12"),
        (
            vec![
                vec![b1.clone(), a1.clone()],
                vec![b1.clone(), p2.legal_moves()[1].clone()],
            ],
            "line 2, move 2: you already answer",
        ),
    ];
    for (lines, said) in cases {
        let refused = put(&app, id, &anna, 1, &lines).await;
        assert_eq!(refused.status, 422, "{lines:?}: {refused:?}");
        let message = refused.body["error"]["message"].as_str().unwrap();
        assert!(message.contains(said), "{message} should say {said}");
    }
    // Lines written for another ply: 409 with the game.
    let stale = put(&app, id, &anna, 0, &[vec![b1.clone(), a1.clone()]]).await;
    assert_eq!(stale.status, 409, "{stale:?}");
    assert_eq!(stale.error_code(), "stale_ply");
    assert_eq!(stale.body["game"]["ply"], 1);
    // An outsider holds no seat.
    let eve = play::player(&app.pool, "eve");
    let outsider = get(&app, &format!("/v1/games/{id}/conditional"), &eve).await;
    assert_eq!(outsider.status, 403, "{outsider:?}");
    // Set, then DELETE clears.
    assert_eq!(
        put(&app, id, &anna, 1, &[vec![b1.clone(), a1.clone()]])
            .await
            .status,
        200
    );
    let cleared = common::call(
        &app,
        Method::DELETE,
        &format!("/v1/games/{id}/conditional"),
        &anna,
        None,
    )
    .await;
    assert_eq!(cleared.status, 200, "{cleared:?}");
    assert_eq!(cleared.body["lines"], json!([]));
    let played = play_move(&app, id, &bert, &b1, 1).await;
    assert_eq!(played["ply"], 2, "a cleared tree answers nothing");

    // Three players: refused.
    let carl = play::player(&app.pool, "carl");
    let game = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "chinese-checkers", "seats": ["anna", "bert", "carl"]}),
    )
    .await;
    let three = game.body["id"].as_i64().unwrap();
    for token in [&bert, &carl] {
        post(&app, &format!("/v1/games/{three}/accept"), token, json!({})).await;
    }
    let position = engine_of(&view(&app, three, &anna).await);
    let opening = position.legal_moves()[0].clone();
    play_move(&app, three, &anna, &opening, 0).await;
    let refused = put(&app, three, &carl, 1, &[vec![opening.clone(), opening]]).await;
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(refused.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("two-player games"));
}

/// anna replaces her tree while bert plays the move both trees expect, at the same moment, many
/// times over: either the edit came first (it answers 200 and its answer is the one played) or
/// the move did (the old answer is played and the edit is refused as stale). Never two answers,
/// never the edited answer after a refusal.
async fn an_edit_racing_the_move_never_plays_twice_or_stale(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let mut outcomes = (0, 0);
    for _ in 0..6 {
        let game = post(
            &app,
            "/v1/games",
            &anna,
            json!({"kind": "kefren", "seats": ["anna", "bert"]}),
        )
        .await;
        let id = game.body["id"].as_i64().unwrap();
        post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
        let start = engine_of(&view(&app, id, &anna).await);
        let first = start.legal_moves()[0].clone();
        play_move(&app, id, &anna, &first, 0).await;
        let p1 = after(&start, &first);
        let b1 = p1.legal_moves()[0].clone();
        let answers = after(&p1, &b1).legal_moves();
        let (old, new) = (answers[0].clone(), answers[1].clone());
        assert_eq!(
            put(&app, id, &anna, 1, &[vec![b1.clone(), old.clone()]])
                .await
                .status,
            200
        );
        let edited = [vec![b1.clone(), new.clone()]];
        let moves_path = format!("/v1/games/{id}/moves");
        let (edit, moved) = tokio::join!(
            put(&app, id, &anna, 1, &edited),
            post(&app, &moves_path, &bert, json!({"move": b1, "ply": 1})),
        );
        assert_eq!(moved.status, 201, "{moved:?}");
        let moves = get(&app, &format!("/v1/games/{id}/moves"), &anna)
            .await
            .body;
        let moves = moves["moves"].as_array().unwrap();
        assert_eq!(moves.len(), 3, "one answer, once: {moves:?}");
        let played = moves[2]["move"].as_str().unwrap();
        match edit.status {
            200 => {
                assert_eq!(played, new, "the edit came first: its answer");
                outcomes.0 += 1;
            }
            409 => {
                assert_eq!(edit.error_code(), "stale_ply");
                assert_eq!(played, old, "the move came first: the old answer");
                outcomes.1 += 1;
            }
            other => panic!("edit answered {other}: {edit:?}"),
        }
        assert_eq!(moved.body["ply"], 3);
        assert!(lines_of(&app, id, &anna).await.is_empty());
    }
    assert_eq!(outcomes.0 + outcomes.1, 6);
}

/// Random legal play from `start` (seeded); at each position of seat 2 to move asks `found`
/// whether it suits, and answers the shortest record to such a position (each card of a
/// long game takes its time to compose) with what `found` answered.
fn search(
    start: &AnyGame,
    seeds: std::ops::Range<u64>,
    max_plies: usize,
    mut found: impl FnMut(&AnyGame) -> Option<(String, String)>,
) -> (Vec<String>, String, String) {
    let mut best: Option<(Vec<String>, String, String)> = None;
    for seed in seeds {
        let mut rng = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let mut position = start.clone();
        let mut record = Vec::new();
        let limit = best.as_ref().map_or(max_plies, |(r, _, _)| r.len());
        while record.len() < limit && !position.status().is_over() {
            if record.len() % 2 == 1 {
                if let Some((theirs, mine)) = found(&position) {
                    best = Some((record, theirs, mine));
                    break;
                }
            }
            let moves = position.legal_moves();
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pick = moves[usize::try_from(rng >> 33).unwrap() % moves.len()].clone();
            record.push(pick.clone());
            position = after(&position, &pick);
        }
    }
    best.expect("no position found")
}

/// Plays `record` (alternately anna and bert, from ply 0) over the API.
async fn play_record(app: &TestApp, id: i64, tokens: [&str; 2], record: &[String]) {
    for (ply, mv) in record.iter().enumerate() {
        play_move(app, id, tokens[ply % 2], mv, ply as u64).await;
    }
}

/// An answer that is a capture chain of two captures or more: played whole, bert's card and
/// clock follow it.
async fn kefren_capture_chain_as_the_answer(backend: Backend) {
    // Searched first: a server connection idle through the search would be closed under us.
    let start = AnyGame::new(turnpost_shared::GameKind::Kefren, &Options::new()).unwrap();
    let (record, theirs, chain) = search(&start, 0..400, 120, |position| {
        position.legal_moves().into_iter().find_map(|theirs| {
            let next = after(position, &theirs);
            (!next.status().is_over() && to_move(&next) == 1)
                .then(|| {
                    next.legal_moves()
                        .into_iter()
                        .find(|m| m.matches(':').count() >= 2)
                })
                .flatten()
                .map(|chain| (theirs, chain))
        })
    });
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kefren", json!({})).await;
    assert_eq!(
        view(&app, id, &anna).await["position"],
        start.position_text()
    );
    play_record(&app, id, [&anna, &bert], &record).await;
    let ply = record.len() as u32;
    let set = put(&app, id, &anna, ply, &[vec![theirs.clone(), chain.clone()]]).await;
    assert_eq!(set.status, 200, "{set:?}");
    let answered = play_move(&app, id, &bert, &theirs, u64::from(ply)).await;
    let mut expected = start.clone();
    for mv in record.iter().chain([&theirs, &chain]) {
        expected = after(&expected, mv);
    }
    assert_eq!(answered["position"], expected.position_text());
    assert_eq!(answered["ply"], ply + 2);
    let status = answered["status"].as_str().unwrap();
    if status == "active" {
        assert_eq!(answered["to_move"], 2);
        assert!(answered["deadline"].is_string());
        mail_containing(&app, "bert@example.org", &format!("anna played {chain}")).await;
    } else {
        assert_eq!(answered["result"], "won 1", "{answered}");
    }
}

/// Kechi (total 6): bert answers White's first turn with a turn moving two stones.
async fn kechi_turn_of_several_stones_as_the_answer(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kechi", json!({})).await;
    let start = engine_of(&view(&app, id, &anna).await);
    let white = start.legal_moves()[0].clone();
    let next = after(&start, &white);
    let black = next
        .legal_moves()
        .into_iter()
        .find(|m| m.contains(','))
        .unwrap();
    // Written with a space after the comma, as people do: stored canonical.
    let spaced = black.replacen(',', ", ", 1);
    let set = put(&app, id, &bert, 0, &[vec![white.clone(), spaced]]).await;
    assert_eq!(set.status, 200, "{set:?}");
    assert_eq!(set.body["lines"], json!([[white, black]]));
    let answered = play_move(&app, id, &anna, &white, 0).await;
    assert_eq!(answered["ply"], 2);
    assert_eq!(answered["to_move"], 1);
    assert_eq!(answered["position"], after(&next, &black).position_text());
    assert!(answered["deadline"].is_string());
    mail_containing(&app, "anna@example.org", &format!("bert played {black}")).await;
    // Dice rolled each turn: the turns ahead are secret, so no lines.
    let (_, bert_die, die) = {
        let carl = play::player(&app.pool, "carl");
        let game = post(
            &app,
            "/v1/games",
            &carl,
            json!({"kind": "kechi", "options": {"total": "die"}, "seats": ["carl", "bert"]}),
        )
        .await;
        let die = game.body["id"].as_i64().unwrap();
        post(&app, &format!("/v1/games/{die}/accept"), &bert, json!({})).await;
        (carl, bert.clone(), die)
    };
    let refused = put(&app, die, &bert_die, 0, &[strings(&["a13-a7", "a1-a7"])]).await;
    assert_eq!(refused.status, 422, "{refused:?}");
    assert!(refused.body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("total=die"));
}

/// Two-player Chinese Checkers where bert's only peg is boxed in: his line skips the pass the
/// server plays for him, waits for anna's second move, and answers it; anna's card and clock
/// follow the answer.
async fn chinese_checkers_forced_pass_inside_a_line(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "chinese-checkers", json!({})).await;
    // The position of `games::forced_pass_is_played_by_the_server`: seat 2's only peg sits
    // boxed in on Q13; seat 1 has P12, P13, O11, O13 and a free peg on I9.
    let text = "chinese-checkers ./../.../..../............./............/.........../........../\
                ....1..../........../.........../............/............./..../1.1/11/4 1";
    {
        use diesel::prelude::*;
        use turnpost_server::db::schema::games;
        diesel::update(games::table.find(id))
            .set(games::position.eq(&text))
            .execute(&mut *app.conn())
            .unwrap();
    }
    let position = engine_of(&view(&app, id, &anna).await);
    // anna's first move keeps bert boxed (he passes); her second frees him.
    let (first, second, answer) = position
        .legal_moves()
        .into_iter()
        .find_map(|first| {
            let passed = position.play(&first).unwrap().0.forced_continuation();
            if passed.moves.is_empty() || to_move(&passed.position) != 1 {
                return None;
            }
            let p2 = passed.position;
            p2.legal_moves().into_iter().find_map(|second| {
                let p3 = after(&p2, &second);
                (!p3.status().is_over() && to_move(&p3) == 2)
                    .then(|| p3.legal_moves().into_iter().find(|m| m != "pass"))
                    .flatten()
                    .map(|answer| (first.clone(), second, answer))
            })
        })
        .unwrap();
    let set = put(
        &app,
        id,
        &bert,
        0,
        &[vec![first.clone(), second.clone(), answer.clone()]],
    )
    .await;
    assert_eq!(set.status, 200, "{set:?}");
    let passed = play_move(&app, id, &anna, &first, 0).await;
    assert_eq!(passed["ply"], 2, "bert's forced pass: {passed}");
    assert_eq!(passed["to_move"], 1);
    let kept = get(&app, &format!("/v1/games/{id}/conditional"), &bert).await;
    assert_eq!(kept.body["ply"], 2);
    assert_eq!(kept.body["lines"], json!([[second, answer]]));
    let answered = play_move(&app, id, &anna, &second, 2).await;
    assert_eq!(answered["ply"], 4, "{answered}");
    assert_eq!(
        answered["last_moves"].as_array().unwrap()[3]["move"],
        answer.as_str()
    );
    assert_eq!(answered["to_move"], 1);
    assert!(answered["deadline"].is_string());
    mail_containing(&app, "anna@example.org", &format!("bert played {answer}")).await;
}

fn ctx(app: &TestApp) -> MailContext {
    let mut conn = app.conn();
    MailContext {
        message_id_domain: "test.invalid".into(),
        public_url: app.config.public_url.clone().unwrap(),
        wake: Arc::new(tokio::sync::Notify::new()),
        link_key: turnpost_server::preferences::unsubscribe::load_key(&mut conn)
            .unwrap()
            .into(),
        reply: turnpost_server::inbound::ReplyKeys::load(&mut conn, &app.config).unwrap(),
    }
}

/// The reply address of a mail.
fn reply_to(mail: &Received) -> String {
    let header = mail.header("Reply-To").expect("game mails carry Reply-To");
    header
        .rsplit_once('<')
        .map_or(header.as_str(), |(_, rest)| rest.trim_end_matches('>'))
        .to_owned()
}

/// A plain reply from `from` to `to` saying `body`.
fn reply(from: &str, to: &str, body: &str, n: usize) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: <cond-{n}-{}@client.example>\r\n\
         Subject: Re: Kefren\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n",
        std::process::id()
    )
    .into_bytes()
}

/// One mail: anna plays her move and answers bert's next two moves ahead; the answer mail
/// lists the tree; bert's moves bring her answers at once.
async fn mail_reply_sets_lines_and_answers_with_the_tree(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kefren", json!({})).await;
    let start = engine_of(&view(&app, id, &anna).await);
    let card = app.smtp.wait_for("anna@example.org", 1).await.remove(0);
    let first = start.legal_moves()[0].clone();
    let p1 = after(&start, &first);
    let b1 = p1.legal_moves()[0].clone();
    let p2 = after(&p1, &b1);
    let a1 = p2.legal_moves()[0].clone();
    let p3 = after(&p2, &a1);
    let b2 = p3.legal_moves()[0].clone();
    let a2 = after(&p3, &b2).legal_moves()[0].clone();
    let body = format!("{first}\r\nif {b1} then {a1} if {b2} then {a2}\r\n");
    let raw = reply("anna@example.org", &reply_to(&card), &body, 1);
    let outcome = {
        let mut conn = app.conn();
        turnpost_server::inbound::handle(
            &mut conn,
            &ctx(&app),
            &turnpost_server::inbound::HandlerSettings {
                answers_per_hour: 100,
                sender_auth: turnpost_server::inbound::SenderAuth::None,
                bot_games_cap: turnpost_server::games::challenge::BotGamesCap(5),
            },
            &raw,
        )
        .unwrap()
    };
    assert!(
        matches!(
            outcome,
            turnpost_server::inbound::Outcome::Acted {
                done: 2,
                refused: false,
                ..
            }
        ),
        "{outcome:?}"
    );
    assert_eq!(
        lines_of(&app, id, &anna).await,
        vec![vec![b1.clone(), a1.clone(), b2.clone(), a2.clone()]]
    );
    let answer = mail_containing(&app, "anna@example.org", "conditional moves now").await;
    let words = answer.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains(&format!("[if {b1} then {a1} if {b2} then {a2}]")),
        "{answer}"
    );
    let one = play_move(&app, id, &bert, &b1, 1).await;
    assert_eq!(one["ply"], 3);
    let two = play_move(&app, id, &bert, &b2, 3).await;
    assert_eq!(two["ply"], 5);
    assert_eq!(
        two["last_moves"].as_array().unwrap().last().unwrap()["move"],
        a2.as_str()
    );
}

/// The game page's move form: "after my move, if they play … I play …".
async fn page_form_sets_a_line_after_the_move(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, id) = started(&app, "kefren", json!({})).await;
    let start = engine_of(&view(&app, id, &anna).await);
    let card = text_of(&app.smtp.wait_for("anna@example.org", 1).await.remove(0));
    let marker = format!("/games/{id}/play/");
    let line = card.lines().find(|l| l.contains(&marker)).unwrap();
    let path = line[line.find("/games/").unwrap()..].trim().to_owned();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let (cookie, page) = common::follow_play_link(&app, &client, &path, id).await;
    assert!(
        page.contains("name=\"if_theirs\""),
        "the form offers the line"
    );
    let csrf = page
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let first = start.legal_moves()[0].clone();
    let p1 = after(&start, &first);
    let b1 = p1.legal_moves()[0].clone();
    let a1 = after(&p1, &b1).legal_moves()[0].clone();
    let posted = client
        .post(format!("{}/games/{id}/move", app.base))
        .header("cookie", &cookie)
        .form(&[
            ("csrf", csrf.as_str()),
            ("ply", "0"),
            ("move", first.as_str()),
            ("if_theirs", b1.as_str()),
            ("if_mine", a1.as_str()),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    assert_eq!(
        lines_of(&app, id, &anna).await,
        vec![vec![b1.clone(), a1.clone()]]
    );
    // bert plays the expected move from his own page (his card's play link): the page after
    // it confirms his move and says anna's prepared answer came at once.
    let card = mail_containing(&app, "bert@example.org", &marker).await;
    let link = card
        .split_whitespace()
        .find(|word| word.contains(&marker))
        .unwrap();
    let path = link[link.find("/games/").unwrap()..].to_owned();
    let (cookie, page) = common::follow_play_link(&app, &client, &path, id).await;
    let csrf = page
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let posted = client
        .post(format!("{}/games/{id}/move", app.base))
        .header("cookie", &cookie)
        .form(&[("csrf", csrf.as_str()), ("ply", "1"), ("move", b1.as_str())])
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    let location = posted.headers()["location"].to_str().unwrap().to_owned();
    assert!(location.ends_with("?played=2"), "{location}");
    let confirmed = client
        .get(format!("{}{location}", app.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        confirmed.contains(&format!(
            "You played {b1} (move 2). anna's prepared answer {a1} was played."
        )),
        "{confirmed}"
    );
    let answered = view(&app, id, &bert).await;
    assert_eq!(answered["ply"], 3);
    assert_eq!(
        answered["last_moves"].as_array().unwrap()[2]["move"],
        a1.as_str()
    );
    assert_eq!(answered["last_moves"][2]["prepared"], true);
}
