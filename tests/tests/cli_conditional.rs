//! Conditional moves through the real `turnpost` CLI against the real server, on SQLite and
//! PostgreSQL: `turnpost if` adds lines, lists and clears them; the opponent's move brings the
//! answer at once, which `history` and `show` mark as prepared; an illegal line is refused with
//! the engine's reason.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::{AnyGame, GameKind, Options};
use turnpost_tests::{Backend, Cli, ServerProcess};

fn after(position: &AnyGame, mv: &str) -> AnyGame {
    position.play(mv).unwrap().0.forced_continuation().position
}

fn conditional_moves(backend: Backend) {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");
    let game = anna.json(&["new", "kefren", "--with", "bob"]);
    let id = game["game"]["id"].as_i64().unwrap().to_string();
    bob.json(&["accept", &id]);

    let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
    let first = start.legal_moves()[0].clone();
    // Before her move it is anna's turn: lines answer the opponent's move.
    let early = anna.run(&["if", &id, "F2-F3 F3-F4"]);
    assert_eq!(early.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&early.stderr).contains("your turn"));
    anna.json(&["move", &id, &first]);
    let p1 = after(&start, &first);
    let b1 = p1.legal_moves()[0].clone();
    let p2 = after(&p1, &b1);
    let a1 = p2.legal_moves()[0].clone();
    let p3 = after(&p2, &a1);
    let b2 = p3.legal_moves()[0].clone();
    let a2 = after(&p3, &b2).legal_moves()[0].clone();

    let line = format!("{b1} {a1} {b2} {a2}");
    let set = anna.json(&["if", &id, &line]);
    assert_eq!(
        set["conditional"]["lines"],
        serde_json::json!([[b1, a1, b2, a2]])
    );
    let listed = anna.run(&["if", &id, "--list"]);
    assert!(listed.status.success());
    let listed = String::from_utf8_lossy(&listed.stdout).into_owned();
    assert!(
        listed.contains(&format!("{b1}  {a1}  {b2}  {a2}")),
        "{listed}"
    );
    // bob sees none of it.
    let theirs = bob.json(&["if", &id, "--list"]);
    assert_eq!(theirs["conditional"]["lines"], serde_json::json!([]));

    // An illegal move in a line: the engine's reason, nothing changed.
    let reason = p2.play("A1-A9").unwrap_err().to_string();
    let refused = anna.run(&["if", &id, &format!("{b1} A1-A9")]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr).into_owned();
    assert!(said.contains("line 2, move 2 (`A1-A9`)"), "{said}");
    assert!(said.contains(&reason), "{said}");

    let played = bob.json(&["move", &id, &b1]);
    assert_eq!(played["game"]["ply"], 3, "the answer came at once");
    // The answer is marked as prepared: in `history` and `show`, and in their JSON.
    let history = bob.run(&["history", &id]);
    assert!(history.status.success());
    let history = String::from_utf8_lossy(&history.stdout).into_owned();
    let marked: Vec<&str> = history
        .lines()
        .filter(|line| line.ends_with("(prepared answer)"))
        .collect();
    assert!(
        marked.len() == 1 && marked[0].starts_with("move   3") && marked[0].contains(&a1),
        "{history}"
    );
    let listed = bob.json(&["history", &id]);
    assert_eq!(listed["moves"][2]["prepared"], true, "{listed}");
    assert_eq!(listed["moves"][1]["prepared"], false, "{listed}");
    let shown = bob.run(&["show", &id]);
    let shown = String::from_utf8_lossy(&shown.stdout).into_owned();
    assert!(
        shown.contains(&format!("last move: {a1} (move 3, anna, prepared answer)")),
        "{shown}"
    );
    let shown = anna.json(&["show", &id]);
    assert_eq!(shown["game"]["your_turn"], false);
    let kept = anna.json(&["if", &id, "--list"]);
    assert_eq!(kept["conditional"]["lines"], serde_json::json!([[b2, a2]]));
    let cleared = anna.json(&["if", &id, "--clear"]);
    assert_eq!(cleared["conditional"]["lines"], serde_json::json!([]));
    let played = bob.json(&["move", &id, &b2]);
    assert_eq!(played["game"]["ply"], 4, "cleared: no answer");
}

#[test]
fn conditional_moves_through_the_cli_on_sqlite() {
    conditional_moves(Backend::Sqlite);
}

#[test]
fn conditional_moves_through_the_cli_on_postgres() {
    conditional_moves(Backend::Postgres);
}
