//! Three `turnpost-server` processes on one PostgreSQL database, as behind a reverse proxy,
//! all at once: clients racing on one game through all three, games against a bot (every
//! process runs a bot worker), clocks that time out and remind (every process sweeps), a game
//! played by mail replies that every process reads from one IMAP mailbox (each reply delivered
//! twice, as a retrying MTA would), and one SMTP relay that every process delivers to. Every
//! guarantee holds across processes: one move per ply, each bot move computed and played once,
//! each timeout and reminder once, each reply acted on once, each mail delivered once.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;
mod dovecot;
#[path = "common/play.rs"]
mod play;
#[path = "common/process.rs"]
mod process;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration as StdDuration, Instant};

use chrono::Duration;
use common::{Backend, SmtpSink, TestDb};
use diesel::prelude::*;
use dovecot::Dovecot;
use process::ServerProcess;
use serde_json::{json, Value};
use turnpost_server::clocks::ClockNotices;
use turnpost_server::db::schema::{bot_claims, games, inbound_mail, mail_outbox, moves};
use turnpost_server::db::{self, Pool};
use turnpost_shared::GameRecord;

/// Server processes.
const PROCESSES: usize = 3;
/// Clients racing on the one game.
const CLIENTS: usize = 24;
/// Plies the race plays.
const RACE_PLIES: u64 = 16;
/// Games of each clock kind, and against the bot.
const GAMES: usize = 4;
/// Plies the game by mail plays.
const MAIL_PLIES: u64 = 6;

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(StdDuration::from_secs(60))
        .build()
        .unwrap()
}

