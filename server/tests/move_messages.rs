//! A word with your move (issue 28 point 2) on both backends: a message sent with a move, a
//! draw offer or a resignation over the API, with a move of a mail reply (with conditional
//! lines beside it), or from the game page's form reaches the other player's card; only the
//! game's players see it (never a spectator nor an anonymous page); 500 characters pass, 501
//! play nothing; control characters are dropped; mutes (a game's, a person's) keep messages
//! out of the cards. And the replies of Gmail, Outlook, Apple Mail and Thunderbird (quotes,
//! signatures, HTML only) carry exactly the words typed.
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
use std::time::{Duration, Instant};

use common::{get, post, Backend, Received, TestApp};
use reqwest::Method;
use serde_json::{json, Value};
use turnpost_server::inbound::{split_reply, written_lines, InboundMessage};
use turnpost_server::mail_context::MailContext;
use turnpost_shared::play::clean_message;
use turnpost_shared::{AnyGame, Options};

both_backends!(
    players_see_messages_and_nobody_else,
    long_messages_play_nothing_and_controls_are_dropped,
    cards_carry_messages_unless_muted,
    draw_offer_and_resignation_carry_messages,
    mail_reply_sends_its_words_with_the_move,
    page_form_sends_a_message,
);

/// What every fixture reply typed after its move.
const TYPED: &str = "Your turn, good luck!";

/// The message a fixture reply carries, read as the server reads it.
fn fixture_message(name: &str) -> (Vec<String>, Option<String>) {
    let path = format!(
        "{}/tests/fixtures/messages/{name}.eml",
        env!("CARGO_MANIFEST_DIR")
    );
    let raw = std::fs::read(&path).unwrap();
    let text = InboundMessage::read(&raw).unwrap().text();
    let parts = split_reply(&written_lines(&text));
    let message = parts
        .message
        .as_deref()
        .and_then(|m| clean_message(m).unwrap());
    (parts.commands, message)
}

#[test]
fn client_replies_carry_exactly_the_typed_words() {
    for name in [
        "outlook",
        "outlook_original",
        "apple_mail",
        "thunderbird",
        "signature",
        "html_only",
    ] {
        let (commands, message) = fixture_message(name);
        assert_eq!(commands, ["F3:E4:E7"], "{name}");
        assert_eq!(message.as_deref(), Some(TYPED), "{name}");
    }
    // Gmail's: a link stays the text typed, angle brackets and all.
    let (commands, message) = fixture_message("gmail");
    assert_eq!(commands, ["F3:E4:E7"]);
    assert_eq!(
        message.as_deref(),
        Some("Your turn, good luck! See https://example.org/<b>notes</b>")
    );
}

/// A started two-player Kefren game between anna (seat 1, to move) and bert; cleo has an
/// account and no seat. Their tokens and the game's id.
async fn started(app: &TestApp) -> (String, String, String, i64) {
    let anna = play::player(&app.pool, "anna");
    let bert = play::player(&app.pool, "bert");
    let cleo = play::player(&app.pool, "cleo");
    let answer = post(
        app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    let accepted = post(
        app,
        &format!("/v1/games/{id}/accept"),
        &bert,
        json!({"message": "happy to play"}),
    )
    .await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    (anna, bert, cleo, id)
}

async fn view(app: &TestApp, id: i64, token: &str) -> Value {
    get(app, &format!("/v1/games/{id}"), token).await.body
}

/// The first legal move of the game as `token` sees it (their turn).
async fn a_move(app: &TestApp, id: i64, token: &str) -> (String, u64) {
    let game = view(app, id, token).await;
    let options = Options::from_pairs(
        game["options"]
            .as_object()
            .unwrap()
            .iter()
            .map(|(k, v)| format!("{k}={}", v.as_str().unwrap())),
    )
    .unwrap();
    let position =
        AnyGame::from_position_text_seed_withheld(&options, game["position"].as_str().unwrap())
            .unwrap();
    (
        position.legal_moves()[0].clone(),
        game["ply"].as_u64().unwrap(),
    )
}

/// Plays the first legal move with `message`; answers the move and its ply.
async fn play_saying(app: &TestApp, id: i64, token: &str, message: &str) -> (String, u64) {
    let (mv, ply) = a_move(app, id, token).await;
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": ply, "message": message}),
    )
    .await;
    assert_eq!(answer.status, 201, "{mv} at {ply}: {answer:?}");
    (mv, ply)
}

