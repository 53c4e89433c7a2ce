//! A word with your move (issue 28), end to end on SQLite and PostgreSQL with the real server,
//! the real `turnpost` CLI and `turnpost-server mail-in`: anna plays by the CLI with `-m`; bob
//! answers by one mail reply with his move, two moves ahead (`if … then … if … then …`) and a
//! message; each reads the other's messages in their turn cards, and `turnpost show` lists
//! them for anna.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use turnpost_shared::{AnyGame, GameKind, Options};
use turnpost_tests::{Backend, Cli, Mail, ServerProcess};

fn after(position: &AnyGame, mv: &str) -> AnyGame {
    position.play(mv).unwrap().0.forced_continuation().position
}

/// A mail's words, quoted-printable soft breaks joined and whitespace collapsed.
fn words(mail: &Mail) -> String {
    mail.data
        .replace("=\r\n", "")
        .replace("=\n", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first mail to `email` beyond the first `seen` that says `wanted`, waiting for it.
fn new_mail_saying(server: &ServerProcess, email: &str, seen: usize, wanted: &str) -> Mail {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mails = server.smtp.messages_to(email);
        if let Some(found) = mails.iter().skip(seen).find(|m| words(m).contains(wanted)) {
            return found.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no mail to {email} saying {wanted:?}; got:\n{}",
            mails
                .iter()
                .skip(seen)
                .map(words)
                .collect::<Vec<_>>()
                .join("\n----\n")
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A Thunderbird-shaped reply from bob to `to`: `body`, then the quoted card.
fn reply(to: &str, body: &str) -> Vec<u8> {
    format!(
        "From: Bob <bob@example.org>\r\nTo: {to}\r\nMessage-ID: <bob-reply-{}@example.org>\r\n\
         Subject: Re: Kefren\r\nDate: Thu, 26 Nov 2026 10:00:00 +0000\r\n\
         User-Agent: Mozilla Thunderbird\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=UTF-8; format=flowed\r\n\r\n\
         {body}\r\n\r\nOn 26/11/2026 09:58, turnpost wrote:\r\n> It is your move.\r\n\
         > resign\r\n",
        std::process::id()
    )
    .into_bytes()
}

fn play_with_messages(backend: Backend) {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    let game = anna.json(&["new", "kefren", "--with", "bob"]);
    let id = game["game"]["id"].as_i64().unwrap().to_string();
    bob.json(&["accept", &id]);

    let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
    let a0 = start.legal_moves()[0].clone();
    let p1 = after(&start, &a0);
    let b1 = p1.legal_moves()[0].clone();
    let p2 = after(&p1, &b1);
    let a1 = p2.legal_moves()[0].clone();
    let p3 = after(&p2, &a1);
    let b2 = p3.legal_moves()[0].clone();
    let p4 = after(&p3, &b2);
    let a2 = p4.legal_moves()[0].clone();
    let p5 = after(&p4, &a2);
    let b3 = p5.legal_moves()[0].clone();
    let p6 = after(&p5, &b3);
    let a3 = p6.legal_moves()[0].clone();

    // anna moves by the CLI with a word for bob.
    let seen_bob = server.smtp.messages_to("bob@example.org").len();
    let played = anna.json(&["move", &id, &a0, "-m", "Your turn, good luck!"]);
    assert_eq!(played["game"]["ply"], 1);
    let card = new_mail_saying(
        &server,
        "bob@example.org",
        seen_bob,
        &format!("anna played {a0}"),
    );
    assert!(
        words(&card).contains("anna wrote, with move 1: Your turn, good luck!"),
        "{}",
        words(&card)
    );

    // bob answers by one mail: his move, the next two answered ahead, and a message.
    let reply_to = card.header("Reply-To").unwrap();
    let reply_to = reply_to
        .rsplit_once('<')
        .map_or(reply_to, |(_, rest)| rest.trim_end_matches('>'))
        .to_owned();
    let body = format!("{b1}\r\nif {a1} then {b2} if {a2} then {b3}\r\nThanks, and you too.");
    let seen_anna = server.smtp.messages_to("anna@example.org").len();
    let delivered = server.mail_in(&reply(&reply_to, &body));
    assert!(
        delivered.status.success(),
        "mail-in: {}",
        String::from_utf8_lossy(&delivered.stderr)
    );
    let card = new_mail_saying(
        &server,
        "anna@example.org",
        seen_anna,
        &format!("bob played {b1}"),
    );
    assert!(
        words(&card).contains("bob wrote, with move 2: Thanks, and you too."),
        "{}",
        words(&card)
    );
    assert!(!words(&card).contains("It is your move. > resign"));
    // `turnpost show` lists it for anna, in words and in JSON.
    let shown = anna.run(&["show", &id]);
    assert!(shown.status.success());
    let shown = String::from_utf8_lossy(&shown.stdout).into_owned();
    assert!(
        shown.contains("bob (move 2): Thanks, and you too."),
        "{shown}"
    );
    let shown = anna.json(&["show", &id]);
    assert_eq!(shown["messages"][1]["text"], "Thanks, and you too.");

    // anna's next two moves bring bob's answers at once; her words wait for his next card.
    let played = anna.json(&["move", &id, &a1, "-m", "Nice."]);
    assert_eq!(played["game"]["ply"], 4, "bob's answer came at once");
    let played = anna.json(&["move", &id, &a2]);
    assert_eq!(played["game"]["ply"], 6, "bob's second answer came at once");
    let seen_bob = server.smtp.messages_to("bob@example.org").len();
    anna.json(&["move", &id, &a3, "-m", "Your move now, bob."]);
    let card = new_mail_saying(
        &server,
        "bob@example.org",
        seen_bob,
        &format!("anna played {a3}"),
    );
    let card = words(&card);
    assert!(card.contains("anna wrote, with move 3: Nice."), "{card}");
    assert!(
        card.contains("anna wrote, with move 7: Your move now, bob."),
        "{card}"
    );
    assert!(
        !card.contains("good luck"),
        "older words are not repeated: {card}"
    );

    // bob mutes anna: her next words stay out of his card, and out of his `show`.
    bob.json(&["mute", "--player", "anna"]);
    let listed = bob.json(&["mute"]);
    assert_eq!(listed["mutes"]["players"], serde_json::json!(["anna"]));
    let shown = bob.json(&["show", &id]);
    let authors: Vec<&str> = shown["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["player"].as_str().unwrap())
        .collect();
    assert_eq!(authors, ["bob"], "his own words stay, anna's go: {shown}");
    let unmuted = bob.json(&["unmute", "--player", "anna"]);
    assert_eq!(unmuted["mutes"]["players"], serde_json::json!([]));
}

#[test]
fn messages_by_cli_and_mail_on_sqlite() {
    play_with_messages(Backend::Sqlite);
}

#[test]
fn messages_by_cli_and_mail_on_postgres() {
    play_with_messages(Backend::Postgres);
}