async fn send(base: &str, path: &str, token: &str, body: Option<Value>) -> (u16, Value) {
    let http = client();
    let request = match &body {
        Some(b) => http.post(format!("{base}{path}")).json(b),
        None => http.get(format!("{base}{path}")),
    };
    let answer = request.bearer_auth(token).send().await.unwrap();
    let status = answer.status().as_u16();
    let text = answer.text().await.unwrap();
    assert!(status < 500, "{status} from {path}: {text}");
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// A started game of `kind` from `tokens[0]`'s player against `names[1]`, made on `base`.
async fn start_game(base: &str, names: [&str; 2], tokens: &[&str], extra: Value) -> i64 {
    let mut body = json!({"kind": "kefren", "seats": names});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let (status, view) = send(base, "/v1/games", tokens[0], Some(body)).await;
    assert_eq!(status, 201, "{view}");
    let id = view["id"].as_i64().unwrap();
    for token in &tokens[1..] {
        let (status, view) = send(
            base,
            &format!("/v1/games/{id}/accept"),
            token,
            Some(json!({})),
        )
        .await;
        assert_eq!(status, 200, "{view}");
    }
    id
}

/// `CLIENTS` clients spread over every process and both seats submit a legal move as soon as
/// they see their turn, until `RACE_PLIES` are played; the answers by status.
async fn race(bases: &[String], tokens: &[String; 2], id: i64) -> BTreeMap<u16, usize> {
    let mut tasks = Vec::new();
    for i in 0..CLIENTS {
        let base = bases[i % bases.len()].clone();
        let token = tokens[i % 2].clone();
        tasks.push(actix_web::rt::spawn(async move {
            let mut statuses = Vec::new();
            let deadline = Instant::now() + StdDuration::from_secs(120);
            loop {
                assert!(Instant::now() < deadline, "the race did not finish");
                let (_, view) = send(&base, &format!("/v1/games/{id}"), &token, None).await;
                let ply = view["ply"].as_u64().unwrap();
                if view["status"] != "active" || ply >= RACE_PLIES {
                    break;
                }
                let Some(legal) = view["legal_moves"].as_array() else {
                    actix_web::rt::time::sleep(StdDuration::from_millis(2)).await;
                    continue;
                };
                let mv = legal[(i / 2 + ply as usize) % legal.len()].clone();
                let (status, body) = send(
                    &base,
                    &format!("/v1/games/{id}/moves"),
                    &token,
                    Some(json!({"move": mv, "ply": ply})),
                )
                .await;
                assert!(matches!(status, 201 | 409 | 403), "{status}: {body}");
                statuses.push(status);
            }
            statuses
        }));
    }
    let mut counts = BTreeMap::new();
    for task in tasks {
        for status in task.await.unwrap() {
            *counts.entry(status).or_insert(0) += 1;
        }
    }
    counts
}

/// Plays `person`'s turns in a game against the bot through `base` until the bot has moved
/// `bot_moves` times or the game is over.
async fn play_against_bot(base: String, id: i64, token: String, bot_moves: u64) {
    let deadline = Instant::now() + StdDuration::from_secs(90);
    loop {
        assert!(Instant::now() < deadline, "the bot game {id} stalled");
        let (_, view) = send(&base, &format!("/v1/games/{id}"), &token, None).await;
        if view["status"] != "active" || view["ply"].as_u64().unwrap() >= 2 * bot_moves {
            return;
        }
        if view["your_turn"] != true {
            actix_web::rt::time::sleep(StdDuration::from_millis(20)).await;
            continue;
        }
        let mv = view["legal_moves"][0].clone();
        let (status, body) = send(
            &base,
            &format!("/v1/games/{id}/moves"),
            &token,
            Some(json!({"move": mv, "ply": view["ply"]})),
        )
        .await;
        assert_eq!(status, 201, "{body}");
    }
}

fn conn(pool: &Pool) -> db::PooledConn {
    pool.get().unwrap()
}

/// Every game's moves are plies 0..ply without a gap or a double, and its record replays to
/// its position.
async fn check_game(pool: &Pool, base: &str, token: &str, id: i64) {
    let plies: Vec<i32> = moves::table
        .filter(moves::game_id.eq(id))
        .select(moves::ply)
        .order(moves::ply)
        .load(&mut **conn(pool))
        .unwrap();
    let (_, view) = send(base, &format!("/v1/games/{id}"), token, None).await;
    let expected: Vec<i32> = (0..i32::try_from(view["ply"].as_u64().unwrap()).unwrap()).collect();
    assert_eq!(plies, expected, "game {id}");
    let record = client()
        .get(format!("{base}/v1/games/{id}/record"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let record = GameRecord::parse(&record).unwrap();
    assert_eq!(
        record.replay().unwrap().position_text(),
        view["position"].as_str().unwrap(),
        "game {id}"
    );
}

fn mails_to(pool: &Pool, name: &str) -> usize {
    let count: i64 = mail_outbox::table
        .filter(mail_outbox::recipient.eq(format!("{name}@example.org")))
        .count()
        .get_result(&mut **conn(pool))
        .unwrap();
    usize::try_from(count).unwrap()
}

fn timed_out(pool: &Pool, ids: &[i64]) -> usize {
    let count: i64 = games::table
        .filter(games::id.eq_any(ids))
        .filter(games::status.eq("finished"))
        .filter(games::result_reason.eq("timeout"))
        .count()
        .get_result(&mut **conn(pool))
        .unwrap();
    usize::try_from(count).unwrap()
}

/// Waits until every game event has its mail and every mail is delivered.
async fn mail_settled(pool: &Pool) {
    let deadline = Instant::now() + StdDuration::from_secs(60);
    loop {
        let waiting = db::events::waiting(&mut conn(pool)).unwrap();
        let pending: i64 = mail_outbox::table
            .filter(mail_outbox::status.ne("sent"))
            .count()
            .get_result(&mut **conn(pool))
            .unwrap();
        if waiting == 0 && pending == 0 {
            return;
        }
        if Instant::now() >= deadline {
            let stuck: Vec<(String, String, i32, chrono::NaiveDateTime, Option<String>)> =
                mail_outbox::table
                    .filter(mail_outbox::status.ne("sent"))
                    .select((
                        mail_outbox::status,
                        mail_outbox::recipient,
                        mail_outbox::attempts,
                        mail_outbox::next_attempt_at,
                        mail_outbox::claimed_by,
                    ))
                    .load(&mut **conn(pool))
                    .unwrap();
            panic!(
                "{waiting} events and {pending} mails still waiting at {}: {stuck:?}",
                db::now()
            );
        }
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
}

/// The turn card for `name` (seat `seat`) at `ply` of game `id`: its Reply-To address.
async fn card_address(smtp: &SmtpSink, name: &str, id: i64, seat: u64, ply: u64) -> String {
    let wanted = format!("g{id}s{seat}p{ply}@");
    let deadline = Instant::now() + StdDuration::from_secs(60);
    loop {
        let found = smtp
            .messages_to(&format!("{name}@example.org"))
            .iter()
            .filter_map(|m| m.header("Reply-To"))
            .find(|r| r.contains(&wanted));
        if let Some(header) = found {
            return header
                .rsplit_once('<')
                .map_or(header.as_str(), |(_, rest)| rest.trim_end_matches('>'))
                .to_owned();
        }
        assert!(
            Instant::now() < deadline,
            "no turn card for {name} at ply {ply} of game {id}"
        );
        tokio::time::sleep(StdDuration::from_millis(20)).await;
    }
}

/// The two players of game `id` play `MAIL_PLIES` plies by replying to their turn cards; the
/// replies go to the mailbox every process watches, each one twice (same Message-ID), as an MTA
/// that retried would deliver it. Answers the number of replies sent (each counted once).
async fn play_by_mail(smtp: &SmtpSink, dovecot: &Dovecot, base: &str, token: &str, id: i64) -> u64 {
    for ply in 0..MAIL_PLIES {
        let (seat, name) = if ply % 2 == 0 { (1, "ma") } else { (2, "mb") };
        let address = card_address(smtp, name, id, seat, ply).await;
        let (_, view) = send(base, &format!("/v1/games/{id}"), token, None).await;
        assert_eq!(view["ply"].as_u64(), Some(ply), "{view}");
        let record = client()
            .get(format!("{base}/v1/games/{id}/record"))
            .bearer_auth(token)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let game = GameRecord::parse(&record).unwrap().replay().unwrap();
        let mv = game.legal_moves()[0].clone();
        let raw = format!(
            "From: {name}@example.org\r\nTo: {address}\r\nMessage-ID: <mail-{id}-{ply}@client.example>\r\n\
             Subject: Re: your turn\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
             {mv}\r\n"
        );
        dovecot.append("INBOX", raw.as_bytes());
        dovecot.append("INBOX", raw.as_bytes());
        // The move is played once whichever process reads which copy.
        let deadline = Instant::now() + StdDuration::from_secs(60);
        loop {
            let (_, view) = send(base, &format!("/v1/games/{id}"), token, None).await;
            if view["ply"].as_u64() > Some(ply) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the reply at ply {ply} was not played:\n{}",
                dovecot.log()
            );
            tokio::time::sleep(StdDuration::from_millis(20)).await;
        }
    }
    MAIL_PLIES
}

#[actix_web::test]
async fn three_processes_keep_every_guarantee() {
    let db = TestDb::create(Backend::Postgres);
    let smtp = SmtpSink::start();
    let smtp_url = smtp.url();
    let dovecot = Dovecot::start();
    let imap_url = dovecot.url("INBOX");
    let env = [
        ("SMTP_URL", smtp_url.as_str()),
        // Every process watches the one mailbox and moves what it handled to Done.
        ("TURNPOST_IMAP_URL", imap_url.as_str()),
        ("TURNPOST_IMAP_POLL_MS", "100"),
        ("TURNPOST_IMAP_DONE_FOLDER", "Done"),
        ("TURNPOST_SWEEP_INTERVAL_MS", "10"),
        ("TURNPOST_BOT_POLL_MS", "10"),
        ("TURNPOST_OUTBOX_POLL_MS", "50"),
        // One SMTP session each: the reused connections fit the sink's eight threads (a
        // connection waiting for a thread would hold its mail's claim, and every later mail
        // to that recipient, until it times out).
        ("TURNPOST_OUTBOX_SESSIONS", "1"),
        ("TURNPOST_OUTBOX_RETRY_BASE_MS", "200"),
        ("TURNPOST_RATE_LIMIT_PER_CLIENT", "100000"),
        ("TURNPOST_CHALLENGES_PER_HOUR", "10000"),
        ("TURNPOST_CHALLENGES_RECEIVED_PER_HOUR", "10000"),
    ];
    // One at a time: the first migrates the database, the others find it migrated.
    let servers: Vec<ServerProcess> = (0..PROCESSES)
        .map(|_| ServerProcess::start(&db, &env))
        .collect();
    let bases: Vec<String> = servers.iter().map(|s| s.base.clone()).collect();
    let pool = db.pool();
    let tokens: BTreeMap<&str, String> = ["anna", "bert", "ta", "tb", "ra", "rb", "ma", "mb"]
        .into_iter()
        .map(|name| (name, play::player(&pool, name)))
        .collect();
    let t = |name: &str| tokens[name].as_str();

    // Clocks: games that time out and games due a reminder, found by whichever process
    // sweeps first.
    let mut timeouts = Vec::new();
    let mut reminders = Vec::new();
    for g in 0..GAMES {
        let base = &bases[g % PROCESSES];
        let auto = json!({"timeout": "auto"});
        timeouts.push(start_game(base, ["ta", "tb"], &[t("ta"), t("tb")], auto.clone()).await);
        reminders.push(start_game(base, ["ra", "rb"], &[t("ra"), t("rb")], auto).await);
    }
    // Every clock game's start mail is delivered before anything else happens, so the counts
    // below hold only what the sweeps send.
    mail_settled(&pool).await;
    let before: Vec<usize> = ["ta", "tb", "ra", "rb"]
        .iter()
        .map(|n| mails_to(&pool, n))
        .collect();
    // Games against the bot, each made on another process; the person plays through yet
    // another, while every process's bot worker looks for the bot's turns.
    let mut bot_games = Vec::new();
    for g in 0..GAMES {
        bot_games.push(
            start_game(
                &bases[g % PROCESSES],
                ["anna", "bot-1"],
                &[t("anna")],
                json!({}),
            )
            .await,
        );
    }
    let mut playing = Vec::new();
    for (g, id) in bot_games.iter().enumerate() {
        playing.push(actix_web::rt::spawn(play_against_bot(
            bases[(g + 1) % PROCESSES].clone(),
            *id,
            tokens["anna"].clone(),
            4,
        )));
    }
    // The race, while the bot games go on; then the clocks are moved under the sweepers.
    let raced = start_game(
        &bases[0],
        ["anna", "bert"],
        &[t("anna"), t("bert")],
        json!({}),
    )
    .await;
    let race_tokens = [tokens["anna"].clone(), tokens["bert"].clone()];
    let racing = actix_web::rt::spawn({
        let bases = bases.clone();
        async move { race(&bases, &race_tokens, raced).await }
    });
    // A game by mail meanwhile: its players only reply to their cards.
    let by_mail = start_game(&bases[1], ["ma", "mb"], &[t("ma"), t("mb")], json!({})).await;
    let mail_replies = play_by_mail(&smtp, &dovecot, &bases[2], t("ma"), by_mail).await;

    let now = db::now();
    diesel::update(games::table.filter(games::id.eq_any(&timeouts)))
        .set(games::deadline_at.eq(Some(now - Duration::minutes(5))))
        .execute(&mut **conn(&pool))
        .unwrap();
    diesel::update(games::table.filter(games::id.eq_any(&reminders)))
        .set((
            games::deadline_at.eq(Some(now + Duration::minutes(90))),
            games::clock_notices.eq(ClockNotices::REMINDED_24H),
        ))
        .execute(&mut **conn(&pool))
        .unwrap();

    let counts = racing.await.unwrap();
    eprintln!("{PROCESSES} processes: race statuses {counts:?}");
    assert!(
        counts.get(&409).copied().unwrap_or(0) > 0,
        "the clients raced: {counts:?}"
    );
    for game in playing {
        game.await.unwrap();
    }
    let deadline = Instant::now() + StdDuration::from_secs(60);
    while timed_out(&pool, &timeouts) < GAMES || mails_to(&pool, "ra") < before[2] + GAMES {
        assert!(Instant::now() < deadline, "the sweeps did not finish");
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    mail_settled(&pool).await;
    // Every process goes on sweeping, polling for bot turns and for mail: nothing more comes.
    tokio::time::sleep(StdDuration::from_millis(500)).await;
    mail_settled(&pool).await;

    // One move per ply, in the raced game, the game by mail and every bot game.
    check_game(&pool, &bases[1], t("anna"), raced).await;
    check_game(&pool, &bases[0], t("ma"), by_mail).await;
    let (_, view) = send(&bases[0], &format!("/v1/games/{by_mail}"), t("ma"), None).await;
    assert_eq!(view["ply"].as_u64(), Some(MAIL_PLIES), "{view}");
    // Each reply was recorded once (the second copy is known by its Message-ID), and every
    // copy left the inbox.
    let handled: i64 = inbound_mail::table
        .count()
        .get_result(&mut **conn(&pool))
        .unwrap();
    assert_eq!(handled, i64::try_from(mail_replies).unwrap());
    let deadline = Instant::now() + StdDuration::from_secs(30);
    while dovecot.count("INBOX") > 0 {
        assert!(Instant::now() < deadline, "replies left in INBOX");
        tokio::time::sleep(StdDuration::from_millis(50)).await;
    }
    for id in &bot_games {
        check_game(&pool, &bases[2], t("anna"), *id).await;
        // Each bot move went through exactly one claim at its ply.
        let bot_plies: Vec<i32> = moves::table
            .filter(moves::game_id.eq(id))
            .filter(moves::seat.eq(2))
            .filter(moves::account_id.is_not_null())
            .select(moves::ply)
            .order(moves::ply)
            .load(&mut **conn(&pool))
            .unwrap();
        let claimed: Vec<i32> = bot_claims::table
            .filter(bot_claims::game_id.eq(id))
            .select(bot_claims::ply)
            .order(bot_claims::ply)
            .load(&mut **conn(&pool))
            .unwrap();
        assert!(!bot_plies.is_empty(), "the bot never moved in game {id}");
        assert_eq!(claimed, bot_plies, "game {id}");
    }
    // Each reply had one answer (the confirmation of its move), whichever copies were read.
    let answers: Vec<i32> = inbound_mail::table
        .select(inbound_mail::answers)
        .load(&mut **conn(&pool))
        .unwrap();
    assert!(answers.iter().all(|a| *a == 1), "{answers:?}");
    // Each timeout ended its game once and told both players once; each reminder went once,
    // to the player to move only.
    let after: Vec<usize> = ["ta", "tb", "ra", "rb"]
        .iter()
        .map(|n| mails_to(&pool, n))
        .collect();
    let new: Vec<usize> = after.iter().zip(&before).map(|(a, b)| a - b).collect();
    assert_eq!(new, [GAMES, GAMES, GAMES, 0], "{new:?}");
    // Each queued mail reached the relay exactly once.
    let queued: Vec<String> = mail_outbox::table
        .select(mail_outbox::message_id)
        .load(&mut **conn(&pool))
        .unwrap();
    let queued: BTreeSet<String> = queued
        .iter()
        .map(|id| id.trim_matches(|c| c == '<' || c == '>').to_owned())
        .collect();
    let received: Vec<String> = smtp
        .messages()
        .iter()
        .map(|m| {
            m.header("Message-ID")
                .unwrap()
                .trim_matches(|c| c == '<' || c == '>')
                .to_owned()
        })
        .collect();
    let distinct: BTreeSet<String> = received.iter().cloned().collect();
    assert_eq!(distinct.len(), received.len(), "a mail was delivered twice");
    assert_eq!(distinct, queued);
    drop(servers);
}
