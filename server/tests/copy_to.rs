//! `turnpost-server copy-to`: an SQLite installation holding every kind of row (games of every
//! kind mid-play and finished, a departure, a bot game, a challenge, a mail reply, sessions and
//! tokens, sent, dead and pending mail) copied by the real binary into an empty PostgreSQL
//! database; a second copy into it is refused; the server on PostgreSQL then continues every
//! game and sends the pending mail once.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
#[path = "common/play.rs"]
mod play;

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{get, patch, post, Backend, Received, SmtpSink, TestApp, TestDb};
use diesel::prelude::*;
use serde_json::{json, Value};
use turnpost_server::db::outbox::{OutboxMail, OutboxStatus};
use turnpost_server::db::schema::{games, mail_outbox};
use turnpost_server::games::Actor;
use turnpost_shared::api::PlayMoveRequest;

const KINDS: [&str; 4] = ["kefren", "kechi", "sanqi", "chinese-checkers"];

/// Every table `server/src/db/schema.rs` declares.
fn schema_tables() -> BTreeSet<String> {
    let schema = include_str!("../src/db/schema.rs");
    schema
        .split("diesel::table! {")
        .skip(1)
        .map(|block| {
            block
                .trim_start()
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .next()
                .unwrap()
                .to_owned()
        })
        .collect()
}

/// The game as `token`'s player sees it.
async fn game(app: &TestApp, id: i64, token: &str) -> Value {
    let answer = get(app, &format!("/v1/games/{id}"), token).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    answer.body
}

