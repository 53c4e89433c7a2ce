//! Tournaments through the real `turnpost` CLI against the real server: `tournament new`,
//! `list`, `join`, `show` and `withdraw`, as text and as `--json`, with their refusals and
//! exit codes; and joining by a mail reply to the invitation through `turnpost-server mail-in`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::{Duration, Instant};

use turnpost_tests::{Backend, Cli, Mail, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn tournaments(backend: Backend) {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");

    // A format that does not fit the game is refused by the server (exit 1), saying why.
    let out = anna.run(&[
        "tournament",
        "new",
        "Stars",
        "kefren",
        "--format",
        "tables",
        "--table-seats",
        "3",
        "--rounds",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("chinese-checkers"),
        "{}",
        text(&out.stderr)
    );
    // An unknown format is a usage error (exit 2).
    let out = anna.run(&["tournament", "new", "X", "kefren", "--format", "knockout"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));

    // anna organises a Swiss, as text, and a round-robin, as JSON.
    let out = anna.run(&[
        "tournament",
        "new",
        "Winter cup",
        "kefren",
        "--format",
        "swiss",
        "--rounds",
        "3",
        "--entry-days",
        "2",
        "--max-players",
        "8",
        "--days-per-move",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("turnpost tournament join"), "{said}");
    let league = anna.json(&[
        "tournament",
        "new",
        "League",
        "sanqi",
        "--format",
        "round-robin",
        "--double",
    ]);
    assert_eq!(league["version"], 1);
    assert_eq!(league["tournament"]["format"], "round_robin");
    assert_eq!(league["tournament"]["double"], true);
    assert_eq!(league["tournament"]["status"], "entry");

    // bob lists them and joins the Swiss.
    let list = bob.json(&["tournament", "list"]);
    let listed = list["tournaments"].as_array().unwrap();
    assert_eq!(listed.len(), 2, "{list}");
    let cup = listed.iter().find(|t| t["name"] == "Winter cup").unwrap()["id"]
        .as_i64()
        .unwrap()
        .to_string();
    let text_list = text(&bob.run(&["tournament", "list"]).stdout);
    assert!(text_list.contains("Winter cup"), "{text_list}");
    assert!(text_list.contains("of 8"), "{text_list}");
    let joined = bob.json(&["tournament", "join", &cup]);
    assert_eq!(joined["tournament"]["you_entered"], true);
    assert_eq!(joined["tournament"]["entrants"][0]["player"], "bob");
    let again = bob.run(&["tournament", "join", &cup]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("already"),
        "{}",
        text(&again.stderr)
    );
    anna.json(&["tournament", "join", &cup]);
    let shown = text(&anna.run(&["tournament", "show", &cup]).stdout);
    assert!(shown.contains("Winter cup"), "{shown}");
    assert!(shown.contains("clock 4d"), "{shown}");
    assert!(shown.contains("Entrants: bob, anna"), "{shown}");
    assert!(shown.contains("you are in"), "{shown}");

    // bob withdraws before the start: he is no longer an entrant.
    let out = bob.json(&["tournament", "withdraw", &cup]);
    assert_eq!(out["tournament"]["you_entered"], false);
    assert_eq!(
        out["tournament"]["entrants"].as_array().unwrap().len(),
        1,
        "{out}"
    );
    // anna starts her Swiss early: refused with one entrant, then paired at once with two.
    let early = anna.run(&["tournament", "start", &cup]);
    assert!(!early.status.success());
    assert!(
        text(&early.stderr).contains("needs at least 2"),
        "{}",
        text(&early.stderr)
    );
    bob.json(&["tournament", "join", &cup]);
    let started = anna.json(&["tournament", "start", &cup]);
    assert_eq!(started["tournament"]["status"], "running", "{started}");
    assert_eq!(started["tournament"]["current_round"], 1, "{started}");
    // One round's games by number; a round not paired is refused, saying which are.
    let round = text(
        &bob.run(&["tournament", "show", &cup, "--round", "1"])
            .stdout,
    );
    assert!(round.contains("Round 1:\n  #"), "{round}");
    let unpaired = bob.run(&["tournament", "show", &cup, "--round", "2"]);
    assert_eq!(unpaired.status.code(), Some(1));
    assert!(
        text(&unpaired.stderr).contains("has no round 2: round 1 paired only"),
        "{}",
        text(&unpaired.stderr)
    );
    assert_eq!(
        bob.run(&["tournament", "show", &cup, "--round", "0"])
            .status
            .code(),
        Some(2),
        "clap refuses round 0"
    );
    let missing = bob.run(&["tournament", "show", "999"]);
    assert_eq!(missing.status.code(), Some(1));
    let none = text(
        &bob.run(&["tournament", "list", "--status", "finished"])
            .stdout,
    );
    assert!(none.contains("No tournaments finished"), "{none}");

    // anna invites bob to another; bob joins by replying `join` to the invitation, as an MTA
    // delivers it to `turnpost-server mail-in`, and is answered.
    let invited = anna.json(&[
        "tournament",
        "new",
        "Mail cup",
        "kefren",
        "--format",
        "swiss",
        "--rounds",
        "2",
        "--invite",
        "bob",
    ]);
    let mail_cup = invited["tournament"]["id"].as_i64().unwrap();
    let invitation = mail_to(&server, "bob@example.org", &format!("t{mail_cup}a"), |m| {
        m.header("Reply-To")
    });
    let address = invitation.header("Reply-To").unwrap();
    let address = address
        .rsplit_once('<')
        .map_or(address, |(_, rest)| rest.trim_end_matches('>'))
        .to_owned();
    let raw = format!(
        "From: Bob <bob@example.org>\r\nTo: {address}\r\nMessage-ID: <bob-joins-{}@example.org>\r\n\
         Subject: Re: Tournament invitation\r\nDate: Fri, 27 Nov 2026 10:00:00 +0000\r\n\
         Content-Type: text/plain; charset=UTF-8\r\n\r\nJoin\r\n\r\n\
         On 27/11/2026 09:58, turnpost wrote:\r\n> anna invites you\r\n",
        std::process::id()
    );
    let delivered = server.mail_in(raw.as_bytes());
    assert!(delivered.status.success(), "{}", text(&delivered.stderr));
    assert!(
        text(&delivered.stderr).contains(&format!("tournament {mail_cup}: done")),
        "{}",
        text(&delivered.stderr)
    );
    let shown = bob.json(&["tournament", "show", &mail_cup.to_string()]);
    assert_eq!(shown["tournament"]["you_entered"], true, "{shown}");
    mail_to(&server, "bob@example.org", "you have entered", |m| {
        Some(m.data.as_str())
    });

    // "Start when full" (issue 47): the second of at most two starts it at once; the two
    // flags exclude each other.
    let out = anna.run(&[
        "tournament",
        "new",
        "Duo",
        "kefren",
        "--format",
        "round-robin",
        "--max-players",
        "2",
        "--start-when-full",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains("as soon as the last place is taken"),
        "{said}"
    );
    let duo = text(&anna.run(&["tournament", "list"]).stdout);
    let duo = duo
        .lines()
        .find(|l| l.contains("Duo"))
        .and_then(|l| l.trim_start_matches('#').split_whitespace().next())
        .unwrap()
        .to_owned();
    let shown = text(&anna.run(&["tournament", "show", &duo]).stdout);
    assert!(shown.contains("of 2; it starts when full"), "{shown}");
    anna.json(&["tournament", "join", &duo]);
    let full = bob.json(&["tournament", "join", &duo]);
    assert_eq!(full["tournament"]["status"], "running", "{full}");
    assert_eq!(full["tournament"]["current_round"], 1, "{full}");
    let both = anna.run(&[
        "tournament",
        "new",
        "X",
        "kefren",
        "--max-players",
        "2",
        "--start-when-full",
        "--no-start-when-full",
    ]);
    assert_eq!(both.status.code(), Some(2), "{}", text(&both.stderr));

    // Help says what each command is for.
    let help = text(&anna.run(&["tournament", "--help"]).stdout);
    assert!(help.contains("withdraw"), "{help}");
    let help = text(&anna.run(&["tournament", "new", "--help"]).stdout);
    assert!(help.contains("--table-seats"), "{help}");
}

/// Waits for a mail to `email` whose `part` contains `wanted`.
fn mail_to(
    server: &ServerProcess,
    email: &str,
    wanted: &str,
    part: impl Fn(&Mail) -> Option<&str>,
) -> Mail {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let found = server.smtp.messages_to(email).into_iter().find(|m| {
            part(m).is_some_and(|p| p.replace("=\r\n", "").replace("=\n", "").contains(wanted))
        });
        if let Some(found) = found {
            return found;
        }
        assert!(
            Instant::now() < deadline,
            "no mail to {email} with {wanted:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn tournaments_through_the_cli_on_sqlite() {
    tournaments(Backend::Sqlite);
}

#[test]
fn tournaments_through_the_cli_on_postgres() {
    tournaments(Backend::Postgres);
}