async fn messages_seen(app: &TestApp, id: i64, token: &str) -> Vec<Value> {
    let answer = get(app, &format!("/v1/games/{id}/moves"), token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn text_of(mail: &Received) -> String {
    InboundMessage::read(mail.data.as_bytes()).unwrap().text()
}

/// The words of the mails to `to` beyond the first `seen`, once one says `wanted`.
async fn new_mail_saying(app: &TestApp, to: &str, seen: usize, wanted: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let texts: Vec<String> = app
            .smtp
            .messages_to(to)
            .iter()
            .skip(seen)
            .map(|m| text_of(m).split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        if let Some(found) = texts.iter().find(|t| t.contains(wanted)) {
            return found.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no new mail to {to} saying {wanted:?}; got:\n{}",
            texts.join("\n----\n")
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The player sees the message (and the accept's), the spectator and the anonymous page not.
async fn players_see_messages_and_nobody_else(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, cleo, id) = started(&app).await;
    let (mv, _) = play_saying(&app, id, &anna, "your turn, <i>good luck</i>").await;
    for token in [&anna, &bert] {
        let seen = messages_seen(&app, id, token).await;
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen[0]["player"], "bert");
        assert_eq!(seen[0]["action"], "accept");
        assert_eq!(seen[0]["text"], "happy to play");
        assert_eq!(seen[1]["player"], "anna");
        assert_eq!(seen[1]["action"], "move");
        assert_eq!(seen[1]["ply"], 0);
        assert_eq!(seen[1]["seat"], 1);
        assert_eq!(seen[1]["text"], "your turn, <i>good luck</i>");
    }
    // A spectator with an account sees the moves and no message.
    let watched = get(&app, &format!("/v1/games/{id}/moves"), &cleo).await;
    assert_eq!(watched.status, 200);
    assert_eq!(watched.body["moves"][0]["move"], mv.as_str());
    assert!(watched.body.get("messages").is_none(), "{watched:?}");
    // Nobody signed in: no move list at all, and the public page shows no message.
    assert_eq!(
        app.get(&format!("/v1/games/{id}/moves"), None).await.status,
        401
    );
    let page = reqwest::get(format!("{}/games/{id}", app.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains(&mv), "the page shows the move");
    assert!(!page.contains("good luck") && !page.contains("happy to play"));
    assert!(!page.contains("name=\"message\""));
}

/// 500 characters pass; 501 answer 422 and play nothing; control characters are dropped; an
/// identical retry stores its message once.
async fn long_messages_play_nothing_and_controls_are_dropped(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, _, id) = started(&app).await;
    let (mv, ply) = a_move(&app, id, &anna).await;
    let too_long = "é".repeat(501);
    let refused = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &anna,
        json!({"move": mv, "ply": ply, "message": too_long}),
    )
    .await;
    assert_eq!(refused.status, 422, "{refused:?}");
    assert_eq!(refused.error_code(), "bad_message");
    let said = refused.body["error"]["message"].as_str().unwrap();
    assert!(said.contains("501") && said.contains("500"), "{said}");
    assert_eq!(view(&app, id, &anna).await["ply"], 0, "nothing was played");
    let most = "é".repeat(500);
    let body = json!({"move": mv, "ply": ply, "message": format!("{most}\u{7}\u{1b}")});
    let played = post(&app, &format!("/v1/games/{id}/moves"), &anna, body.clone()).await;
    assert_eq!(played.status, 201, "{played:?}");
    // The same request again: answered as before, stored once.
    let again = post(&app, &format!("/v1/games/{id}/moves"), &anna, body).await;
    assert_eq!(again.status, 201, "{again:?}");
    let seen = messages_seen(&app, id, &bert).await;
    let moves: Vec<&Value> = seen.iter().filter(|m| m["action"] == "move").collect();
    assert_eq!(moves.len(), 1, "{seen:?}");
    assert_eq!(moves[0]["text"], most.as_str());
    // Only controls and spaces: no message at all.
    let (_, ply) = a_move(&app, id, &bert).await;
    let (mv, _) = a_move(&app, id, &bert).await;
    let quiet = post(
        &app,
        &format!("/v1/games/{id}/moves"),
        &bert,
        json!({"move": mv, "ply": ply, "message": " \u{0}\r\n\t "}),
    )
    .await;
    assert_eq!(quiet.status, 201, "{quiet:?}");
    assert_eq!(messages_seen(&app, id, &anna).await.len(), 2);
    // A resignation with too long a message resigns nothing.
    let resign = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &anna,
        json!({"message": too_long}),
    )
    .await;
    assert_eq!(resign.status, 422, "{resign:?}");
    assert_eq!(view(&app, id, &anna).await["status"], "active");
}

/// bert's turn cards show anna's messages; muting the game, then anna, keeps them out; after
/// unmuting they show again.
async fn cards_carry_messages_unless_muted(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, _, id) = started(&app).await;
    let to = "bert@example.org";
    let seen = app.smtp.messages_to(to).len();
    let (mv, _) = play_saying(&app, id, &anna, "first words").await;
    let card = new_mail_saying(&app, to, seen, &format!("anna played {mv}")).await;
    assert!(
        card.contains("anna wrote, with move 1: first words"),
        "{card}"
    );
    play_saying(&app, id, &bert, "thanks").await;

    let muted = post(&app, &format!("/v1/games/{id}/mute"), &bert, json!({})).await;
    assert_eq!(muted.status, 200, "{muted:?}");
    assert_eq!(muted.body["games"], json!([id]));
    let seen = app.smtp.messages_to(to).len();
    let (mv, _) = play_saying(&app, id, &anna, "second words").await;
    let card = new_mail_saying(&app, to, seen, &format!("anna played {mv}")).await;
    assert!(!card.contains("second words"), "{card}");
    assert!(messages_seen(&app, id, &bert).await.is_empty());
    play_saying(&app, id, &bert, "ok").await;

    let unmuted = common::call(
        &app,
        Method::DELETE,
        &format!("/v1/games/{id}/mute"),
        &bert,
        None,
    )
    .await;
    assert_eq!(unmuted.status, 200, "{unmuted:?}");
    let person = post(&app, "/v1/players/ANNA/mute", &bert, json!({})).await;
    assert_eq!(person.status, 200, "{person:?}");
    assert_eq!(person.body, json!({"games": [], "players": ["anna"]}));
    let seen = app.smtp.messages_to(to).len();
    let (mv, _) = play_saying(&app, id, &anna, "third words").await;
    let card = new_mail_saying(&app, to, seen, &format!("anna played {mv}")).await;
    assert!(!card.contains("third words"), "{card}");
    // anna still reads bert's.
    assert!(messages_seen(&app, id, &anna)
        .await
        .iter()
        .any(|m| m["text"] == "thanks"));
    play_saying(&app, id, &bert, "fine").await;

    let listed = get(&app, "/v1/me/mutes", &bert).await;
    assert_eq!(listed.body["players"], json!(["anna"]));
    let nobody = post(&app, "/v1/players/nobody/mute", &bert, json!({})).await;
    assert_eq!(nobody.status, 404, "{nobody:?}");
    assert_eq!(nobody.error_code(), "not_found");
    let spectator = play::player(&app.pool, "dora");
    let not_hers = post(&app, &format!("/v1/games/{id}/mute"), &spectator, json!({})).await;
    assert_eq!(not_hers.status, 403, "{not_hers:?}");

    let unmuted = common::call(&app, Method::DELETE, "/v1/players/anna/mute", &bert, None).await;
    assert_eq!(unmuted.status, 200, "{unmuted:?}");
    let seen = app.smtp.messages_to(to).len();
    let (mv, _) = play_saying(&app, id, &anna, "fourth words").await;
    let card = new_mail_saying(&app, to, seen, &format!("anna played {mv}")).await;
    assert!(card.contains("fourth words"), "{card}");
    assert!(
        !card.contains("first words"),
        "only those since bert's last move: {card}"
    );
}

/// A draw offer's message reaches the offer mail; a resignation's the game-over mail.
async fn draw_offer_and_resignation_carry_messages(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, _, id) = started(&app).await;
    play_saying(&app, id, &anna, "opening").await;
    let seen = app.smtp.messages_to("anna@example.org").len();
    let offer = post(
        &app,
        &format!("/v1/games/{id}/draw"),
        &bert,
        json!({"action": "offer", "message": "shall we call it a day?"}),
    )
    .await;
    assert_eq!(offer.status, 200, "{offer:?}");
    let mail = new_mail_saying(&app, "anna@example.org", seen, "offers a draw").await;
    assert!(
        mail.contains("bert wrote, with their draw offer: shall we call it a day?"),
        "{mail}"
    );
    let seen = app.smtp.messages_to("bert@example.org").len();
    let resign = post(
        &app,
        &format!("/v1/games/{id}/resign"),
        &anna,
        json!({"message": "well played"}),
    )
    .await;
    assert_eq!(resign.status, 200, "{resign:?}");
    let over = new_mail_saying(&app, "bert@example.org", seen, "is over").await;
    assert!(
        over.contains("anna wrote, with their resignation: well played"),
        "{over}"
    );
    // Without a body, resigning still works (another game).
    let (_, _, _, other) = {
        let answer = post(
            &app,
            "/v1/games",
            &anna,
            json!({"kind": "kefren", "seats": ["anna", "bert"]}),
        )
        .await;
        let other = answer.body["id"].as_i64().unwrap();
        let accepted = app
            .request(
                Method::POST,
                &format!("/v1/games/{other}/accept"),
                Some(&bert),
                None,
            )
            .await;
        assert_eq!(accepted.status, 200, "{accepted:?}");
        ((), (), (), other)
    };
    let bare = app
        .request(
            Method::POST,
            &format!("/v1/games/{other}/resign"),
            Some(&anna),
            None,
        )
        .await;
    assert_eq!(bare.status, 200, "{bare:?}");
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

/// A Gmail-shaped reply from `from` to `to`: `body`, then the quoted card.
fn gmail_reply(from: &str, to: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: <msg-{}@mail.gmail.com>\r\n\
         Subject: Re: Kefren\r\nDate: Tue, 24 Nov 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\n\
         On Tue, Nov 24, 2026 at 9:58 AM turnpost <{to}> wrote:\r\n\
         > It is your move.\r\n> resign\r\n",
        std::process::id()
    )
    .into_bytes()
}