/// Plays the first legal move for the player holding `token`; the game after it.
async fn play_first(app: &TestApp, id: i64, token: &str) -> Value {
    let view = game(app, id, token).await;
    assert_eq!(view["your_turn"], true, "{view}");
    let mv = view["legal_moves"][0].as_str().unwrap().to_owned();
    let answer = post(
        app,
        &format!("/v1/games/{id}/moves"),
        token,
        json!({"move": mv, "ply": view["ply"]}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    answer.body
}

/// A challenge of `kind` from the first of `names` to the rest, accepted by all; its id.
async fn started(app: &TestApp, kind: &str, names: &[&str], tokens: &[&str]) -> i64 {
    let answer = post(
        app,
        "/v1/games",
        tokens[0],
        json!({"kind": kind, "seats": names}),
    )
    .await;
    assert_eq!(answer.status, 201, "{answer:?}");
    let id = answer.body["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let accepted = post(app, &format!("/v1/games/{id}/accept"), token, json!({})).await;
        assert_eq!(accepted.status, 200, "{accepted:?}");
    }
    id
}

/// Plays one move in `id`: the player whose turn it is, or waits for the bot to; `false` if
/// the game is not running.
async fn continue_game(app: &TestApp, id: i64, tokens: &[&str]) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    let start = game(app, id, tokens[0]).await;
    if start["status"] != "active" {
        return false;
    }
    let ply = start["ply"].as_u64().unwrap();
    loop {
        for token in tokens {
            let answer = get(app, &format!("/v1/games/{id}"), token).await;
            if answer.status != 200 {
                continue;
            }
            if answer.body["ply"].as_u64().unwrap() > ply {
                return true; // the bot played
            }
            if answer.body["your_turn"] == true {
                let after = play_first(app, id, token).await;
                assert!(after["ply"].as_u64().unwrap() > ply);
                return true;
            }
        }
        assert!(
            Instant::now() < deadline,
            "game {id} did not go on: {start}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The Message-ID of a received mail, without brackets.
fn message_id(mail: &Received) -> String {
    mail.header("Message-ID")
        .unwrap()
        .trim_matches(|c| c == '<' || c == '>')
        .to_owned()
}

fn bare(id: &str) -> String {
    id.trim_matches(|c| c == '<' || c == '>').to_owned()
}

/// A plain-text reply from `from` to `to` whose first line is `body`.
fn reply(from: &str, to: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nMessage-ID: <copy-to-reply-1@client.example>\r\n\
         Date: Wed, 25 Nov 2026 10:00:00 +0000\r\nSubject: Re: your move\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=\"us-ascii\"\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// Builds the source installation on SQLite; returns its database, the games and the tokens.
async fn source() -> (TestDb, Vec<i64>, BTreeMap<&'static str, String>) {
    let app = TestApp::spawn_with(Backend::Sqlite, |config| {
        // A refused mail is dead at once, not retried.
        config.outbox_max_attempts = 1;
    })
    .await;
    let mut tokens = BTreeMap::new();
    for name in ["anna", "bert", "cleo", "rejectme"] {
        tokens.insert(name, play::player(&app.pool, name));
    }
    let (anna, bert, cleo) = (
        tokens["anna"].clone(),
        tokens["bert"].clone(),
        tokens["cleo"].clone(),
    );
    let mut ids = Vec::new();
    for kind in KINDS {
        // Mid-play: two moves.
        let id = started(&app, kind, &["anna", "bert"], &[&anna, &bert]).await;
        play_first(&app, id, &anna).await;
        play_first(&app, id, &bert).await;
        ids.push(id);
        // Finished: a move, then a resignation.
        let id = started(&app, kind, &["anna", "bert"], &[&anna, &bert]).await;
        play_first(&app, id, &anna).await;
        let resigned = post(&app, &format!("/v1/games/{id}/resign"), &bert, json!({})).await;
        assert_eq!(resigned.status, 200, "{resigned:?}");
        assert_eq!(resigned.body["status"], "finished");
        ids.push(id);
    }
    // Three players; one leaves and the game goes on.
    let id = started(
        &app,
        "chinese-checkers",
        &["anna", "bert", "cleo"],
        &[&anna, &bert, &cleo],
    )
    .await;
    play_first(&app, id, &anna).await;
    let left = post(&app, &format!("/v1/games/{id}/resign"), &cleo, json!({})).await;
    assert_eq!(left.status, 200, "{left:?}");
    assert_eq!(left.body["status"], "active", "{left:?}");
    ids.push(id);
    // Against a bot, which answers at once (its claim stays behind).
    let id = started(&app, "kefren", &["anna", "bot-1"], &[&anna]).await;
    play_first(&app, id, &anna).await;
    assert!(continue_game(&app, id, &[&anna]).await);
    ids.push(id);
    // A challenge not answered yet, and one to an address the relay refuses (dead mail).
    let open = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "cleo"]}),
    )
    .await;
    assert_eq!(open.status, 201, "{open:?}");
    ids.push(open.body["id"].as_i64().unwrap());
    let refused = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "rejectme"]}),
    )
    .await;
    assert_eq!(refused.status, 201, "{refused:?}");
    ids.push(refused.body["id"].as_i64().unwrap());
    // A move by mail reply: cleo answers her turn card with her move.
    let id = started(&app, "kefren", &["anna", "cleo"], &[&anna, &cleo]).await;
    play_first(&app, id, &anna).await;
    app.game_mail_composed().await;
    let card = {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            // Her turn card: its reply key names the game, her seat (2) and ply 1.
            let key = format!("g{id}s2p1@");
            let found = app
                .smtp
                .messages_to("cleo@example.org")
                .into_iter()
                .find(|m| m.header("Reply-To").is_some_and(|r| r.contains(&key)));
            if let Some(found) = found {
                break found;
            }
            assert!(
                Instant::now() < deadline,
                "no turn card for cleo: {:?}",
                app.smtp
                    .messages_to("cleo@example.org")
                    .iter()
                    .map(|m| (m.header("Subject"), m.header("Reply-To")))
                    .collect::<Vec<_>>()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let reply_to = card.header("Reply-To").unwrap();
    let reply_to = reply_to
        .rsplit_once('<')
        .map_or(reply_to.as_str(), |(_, rest)| rest.trim_end_matches('>'))
        .to_owned();
    let mv = game(&app, id, &cleo).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let outcome = {
        let mut conn = app.conn();
        turnpost_server::inbound::handle(
            &mut conn,
            &app.mail_context(),
            &turnpost_server::inbound::HandlerSettings {
                answers_per_hour: 100,
                sender_auth: turnpost_server::inbound::SenderAuth::None,
                bot_games_cap: turnpost_server::games::challenge::BotGamesCap(5),
            },
            // With a message after the move (a `move_messages` row).
            &reply(
                "cleo@example.org",
                &reply_to,
                &format!("{mv}\ngood luck, anna"),
            ),
        )
        .unwrap()
    };
    assert!(
        matches!(outcome, turnpost_server::inbound::Outcome::Acted { .. }),
        "{outcome:?}"
    );
    assert_eq!(game(&app, id, &cleo).await["ply"], 2, "{outcome:?} {mv}");
    // Counted as `mail-in` counts what it delivers (a `mail_in_deliveries` row).
    turnpost_server::db::mail_in_deliveries::count(&mut app.conn(), "acted").unwrap();
    // Webhooks (issue 46): an endpoint of anna's, a delivery to it, its attempt, and a
    // switch of her webhook channel.
    for statement in [
        "INSERT INTO webhook_endpoints (account_id, url, kinds, format, secret, created_at) \
         SELECT id, 'https://hooks.example.org/t', 'turn', 'standard', \
         'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', CURRENT_TIMESTAMP FROM accounts \
         WHERE name = 'anna'",
        "INSERT INTO webhook_deliveries (endpoint_id, webhook_id, event_type, body, \
         next_try_at, status, created_at) SELECT id, 'msg_fixture', 'test', '{}', \
         CURRENT_TIMESTAMP, 'delivered', CURRENT_TIMESTAMP FROM webhook_endpoints",
        "INSERT INTO webhook_attempts (endpoint_id, webhook_id, event_type, at, delivered, \
         status, duration_ms) SELECT id, 'msg_fixture', 'test', CURRENT_TIMESTAMP, 1, 200, 12 \
         FROM webhook_endpoints",
        "INSERT INTO channel_switches (account_id, channel, category, enabled) \
         SELECT id, 'webhooks', 'turn', 0 FROM accounts WHERE name = 'anna'",
        // Web push (issue 46): a device of anna's and a notification queued for it.
        "INSERT INTO push_subscriptions (account_id, endpoint, p256dh, auth, name, created_at) \
         SELECT id, 'https://push.example.org/send/anna', \
         'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', \
         'BTBZMqHH6r4Tts7J_aSIgg', 'Firefox on Android', CURRENT_TIMESTAMP FROM accounts \
         WHERE name = 'anna'",
        "INSERT INTO push_deliveries (subscription_id, event_id, body, ttl, urgency, \
         next_try_at, status, created_at) SELECT id, 1, '{}', 259200, 'high', \
         CURRENT_TIMESTAMP, 'delivered', CURRENT_TIMESTAMP FROM push_subscriptions",
    ] {
        use diesel::RunQueryDsl;
        diesel::sql_query(statement)
            .execute(&mut *app.conn())
            .unwrap();
    }
    ids.push(id);
    // An open challenge (an open seat), a rematch of a finished game, and conditional moves:
    // bert answers anna's first move of a new game in advance.
    let posted = post(
        &app,
        "/v1/games",
        &anna,
        json!({"kind": "kefren", "seats": ["anna", "open"]}),
    )
    .await;
    assert_eq!(posted.status, 201, "{posted:?}");
    ids.push(posted.body["id"].as_i64().unwrap());
    let rematch = post(
        &app,
        &format!("/v1/games/{}/rematch", ids[1]),
        &anna,
        json!({}),
    )
    .await;
    assert_eq!(rematch.status, 201, "{rematch:?}");
    ids.push(rematch.body["id"].as_i64().unwrap());
    let id = started(&app, "kefren", &["anna", "bert"], &[&anna, &bert]).await;
    let theirs = game(&app, id, &anna).await["legal_moves"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let after = {
        let stored = turnpost_server::db::games::find(&mut app.conn(), id)
            .unwrap()
            .unwrap();
        turnpost_server::games::engine(&stored)
            .unwrap()
            .play(&theirs)
            .unwrap()
            .0
    };
    let mine = after.legal_moves()[0].clone();
    let tree = common::call(
        &app,
        reqwest::Method::PUT,
        &format!("/v1/games/{id}/conditional"),
        &bert,
        Some(json!({"ply": 0, "lines": [[theirs, mine]]})),
    )
    .await;
    assert_eq!(tree.status, 200, "{tree:?}");
    ids.push(id);
    // Messages muted: bert mutes this game's and anna's.
    let muted_game = post(&app, &format!("/v1/games/{id}/mute"), &bert, json!({})).await;
    assert_eq!(muted_game.status, 200, "{muted_game:?}");
    let muted_anna = post(&app, "/v1/players/anna/mute", &bert, json!({})).await;
    assert_eq!(muted_anna.status, 200, "{muted_anna:?}");
    assert_eq!(
        muted_anna.body["players"],
        json!(["anna"]),
        "{muted_anna:?}"
    );
    // Rated: both moved, then a resignation (rating history rows for both).
    let id = started(&app, "kefren", &["anna", "bert"], &[&anna, &bert]).await;
    play_first(&app, id, &anna).await;
    play_first(&app, id, &bert).await;
    let resigned = post(&app, &format!("/v1/games/{id}/resign"), &bert, json!({})).await;
    assert_eq!(resigned.body["status"], "finished", "{resigned:?}");
    ids.push(id);
    // A browser session.
    let bert_id = get(&app, "/v1/me", &bert).await.body["id"]
        .as_i64()
        .unwrap();
    turnpost_server::browser_sessions::start(&mut app.conn(), bert_id, "Firefox on Linux").unwrap();
    // A Swiss tournament of three, round 1 paired: entries, a game and a bye. Cleo, invited,
    // joins by replying to the announcement (an `inbound_tournament_mail` row).
    let closes = turnpost_server::db::now() + chrono::Duration::hours(1);
    let tournament = post(
        &app,
        "/v1/tournaments",
        &anna,
        json!({"name": "Copy cup", "kind": "kefren", "format": "swiss", "rounds": 2,
               "entry_closes_at": turnpost_server::db::rfc3339(closes), "invite": ["cleo"]}),
    )
    .await;
    assert_eq!(tournament.status, 201, "{tournament:?}");
    let tournament = tournament.body["id"].as_i64().unwrap();
    let invitation = {
        let deadline = Instant::now() + Duration::from_secs(20);
        let marker = format!("t{tournament}a");
        loop {
            let found = app
                .smtp
                .messages_to("cleo@example.org")
                .into_iter()
                .find(|m| m.header("Reply-To").is_some_and(|r| r.contains(&marker)));
            if let Some(found) = found {
                break found;
            }
            assert!(Instant::now() < deadline, "no invitation for cleo");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    let entry_address = invitation.header("Reply-To").unwrap();
    let entry_address = entry_address
        .rsplit_once('<')
        .map_or(entry_address.as_str(), |(_, rest)| {
            rest.trim_end_matches('>')
        })
        .to_owned();
    let joined = turnpost_server::inbound::handle(
        &mut app.conn(),
        &app.mail_context(),
        &turnpost_server::inbound::HandlerSettings {
            answers_per_hour: 100,
            sender_auth: turnpost_server::inbound::SenderAuth::None,
            bot_games_cap: turnpost_server::games::challenge::BotGamesCap(5),
        },
        &reply("cleo@example.org", &entry_address, "join"),
    )
    .unwrap();
    assert!(
        matches!(
            joined,
            turnpost_server::inbound::Outcome::Entry { refused: false, .. }
        ),
        "{joined:?}"
    );
    for token in [&anna, &bert] {
        let joined = post(
            &app,
            &format!("/v1/tournaments/{tournament}/join"),
            token,
            json!({}),
        )
        .await;
        assert_eq!(joined.status, 200, "{joined:?}");
    }
    let step = turnpost_server::tournaments::advance(
        &mut app.conn(),
        &app.mail_context(),
        tournament,
        closes + chrono::Duration::minutes(1),
    )
    .unwrap();
    assert_eq!(step, turnpost_server::tournaments::Step::Started);
    let paired = get(&app, &format!("/v1/tournaments/{tournament}"), &anna).await;
    assert!(
        paired.body["round_games"][0]["bye"].is_string(),
        "{paired:?}"
    );
    ids.push(
        paired.body["round_games"][0]["games"][0]["id"]
            .as_i64()
            .unwrap(),
    );
    // Preferences, a muted game, a vacation, a sign-in code.
    let muted = patch(
        &app,
        "/v1/me/notifications",
        &bert,
        json!({"time_zone": "Europe/Paris", "mute": [ids[1]]}),
    )
    .await;
    assert_eq!(muted.status, 200, "{muted:?}");
    let away = post(&app, "/v1/me/vacation", &cleo, json!({"days": 2})).await;
    assert_eq!(away.status, 200, "{away:?}");
    let code = app
        .post("/v1/sessions", &json!({"email": "bert@example.org"}))
        .await;
    assert_eq!(code.status, 202, "{code:?}");
    app.game_mail_composed().await;
    // Everything so far is delivered (or dead) before the server stops.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let pending = mail_outbox::table
            .filter(mail_outbox::status.eq(OutboxStatus::Pending))
            .count()
            .get_result::<i64>(&mut *app.conn())
            .unwrap();
        if pending == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{pending} mails still pending");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let anna_id = get(&app, "/v1/me", &anna).await.body["id"]
        .as_i64()
        .unwrap();
    let ctx = app.mail_context();
    let mut app = app;
    app.shutdown().await;
    // With the server stopped, two moves are played through the game service (as `mail-in`
    // would): the first one's turn card is composed, so it is pending in the outbox when the
    // copy is taken; the second one's event still waits for the composer.
    let mut conn = app.conn();
    for (n, id) in [ids[0], ids[2]].into_iter().enumerate() {
        let stored = turnpost_server::db::games::find(&mut conn, id)
            .unwrap()
            .unwrap();
        let mv = turnpost_server::games::engine(&stored)
            .unwrap()
            .legal_moves()[0]
            .clone();
        turnpost_server::games::moving::play(
            &mut conn,
            &Actor::Account(anna_id),
            id,
            &PlayMoveRequest {
                notation: mv,
                ply: u32::try_from(stored.ply).unwrap(),
                message: None,
            },
        )
        .unwrap();
        if n == 0 {
            while turnpost_server::notify::compose_next(&mut conn, &ctx).unwrap() {}
        }
    }
    drop(conn);
    let TestApp { db, .. } = app;
    (db, ids, tokens)
}

/// The outbox, by status.
fn outbox(conn: &mut turnpost_server::db::DbConnection) -> BTreeMap<String, Vec<String>> {
    let rows: Vec<OutboxMail> = turnpost_server::db::outbox::all(conn).unwrap();
    let mut by_status: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in rows {
        by_status
            .entry(row.status.to_string())
            .or_default()
            .push(bare(&row.message_id));
    }
    by_status
}

fn copy_to(db: &TestDb, target: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_turnpost-server"))
        .env("DATABASE_URL", &db.url)
        .env("TURNPOST_DATA_DIR", &db.dir)
        .env("RUST_LOG", "warn")
        .env_remove("SMTP_URL")
        .env_remove("TURNPOST_PUBLIC_URL")
        .args(["copy-to", target])
        .output()
        .unwrap()
}

#[actix_web::test]
async fn an_sqlite_installation_moves_to_postgres_and_goes_on() {
    let (sqlite, ids, tokens) = source().await;
    let before = {
        let mut conn = common::migrated(&sqlite).1;
        outbox(&mut conn)
    };
    let pending: BTreeSet<String> = before["pending"].iter().cloned().collect();
    assert!(!pending.is_empty(), "{before:?}");
    assert!(
        !before["sent"].is_empty() && !before["dead"].is_empty(),
        "{before:?}"
    );

    let target = TestDb::create(Backend::Postgres);
    let copied = copy_to(&sqlite, &target.url);
    let stdout = String::from_utf8_lossy(&copied.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&copied.stderr).into_owned();
    assert!(copied.status.success(), "{stdout}\n{stderr}");
    // Every table of the schema was copied, and the fixture had rows in every one: a table
    // added later fails here until it is copied and this test gives it rows.
    let counts: BTreeMap<String, i64> = stdout
        .lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            let table = words.next()?;
            let rows = words.next()?.parse().ok()?;
            (words.next() == Some("rows")).then(|| (table.to_owned(), rows))
        })
        .collect();
    assert_eq!(
        counts.keys().cloned().collect::<BTreeSet<_>>(),
        schema_tables(),
        "{stdout}"
    );
    // `tournament_pairings` holds a round's pairings only until their games are made, one
    // batch after another within seconds of the start: the fixture's small round has none left.
    for (table, rows) in counts.iter().filter(|(t, _)| *t != "tournament_pairings") {
        assert!(*rows > 0, "the fixture has no {table} rows: {stdout}");
    }
    assert_eq!(counts["games"], i64::try_from(ids.len()).unwrap());
    assert!(
        stdout.contains(&format!("{} games replayed", ids.len())),
        "{stdout}"
    );
    assert!(!stdout.contains(&sqlite.url) && !stderr.contains("password"));

    // A second copy into the now filled database is refused, and changes nothing.
    let again = copy_to(&sqlite, &target.url);
    let refusal = String::from_utf8_lossy(&again.stderr).into_owned();
    assert!(!again.status.success());
    assert!(refusal.contains("not empty"), "{refusal}");

    // The server on PostgreSQL: the same tokens, every game goes on, pending mail goes once.
    let smtp = SmtpSink::start();
    let mut config = target.config();
    config.smtp_url = Some(smtp.url());
    let app = TestApp::start(target, smtp, config).await;
    let all: Vec<&str> = tokens.values().map(String::as_str).collect();
    let mut went_on = 0;
    for id in &ids {
        if continue_game(&app, *id, &all).await {
            went_on += 1;
        }
    }
    // Mid-play games of each kind, the one with a departure, the bot game, the mail game, the
    // game with conditional moves, the tournament's game.
    assert_eq!(went_on, KINDS.len() + 5);
    // The unanswered challenge is accepted and played.
    let open = ids[KINDS.len() * 2 + 2];
    let accepted = post(
        &app,
        &format!("/v1/games/{open}/accept"),
        &tokens["cleo"],
        json!({}),
    )
    .await;
    assert_eq!(accepted.status, 200, "{accepted:?}");
    assert!(continue_game(&app, open, &all).await);
    // New rows continue after the copied ids.
    let fresh = post(
        &app,
        "/v1/games",
        &tokens["anna"],
        json!({"kind": "kefren", "seats": ["anna", "bert"]}),
    )
    .await;
    assert_eq!(fresh.status, 201, "{fresh:?}");
    assert!(fresh.body["id"].as_i64().unwrap() > *ids.iter().max().unwrap());

    app.game_mail_composed().await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let after = outbox(&mut app.conn());
        if !after.contains_key("pending") {
            break;
        }
        assert!(Instant::now() < deadline, "mail still pending: {after:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // One more poll interval: nothing is sent twice.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let received: Vec<String> = app.smtp.messages().iter().map(message_id).collect();
    for id in &pending {
        assert_eq!(
            received.iter().filter(|r| *r == id).count(),
            1,
            "pending mail {id} not sent exactly once"
        );
    }
    for id in before["sent"].iter().chain(&before["dead"]) {
        assert!(!received.contains(id), "{id} was sent again");
    }
    let unique: BTreeSet<&String> = received.iter().collect();
    assert_eq!(unique.len(), received.len(), "a mail was sent twice");
    let finished = games::table
        .filter(games::status.eq("finished"))
        .count()
        .get_result::<i64>(&mut *app.conn())
        .unwrap();
    assert!(finished >= i64::try_from(KINDS.len()).unwrap());
}
