//! The live streams against a real server on both backends: a move reaches an open stream,
//! `Last-Event-ID` resumes with exactly the missed events in order, a spectator's stream never
//! carries what spectators may not see, bad resumptions answer a clear 4xx, and the caps refuse
//! one stream too many.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::time::Duration;

use common::{get, post, Backend, TestApp};
use serde_json::{json, Value};

both_backends!(
    a_move_reaches_the_account_and_game_streams,
    last_event_id_resumes_with_exactly_the_missed_events,
    bad_resumptions_are_refused_clearly,
    one_stream_too_many_is_refused,
    a_spectator_sees_no_message_and_no_seed,
    a_declined_draw_reaches_the_offerer_and_sends_no_mail,
    a_batch_of_events_reads_each_games_own_moves
);

/// A Kefren game anna challenged `opponent` (bert unless named) to and they accepted; answers
/// its id.
async fn started_game(app: &TestApp, anna: &str, bert: &str) -> i64 {
    started_against(app, anna, "bert", bert).await
}

async fn started_against(app: &TestApp, anna: &str, opponent: &str, bert: &str) -> i64 {
    let answer = post(
        app,
        "/v1/games",
        anna,
        json!({"kind": "kefren", "options": {}, "seats": ["anna", opponent]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(app, &format!("/v1/games/{id}/accept"), bert, json!({})).await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    id
}

/// Plays a legal move of whoever is to move (`tokens` in seat order); answers it.
async fn play_one(app: &TestApp, id: i64, tokens: &[&str]) -> String {
    for token in tokens {
        let view = get(app, &format!("/v1/games/{id}"), token).await;
        let ply = view.body["ply"].as_u64().unwrap();
        // Not always the first move: two players shuttling one piece would end the game drawn
        // by repetition.
        let legal = view.body["legal_moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let pick = usize::try_from(ply * 7).unwrap() % legal.len().max(1);
        if let Some(first) = legal.get(pick) {
            let notation = first.as_str().unwrap().to_owned();
            let played = post(
                app,
                &format!("/v1/games/{id}/moves"),
                token,
                json!({"move": notation, "ply": ply, "message": "secret words"}),
            )
            .await;
            assert_eq!(played.status, 201, "{played:?}");
            return notation;
        }
    }
    panic!("nobody could move in game {id}");
}

/// An open NDJSON stream, read line by line.
struct Stream {
    response: reqwest::Response,
    buffered: Vec<u8>,
    /// Every byte read, for checks on the raw stream.
    raw: Vec<u8>,
}

impl Stream {
    async fn open(app: &TestApp, path: &str, token: Option<&str>, last: Option<&str>) -> Self {
        let response = Self::request(app, path, token, last).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["content-type"].to_str().unwrap(),
            "application/x-ndjson"
        );
        Self {
            response,
            buffered: Vec::new(),
            raw: Vec::new(),
        }
    }

    async fn request(
        app: &TestApp,
        path: &str,
        token: Option<&str>,
        last: Option<&str>,
    ) -> reqwest::Response {
        let mut request = reqwest::Client::new()
            .get(format!("{}{path}", app.base))
            .header("accept", "application/x-ndjson");
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(last) = last {
            request = request.header("last-event-id", last);
        }
        request.send().await.unwrap()
    }

    /// The next event, waiting at most `within`.
    async fn next(&mut self, within: Duration) -> Option<Value> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if let Some(end) = self.buffered.iter().position(|b| *b == b'\n') {
                let line: Vec<u8> = self.buffered.drain(..=end).collect();
                let text = std::str::from_utf8(&line).unwrap().trim();
                if text.is_empty() {
                    continue;
                }
                return Some(serde_json::from_str(text).unwrap());
            }
            let chunk = tokio::time::timeout_at(deadline, self.response.chunk())
                .await
                .ok()?
                .unwrap()?;
            self.raw.extend_from_slice(&chunk);
            self.buffered.extend_from_slice(&chunk);
        }
    }
}

async fn two_players(app: &TestApp) -> (String, String) {
    let anna = app.sign_up_and_verify("anna", "anna@example.com").await;
    let bert = app.sign_up_and_verify("bert", "bert@example.com").await;
    (anna, bert)
}

async fn a_move_reaches_the_account_and_game_streams(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let id = started_game(&app, &anna, &bert).await;
    let mut berts = Stream::open(&app, "/v1/stream", Some(&bert), None).await;
    let mut watching = Stream::open(&app, &format!("/v1/games/{id}/stream"), None, None).await;
    let played = play_one(&app, id, &[&anna, &bert]).await;
    let heard = berts
        .next(Duration::from_secs(5))
        .await
        .expect("bert heard nothing");
    assert_eq!(heard["type"], "move", "{heard}");
    assert_eq!(heard["game"], id);
    assert_eq!(heard["last_move"], played.as_str());
    assert_eq!(heard["for_you"], "turn", "{heard}");
    assert_eq!(heard["by"], "anna", "{heard}");
    let seen = watching
        .next(Duration::from_secs(5))
        .await
        .expect("the spectator saw nothing");
    assert_eq!(seen["id"], heard["id"]);
    assert!(seen.get("for_you").is_none(), "{seen}");
}

async fn last_event_id_resumes_with_exactly_the_missed_events(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let id = started_game(&app, &anna, &bert).await;
    let mut first = Stream::open(&app, "/v1/stream", Some(&anna), None).await;
    play_one(&app, id, &[&anna, &bert]).await;
    let seen = first
        .next(Duration::from_secs(5))
        .await
        .expect("no first event");
    drop(first);
    let mut played = Vec::new();
    for _ in 0..20 {
        played.push(play_one(&app, id, &[&anna, &bert]).await);
    }
    let last = seen["id"].as_i64().unwrap().to_string();
    let mut resumed = Stream::open(&app, "/v1/stream", Some(&anna), Some(&last)).await;
    let mut moves = Vec::new();
    let mut previous = seen["id"].as_i64().unwrap();
    while moves.len() < played.len() {
        let event = resumed
            .next(Duration::from_secs(5))
            .await
            .unwrap_or_else(|| panic!("only {} of {} events", moves.len(), played.len()));
        let this = event["id"].as_i64().unwrap();
        assert!(this > previous, "out of order: {this} after {previous}");
        previous = this;
        if event["type"] == "move" {
            moves.push(event["last_move"].as_str().unwrap().to_owned());
        }
    }
    assert_eq!(moves, played);
    assert!(
        resumed.next(Duration::from_millis(500)).await.is_none(),
        "an event came twice or from nowhere"
    );
}

async fn bad_resumptions_are_refused_clearly(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let cleo = app.sign_up_and_verify("cleo", "cleo@example.com").await;
    let id = started_game(&app, &anna, &bert).await;
    let mut stream = Stream::open(&app, "/v1/stream", Some(&anna), None).await;
    play_one(&app, id, &[&anna, &bert]).await;
    let event = stream.next(Duration::from_secs(5)).await.unwrap();
    let theirs = event["id"].as_i64().unwrap().to_string();
    drop(stream);
    for (path, token, last, status) in [
        (
            "/v1/stream",
            Some(cleo.as_str()),
            Some(theirs.as_str()),
            400,
        ),
        ("/v1/stream", Some(anna.as_str()), Some("99999999"), 400),
        ("/v1/stream", Some(anna.as_str()), Some("seven"), 400),
        // An empty Last-Event-ID is no id (the document's integer >= 1): leave it out instead.
        ("/v1/stream", Some(anna.as_str()), Some(""), 400),
        ("/v1/stream", Some(anna.as_str()), Some("  "), 400),
        ("/v1/stream?after=-1", Some(anna.as_str()), None, 400),
        // A query key the stream does not know is refused, not ignored.
        ("/v1/stream?since=3", Some(anna.as_str()), None, 400),
        // Event ids start at 1 (the document's minimum): 0 is no event's, not a pruned one's.
        ("/v1/stream?after=0", Some(anna.as_str()), None, 400),
        ("/v1/stream", Some(anna.as_str()), Some("0"), 400),
        ("/v1/stream", None, Some(theirs.as_str()), 401),
        ("/v1/games/99999/stream", None, None, 404),
    ] {
        let answer = Stream::request(&app, path, token, last).await;
        assert_eq!(answer.status().as_u16(), status, "{path} {last:?}");
        let body: Value = answer.json().await.unwrap();
        let message = body["error"]["message"].as_str().unwrap();
        assert!(!message.is_empty(), "{body}");
        assert!(!message.contains("secret words"), "{body}");
    }
    let other_game = started_against(&app, &anna, "cleo", &cleo).await;
    let answer = Stream::request(
        &app,
        &format!("/v1/games/{other_game}/stream"),
        None,
        Some(&theirs),
    )
    .await;
    assert_eq!(answer.status().as_u16(), 400, "another game's event");
}

async fn one_stream_too_many_is_refused(backend: Backend) {
    let app = TestApp::spawn_with(backend, |config| config.streams_per_account = 2).await;
    let (anna, _) = two_players(&app).await;
    let _one = Stream::open(&app, "/v1/stream", Some(&anna), None).await;
    let _two = Stream::open(&app, "/v1/stream", Some(&anna), None).await;
    let third = Stream::request(&app, "/v1/stream", Some(&anna), None).await;
    assert_eq!(third.status().as_u16(), 429);
    let body: Value = third.json().await.unwrap();
    assert_eq!(body["error"]["code"], "too_many_streams", "{body}");
}

async fn a_spectator_sees_no_message_and_no_seed(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let answer = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kechi", "options": {}, "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let mut watching = Stream::open(&app, &format!("/v1/games/{id}/stream"), None, None).await;
    let mut berts = Stream::open(&app, "/v1/stream", Some(&bert), None).await;
    let accepted = post(&app, &format!("/v1/games/{id}/accept"), &bert, json!({})).await;
    assert_eq!(accepted.status, 200);
    for _ in 0..4 {
        play_one(&app, id, &[&anna, &bert]).await;
    }
    // A player's stream carries the message that came with each move, its sender named.
    let mut with_message = 0;
    while let Some(event) = berts.next(Duration::from_secs(3)).await {
        if event["type"] == "move" {
            let messages = event["messages"].as_array().cloned().unwrap_or_default();
            assert_eq!(messages.len(), 1, "{event}");
            assert_eq!(messages[0]["text"], "secret words", "{event}");
            assert_eq!(messages[0]["action"], "move", "{event}");
            assert_eq!(messages[0]["player"], event["by"], "{event}");
            with_message += 1;
            if with_message == 4 {
                break;
            }
        }
    }
    assert_eq!(with_message, 4, "bert's stream missed messages");
    let mut events = 0;
    while watching.next(Duration::from_secs(3)).await.is_some() {
        events += 1;
        if events == 5 {
            break;
        }
    }
    assert_eq!(events, 5, "the spectator missed events");
    let raw = String::from_utf8(watching.raw.clone()).unwrap();
    assert!(
        !raw.contains("secret words"),
        "a message reached a spectator"
    );
    assert!(!raw.contains("seed"), "the seed reached a spectator: {raw}");
    let view = get(&app, &format!("/v1/games/{id}"), &anna).await;
    let commitment = view.body["seed_sha256"].as_str().unwrap_or("no commitment");
    assert!(!raw.contains(commitment));
}

async fn a_declined_draw_reaches_the_offerer_and_sends_no_mail(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let id = started_game(&app, &anna, &bert).await;
    let draw = format!("/v1/games/{id}/draw");
    let offered = post(&app, &draw, &anna, json!({"action": "offer"})).await;
    assert_eq!(offered.status, 200, "{offered:?}");
    let mut annas = Stream::open(&app, &format!("/v1/games/{id}/stream"), Some(&anna), None).await;
    let annas_mail = app.smtp.messages_to("anna@example.com").len();
    let declined = post(&app, &draw, &bert, json!({"action": "decline"})).await;
    assert_eq!(declined.status, 200, "{declined:?}");
    let heard = annas
        .next(Duration::from_secs(5))
        .await
        .expect("anna heard nothing of the decline");
    assert_eq!(heard["type"], "draw_declined", "{heard}");
    assert_eq!(heard["by"], "bert", "{heard}");
    assert_eq!(heard["for_you"], "draw_offers", "{heard}");
    assert_eq!(heard["status"], "active", "{heard}");
    // The composer has had its chance: a later move's card arrives, and no decline mail with it.
    let berts_mail = app.smtp.messages_to("bert@example.com").len();
    play_one(&app, id, &[&anna, &bert]).await;
    app.smtp.wait_for("bert@example.com", berts_mail + 1).await;
    let subjects: Vec<String> = app
        .smtp
        .messages_to("anna@example.com")
        .iter()
        .skip(annas_mail)
        .filter_map(|mail| {
            mail.data
                .lines()
                .find(|l| l.starts_with("Subject:"))
                .map(str::to_owned)
        })
        .collect();
    assert!(
        subjects.iter().all(|s| !s.to_lowercase().contains("draw")),
        "a declined draw is not mailed: {subjects:?}"
    );
}

/// The one statement that reads the moves a batch of stream events names gives each game the
/// moves at its own plies: none of another game's plies, none that does not exist.
async fn a_batch_of_events_reads_each_games_own_moves(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert) = two_players(&app).await;
    let first = started_game(&app, &anna, &bert).await;
    let second = started_game(&app, &anna, &bert).await;
    let mut played = Vec::new();
    for _ in 0..3 {
        played.push(play_one(&app, first, &[&anna, &bert]).await);
    }
    for _ in 0..2 {
        play_one(&app, second, &[&anna, &bert]).await;
    }
    let wanted = [(first, 0), (first, 2), (second, 1), (second, 2), (first, 7)];
    let mut read =
        turnpost_server::db::events::moves_at(&mut app.conn(), &wanted).expect("the read");
    read.sort_by_key(|row| (row.game_id, row.ply));
    let found: Vec<(i64, i32)> = read.iter().map(|row| (row.game_id, row.ply)).collect();
    // The first game's ply 1 is asked only of the second game: not read for the first.
    assert_eq!(found, [(first, 0), (first, 2), (second, 1)]);
    assert_eq!(read[0].notation, played[0]);
    assert_eq!(read[1].notation, played[2]);
    assert!(turnpost_server::db::events::moves_at(&mut app.conn(), &[])
        .unwrap()
        .is_empty());
}