/// anna's reply plays her move with a message and a conditional line; the confirmation says
/// the message went; bert's card carries exactly her words.
async fn mail_reply_sends_its_words_with_the_move(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, _, id) = started(&app).await;
    let card = app.smtp.wait_for("anna@example.org", 1).await;
    let card = card
        .iter()
        .find(|m| m.header("Reply-To").is_some())
        .unwrap();
    let (first, _) = a_move(&app, id, &anna).await;
    let body = format!("{first}\r\nYour turn, good luck!\r\nSee you on Tuesday.\r\n");
    let raw = gmail_reply("anna@example.org", &reply_to(card), &body);
    let seen_bert = app.smtp.messages_to("bert@example.org").len();
    let seen_anna = app.smtp.messages_to("anna@example.org").len();
    let outcome = turnpost_server::inbound::handle(
        &mut app.conn(),
        &ctx(&app),
        &turnpost_server::inbound::HandlerSettings {
            answers_per_hour: 100,
            sender_auth: turnpost_server::inbound::SenderAuth::None,
            bot_games_cap: turnpost_server::games::challenge::BotGamesCap(5),
        },
        &raw,
    )
    .unwrap();
    assert!(
        matches!(
            outcome,
            turnpost_server::inbound::Outcome::Acted {
                done: 1,
                refused: false,
                ..
            }
        ),
        "{outcome:?}"
    );
    let seen = messages_seen(&app, id, &bert).await;
    let last = seen.last().unwrap();
    assert_eq!(last["text"], "Your turn, good luck!\nSee you on Tuesday.");
    assert_eq!(last["action"], "move");
    let turn = new_mail_saying(&app, "bert@example.org", seen_bert, "anna played").await;
    // Each further line of the message is marked as hers (issue 48): none stands as ours.
    assert!(
        turn.contains("anna wrote, with move 1: Your turn, good luck! > See you on Tuesday."),
        "{turn}"
    );
    assert!(!turn.contains("It is your move. resign"), "{turn}");
    let answer = new_mail_saying(&app, "anna@example.org", seen_anna, "with your message").await;
    assert!(answer.contains(&format!("played {first}")), "{answer}");
}

