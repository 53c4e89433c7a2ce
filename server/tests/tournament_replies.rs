//! Joining a tournament by replying to its announcement (issue 27), on both backends: the
//! invitation carries a reply address naming the tournament and the invitee; a reply `join`
//! enters them through the tournament service and is answered; a second delivery does nothing;
//! already in, full, closed and unclear replies are refused with the reason; `withdraw` leaves;
//! an edited key or another sender is dropped unanswered.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::time::{Duration, Instant};

use common::{get, post, Backend, Received, TestApp};
use serde_json::{json, Value};
use turnpost_server::inbound::{self, HandlerSettings, Outcome, SenderAuth};

both_backends!(
    an_invitee_joins_and_withdraws_by_reply,
    full_closed_and_forged_replies_are_refused,
);

/// The text of a mail (its plain part, decoded) with its subject first.
fn text_of(mail: &Received) -> String {
    let parsed = mail_parser::MessageParser::default()
        .parse(mail.data.as_bytes())
        .unwrap();
    format!(
        "{}\n{}",
        parsed.subject().unwrap_or_default(),
        parsed.body_text(0).unwrap_or_default()
    )
}

/// Waits for the `n`-th mail (from 1) to `to` whose subject contains `needle`.
async fn nth_mail(app: &TestApp, to: &str, needle: &str, n: usize) -> Received {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found: Vec<Received> = app
            .smtp
            .messages_to(to)
            .into_iter()
            .filter(|m| {
                m.header("Subject")
                    .is_some_and(|s| s.starts_with(needle) || text_of(m).starts_with(needle))
            })
            .collect();
        if let Some(mail) = found.get(n - 1) {
            return mail.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no mail {n} to {to} saying {needle:?}: {:?}",
            app.smtp
                .messages_to(to)
                .iter()
                .map(|m| m.header("Subject"))
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The reply address of a mail.
fn reply_to(mail: &Received) -> String {
    let header = mail.header("Reply-To").expect("the mail carries Reply-To");
    header
        .rsplit_once('<')
        .map_or(header.as_str(), |(_, rest)| rest.trim_end_matches('>'))
        .to_owned()
}

/// A reply from `from` to `to` saying `body` above the quoted invitation and a signature, as
/// mail clients write it; `n` makes its Message-ID.
fn reply(from: &str, to: &str, body: &str, n: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: <entry-{n}-{}@client.example>\r\n\
         Subject: Re: Tournament invitation\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n\r\n\
         On Fri, 27 Nov 2026, turnpost wrote:\r\n> Hello,\r\n> org invites you to the \
         tournament\r\n\r\n-- \r\nsent from my phone\r\n",
        std::process::id()
    )
    .into_bytes()
}

/// Runs `raw` through the one inbound handler, as `mail-in` and IMAP do.
fn deliver(app: &TestApp, raw: &[u8]) -> Outcome {
    deliver_with(app, raw, SenderAuth::None)
}

/// [`deliver`] asking `sender_auth` of the sender.
fn deliver_with(app: &TestApp, raw: &[u8], sender_auth: SenderAuth) -> Outcome {
    let mut conn = app.conn();
    inbound::handle(
        &mut conn,
        &app.mail_context(),
        &HandlerSettings {
            answers_per_hour: 100,
            sender_auth,
            bot_games_cap: turnpost_server::games::challenge::BotGamesCap(5),
        },
        raw,
    )
    .unwrap()
}

/// The names of the entrants still in.
async fn entrants(app: &TestApp, id: i64, token: &str) -> Vec<String> {
    let view = get(app, &format!("/v1/tournaments/{id}"), token).await;
    assert_eq!(view.status, 200, "{view:?}");
    view.body["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["player"].as_str().unwrap().to_owned())
        .collect()
}

/// `org` creates a tournament inviting `invite`, its entries closing in an hour.
async fn created(app: &TestApp, org: &str, extra: Value) -> (i64, chrono::NaiveDateTime) {
    let closes = turnpost_server::db::now() + chrono::Duration::hours(1);
    let mut body = json!({"name": "Mail cup", "kind": "kefren", "format": "swiss",
                          "rounds": 2, "entry_closes_at": turnpost_server::db::rfc3339(closes)});
    for (key, value) in extra.as_object().unwrap() {
        body[key] = value.clone();
    }
    let answer = post(app, "/v1/tournaments", org, body).await;
    assert_eq!(answer.status, 201, "{answer:?}");
    (answer.body["id"].as_i64().unwrap(), closes)
}

async fn an_invitee_joins_and_withdraws_by_reply(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let org = play::player(&app.pool, "org");
    let anna = play::player(&app.pool, "anna");
    let (id, _) = created(&app, &org, json!({"invite": ["anna"]})).await;
    let invitation = nth_mail(&app, "anna@example.org", "Tournament invitation", 1).await;
    let text = text_of(&invitation);
    assert!(
        text.contains("reply to this mail with the word join"),
        "{text}"
    );
    let address = reply_to(&invitation);
    assert!(address.contains(&format!("t{id}a")), "{address}");

    // `Join` above the quoted invitation and a signature: anna is in, and told so.
    let raw = reply("anna@example.org", &address, "Join", "1");
    let outcome = deliver(&app, &raw);
    assert_eq!(
        outcome,
        Outcome::Entry {
            tournament_id: id,
            refused: false,
            answers: 1
        }
    );
    assert_eq!(entrants(&app, id, &anna).await, ["anna"]);
    let answer = nth_mail(&app, "anna@example.org", "Re: Tournament invitation", 1).await;
    let said = text_of(&answer);
    assert!(
        said.contains("> Join") && said.contains("Done: you have entered"),
        "{said}"
    );
    assert!(said.contains("1 player has entered so far"), "{said}");
    // The answer's own reply address is the tournament's again.
    assert_eq!(reply_to(&answer), address);
    assert_eq!(
        answer.header("Auto-Submitted").as_deref(),
        Some("auto-replied")
    );

    // The same message delivered again does nothing and answers nothing.
    assert_eq!(deliver(&app, &raw), Outcome::Duplicate);

    // A second `join`: already in, said why.
    let again = deliver(&app, &reply("anna@example.org", &address, "yes", "2"));
    assert!(
        matches!(again, Outcome::Entry { refused: true, .. }),
        "{again:?}"
    );
    let said = text_of(&nth_mail(&app, "anna@example.org", "Re: Tournament invitation", 2).await);
    assert!(
        said.contains("Not done: you have entered tournament") && said.contains("already"),
        "{said}"
    );

    // Words that are no command: what was expected.
    let unclear = deliver(
        &app,
        &reply("anna@example.org", &address, "maybe later", "3"),
    );
    assert!(
        matches!(unclear, Outcome::Entry { refused: true, .. }),
        "{unclear:?}"
    );
    let said = text_of(&nth_mail(&app, "anna@example.org", "Re: Tournament invitation", 3).await);
    assert!(
        said.contains("> maybe later")
            && said.contains("expected `join` to enter the tournament, or `withdraw`"),
        "{said}"
    );
    assert_eq!(entrants(&app, id, &anna).await, ["anna"]);

    // `withdraw` leaves the field.
    let gone = deliver(&app, &reply("anna@example.org", &address, "WITHDRAW", "4"));
    assert!(
        matches!(gone, Outcome::Entry { refused: false, .. }),
        "{gone:?}"
    );
    assert!(entrants(&app, id, &anna).await.is_empty());
    let said = text_of(&nth_mail(&app, "anna@example.org", "Re: Tournament invitation", 4).await);
    assert!(said.contains("Done: you have withdrawn"), "{said}");
}

async fn full_closed_and_forged_replies_are_refused(backend: Backend) {
    let app = TestApp::spawn_with(backend, |c| c.sweep_interval_ms = 0).await;
    let org = play::player(&app.pool, "org");
    let anna = play::player(&app.pool, "anna");
    let bob = play::player(&app.pool, "bob");
    let _cleo = play::player(&app.pool, "cleo");
    let (id, closes) = created(
        &app,
        &org,
        // Waits for its window when full (issue 47's "start when full" is on by default here).
        json!({"invite": ["anna", "bob", "cleo"], "max_players": 2, "start_when_full": false}),
    )
    .await;
    let anna_address =
        reply_to(&nth_mail(&app, "anna@example.org", "Tournament invitation", 1).await);
    let cleo_address =
        reply_to(&nth_mail(&app, "cleo@example.org", "Tournament invitation", 1).await);
    let bob_address =
        reply_to(&nth_mail(&app, "bob@example.org", "Tournament invitation", 1).await);

    // An edited key (anna's address naming bob's account) and another sender on anna's
    // address: dropped, nothing entered, nothing sent.
    let bob_id = get(&app, "/v1/me", &bob).await.body["id"].as_i64().unwrap();
    let anna_id = get(&app, "/v1/me", &anna).await.body["id"]
        .as_i64()
        .unwrap();
    let edited = anna_address.replace(&format!("a{anna_id}@"), &format!("a{bob_id}@"));
    assert_ne!(edited, anna_address);
    let sent_before = app.smtp.messages().len();
    assert_eq!(
        deliver(&app, &reply("bob@example.org", &edited, "join", "f1")),
        Outcome::Ignored("wrong reply key")
    );
    assert_eq!(
        deliver(&app, &reply("anna@example.org", &edited, "join", "f2")),
        Outcome::Ignored("wrong reply key")
    );
    assert_eq!(
        deliver(&app, &reply("bob@example.org", &anna_address, "join", "f3")),
        Outcome::Ignored("sender is not the invited player")
    );
    // A game key's layout is not a tournament key either (made-up game 1, seat 1, ply 0).
    let key = anna_address
        .split_once('+')
        .unwrap()
        .1
        .get(..26)
        .unwrap()
        .to_owned();
    let domain = anna_address.rsplit_once('@').unwrap().1;
    let as_game = format!(
        "{}+{key}g1s1p0@{domain}",
        anna_address.split_once('+').unwrap().0
    );
    assert!(matches!(
        deliver(&app, &reply("anna@example.org", &as_game, "join", "f4")),
        Outcome::Ignored(_)
    ));
    assert!(entrants(&app, id, &org).await.is_empty());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(
        app.smtp.messages().len(),
        sent_before,
        "forgeries are not answered"
    );

    // With DMARC required, a reply no trusted header vouches for does nothing; it is answered.
    let unsigned = deliver_with(
        &app,
        &reply("anna@example.org", &anna_address, "join", "d1"),
        SenderAuth::Dmarc {
            authserv_id: "mx.example.org".to_owned(),
        },
    );
    assert!(
        matches!(unsigned, Outcome::Entry { refused: true, .. }),
        "{unsigned:?}"
    );
    let said = text_of(&nth_mail(&app, "anna@example.org", "Re: Tournament invitation", 1).await);
    assert!(
        said.contains("Not done: this reply could not be shown to come from your address"),
        "{said}"
    );
    assert!(entrants(&app, id, &org).await.is_empty());

    // Two join (one by reply, one by the API); the third is told the tournament is full.
    assert!(matches!(
        deliver(
            &app,
            &reply("anna@example.org", &anna_address, "join", "j1")
        ),
        Outcome::Entry { refused: false, .. }
    ));
    let joined = post(&app, &format!("/v1/tournaments/{id}/join"), &bob, json!({})).await;
    assert_eq!(joined.status, 200, "{joined:?}");
    assert!(matches!(
        deliver(
            &app,
            &reply("cleo@example.org", &cleo_address, "enter", "j2")
        ),
        Outcome::Entry { refused: true, .. }
    ));
    let said = text_of(&nth_mail(&app, "cleo@example.org", "Re: Tournament invitation", 1).await);
    assert!(
        said.contains(&format!(
            "Not done: tournament {id} is full: 2 players have entered"
        )),
        "{said}"
    );
    assert_eq!(entrants(&app, id, &org).await, ["anna", "bob"]);

    // The window closes and round 1 starts: a late `join` is told entries are closed; bob's
    // `withdraw` by reply now resigns his game.
    let step = turnpost_server::tournaments::advance(
        &mut app.conn(),
        &app.mail_context(),
        id,
        closes + chrono::Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(step, turnpost_server::tournaments::Step::Started);
    assert!(matches!(
        deliver(
            &app,
            &reply("cleo@example.org", &cleo_address, "join", "j3")
        ),
        Outcome::Entry { refused: true, .. }
    ));
    let said = text_of(&nth_mail(&app, "cleo@example.org", "Re: Tournament invitation", 2).await);
    assert!(
        said.contains(&format!("Not done: tournament {id} takes no more entries")),
        "{said}"
    );
    assert!(matches!(
        deliver(
            &app,
            &reply("bob@example.org", &bob_address, "withdraw", "w1")
        ),
        Outcome::Entry { refused: false, .. }
    ));
    let view = get(&app, &format!("/v1/tournaments/{id}"), &org).await.body;
    let game = view["round_games"][0]["games"][0]["id"].as_i64().unwrap();
    let game = get(&app, &format!("/v1/games/{game}"), &anna).await.body;
    assert_eq!(
        (game["status"].as_str(), game["result_reason"].as_str()),
        (Some("finished"), Some("resignation")),
        "{game}"
    );
    let bob_entry = view["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["player"] == "bob")
        .unwrap()
        .clone();
    assert_eq!(bob_entry["left_reason"], "withdrew", "{view}");
}
