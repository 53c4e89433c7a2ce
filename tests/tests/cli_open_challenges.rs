//! Open challenges and rematches through the real `turnpost` CLI against the real server:
//! `seek`, `challenges`, `join`, `leave`, `rematch`, each as text and as `--json`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_tests::{Backend, Cli, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn ids(list: &serde_json::Value) -> Vec<i64> {
    list["challenges"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["id"].as_i64().unwrap())
        .collect()
}

fn open_challenges(backend: Backend) {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    let cleo = Cli::new(server.data_dir.join("cleo"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    cleo.sign_up(&server, "cleo");

    // A seek that leaves no seat open is refused before any request (exit 2).
    let out = anna.run(&["seek", "kefren", "--with", "bob"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("turnpost new"),
        "{}",
        text(&out.stderr)
    );

    // anna posts an open Chinese Checkers challenge for three, as text.
    let out = anna.run(&[
        "seek",
        "chinese-checkers",
        "--option",
        "players=3",
        "--days-per-move",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Open challenge #"), "{said}");
    assert!(said.contains("turnpost join"), "{said}");
    let posted = anna.json(&["seek", "kefren", "--seat", "2"]);
    let kefren = posted["game"]["id"].as_i64().unwrap();
    assert_eq!(posted["game"]["seats"][0]["open"], true);
    assert_eq!(posted["game"]["seats"][1]["player"], "anna");

    // bob lists them, all or by kind.
    let all = bob.json(&["challenges"]);
    assert_eq!(all["version"], 1);
    assert_eq!(ids(&all).len(), 2, "{all}");
    let only = bob.json(&["challenges", "--kind", "kefren"]);
    assert_eq!(ids(&only), [kefren]);
    let listed = text(
        &bob.run(&["challenges", "--kind", "chinese-checkers"])
            .stdout,
    );
    assert!(listed.contains("clock 4d"), "{listed}");
    assert!(listed.contains("anna"), "{listed}");
    assert!(listed.contains("open"), "{listed}");
    let checkers = ids(&bob.json(&["challenges", "--kind", "chinese-checkers"]))[0];
    let checkers_id = checkers.to_string();

    // bob joins the three-seat one and leaves it again; cleo and bob fill it.
    let joined = bob.json(&["join", &checkers_id]);
    assert_eq!(joined["game"]["your_seat"], 2);
    assert_eq!(joined["game"]["status"], "invited");
    let left = bob.run(&["leave", &checkers_id]);
    assert!(left.status.success(), "{}", text(&left.stderr));
    let again = anna.run(&["join", &checkers_id]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains("already hold seat 1"),
        "{}",
        text(&again.stderr)
    );
    cleo.json(&["join", &checkers_id]);
    let out = bob.run(&["join", &checkers_id]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let started = bob.json(&["show", &checkers_id]);
    assert_eq!(started["game"]["status"], "active");

    // bob takes the Kefren seat: seat 1, his move; he resigns, and anna asks for a rematch.
    let kefren_id = kefren.to_string();
    let joined = bob.json(&["join", &kefren_id]);
    assert_eq!(joined["game"]["status"], "active");
    assert_eq!(joined["game"]["your_turn"], true);
    let out = bob.run(&["resign", &kefren_id, "--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = anna.run(&["rematch", &kefren_id]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Rematch of #"),
        "{}",
        text(&out.stdout)
    );
    let rematch = bob.json(&["rematch", &kefren_id]);
    // The same challenge for bob; seats rotated: anna first now.
    assert_eq!(rematch["game"]["seats"][0]["player"], "anna");
    assert_eq!(rematch["game"]["seats"][1]["player"], "bob");
    let rematch_id = rematch["game"]["id"].as_i64().unwrap().to_string();
    let accepted = bob.json(&["accept", &rematch_id]);
    assert_eq!(accepted["game"]["status"], "active");

    // Help says what each command is for.
    let help = text(&anna.run(&["seek", "--help"]).stdout);
    assert!(help.contains("open"), "{help}");
    let help = text(&anna.run(&["rematch", "--help"]).stdout);
    assert!(help.contains("rotated"), "{help}");
}

#[test]
fn open_challenges_through_the_cli_on_sqlite() {
    open_challenges(Backend::Sqlite);
}

#[test]
fn open_challenges_through_the_cli_on_postgres() {
    open_challenges(Backend::Postgres);
}