/// The game page's move form sends its message field with the move; the page shows it to the
/// players, escaped (no link, no tag).
async fn page_form_sends_a_message(backend: Backend) {
    let app = TestApp::spawn(backend).await;
    let (anna, bert, _, id) = started(&app).await;
    let card = text_of(&app.smtp.wait_for("anna@example.org", 1).await.remove(0));
    let marker = format!("/games/{id}/play/");
    let line = card.lines().find(|l| l.contains(&marker)).unwrap();
    let path = line[line.find("/games/").unwrap()..].trim().to_owned();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let (cookie, page) = common::follow_play_link(&app, &client, &path, id).await;
    assert!(page.contains("name=\"message\""), "the form has the field");
    assert!(page.contains("maxlength=\"500\""));
    let csrf = page
        .split("name=\"csrf\" value=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    let (mv, _) = a_move(&app, id, &anna).await;
    let posted = client
        .post(format!("{}/games/{id}/move", app.base))
        .header("cookie", &cookie)
        .form(&[
            ("csrf", csrf.as_str()),
            ("ply", "0"),
            ("move", mv.as_str()),
            ("message", "see <a href=\"https://evil.example\">this</a>"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(posted.status(), 303);
    let seen = messages_seen(&app, id, &bert).await;
    assert_eq!(
        seen.last().unwrap()["text"],
        "see <a href=\"https://evil.example\">this</a>"
    );
    let page = client
        .get(format!("{}/games/{id}", app.base))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("see &lt;a href="), "escaped: {page}");
    assert!(!page.contains("<a href=\"https://evil.example\""));
    // Muting from the page.
    let muted = client
        .post(format!("{}/games/{id}/mute", app.base))
        .header("cookie", &cookie)
        .form(&[("csrf", csrf.as_str()), ("action", "mute-game")])
        .send()
        .await
        .unwrap();
    assert_eq!(muted.status(), 303);
    assert!(messages_seen(&app, id, &anna).await.is_empty());
}
