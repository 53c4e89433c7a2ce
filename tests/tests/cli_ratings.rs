//! Ratings through the real `turnpost` CLI against the real server (issue 27): the expected
//! change shown before a rated game, `ratings` (yours, a player's, a leaderboard; text and
//! `--json`), `new --unrated`, and `turnpost-server ratings rebuild [--check]`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use turnpost_tests::{binary, Backend, Cli, ServerProcess};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The player holding `cli` plays the first legal move of game `id`.
fn play_first(cli: &Cli, id: &str) {
    let game = cli.json(&["show", id]);
    let mv = game["game"]["legal_moves"][0].as_str().unwrap().to_owned();
    let out = cli.run(&["move", id, &mv]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn ratings(backend: Backend) -> ServerProcess {
    let server = ServerProcess::start_on(backend, &[]);
    let anna = Cli::new(server.data_dir.join("anna"));
    let bob = Cli::new(server.data_dir.join("bob"));
    anna.sign_up(&server, "anna");
    bob.sign_up(&server, "bob");

    let made = anna.json(&["new", "kefren", "--with", "bob"]);
    assert_eq!(made["game"]["rated"], true);
    let id = made["game"]["id"].as_i64().unwrap().to_string();
    // Before it starts, bob sees what each result would do to his rating.
    let shown = text(&bob.run(&["show", &id]).stdout);
    assert!(
        shown.contains("rated · anna 1500?, bob 1500? · for you: win +162, draw +0, loss -162"),
        "{shown}"
    );
    let out = bob.run(&["accept", &id]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    play_first(&anna, &id);
    play_first(&bob, &id);
    let out = anna.run(&["resign", &id, "--yes"]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    // bob's own ratings, as text and JSON; anna's through --player.
    let mine = bob.run(&["ratings"]);
    assert!(mine.status.success(), "{}", text(&mine.stderr));
    let said = text(&mine.stdout);
    assert!(
        said.contains("Ratings of bob") && said.contains("kefren"),
        "{said}"
    );
    assert!(
        said.contains("1662?") && said.contains("1 rated game"),
        "{said}"
    );
    let hers = bob.json(&["ratings", "--player", "anna"]);
    assert_eq!(hers["version"], 1);
    assert_eq!(hers["player"]["ratings"][0]["rating"], 1338);
    assert_eq!(hers["player"]["ratings"][0]["provisional"], true);
    // The leaderboard: bob first.
    let board = text(&anna.run(&["ratings", "kefren"]).stdout);
    let bob_line = board.lines().position(|l| l.contains("bob")).unwrap();
    let anna_line = board.lines().position(|l| l.contains("anna")).unwrap();
    assert!(bob_line < anna_line, "{board}");
    let board = anna.json(&["ratings", "kefren"]);
    assert_eq!(board["leaderboard"]["players"][0]["player"], "bob");
    assert_eq!(board["leaderboard"]["total"], 2);
    // Pages of 50: the second is past the last; --page needs a kind.
    let past = anna.run(&["ratings", "kefren", "--page", "2"]);
    assert!(past.status.success(), "{}", text(&past.stderr));
    assert_eq!(
        text(&past.stdout),
        "Page 2 is past the last: kefren has 2 players ranked on 1 page.\n"
    );
    let past = anna.json(&["ratings", "kefren", "--page", "2"]);
    assert_eq!(past["leaderboard"]["offset"], 50, "{past}");
    assert_eq!(
        past["leaderboard"]["players"],
        serde_json::json!([]),
        "{past}"
    );
    let usage = anna.run(&["ratings", "--page", "2"]);
    assert_eq!(usage.status.code(), Some(2), "{}", text(&usage.stderr));
    // Ratings beside the names of a finished game.
    let shown = text(&anna.run(&["show", &id]).stdout);
    assert!(shown.contains("rated · anna 1338?, bob 1662?"), "{shown}");
    // An unknown kind is refused by the server (exit 1) with the kinds there are.
    let out = anna.run(&["ratings", "chess"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("chinese-checkers-multi"),
        "{}",
        text(&out.stderr)
    );
    // An unrated challenge on request.
    let unrated = anna.json(&["new", "kefren", "--with", "bob", "--unrated"]);
    assert_eq!(unrated["game"]["rated"], false);
    let out = anna.run(&["new", "kefren", "--with", "bob", "--rated", "--unrated"]);
    assert_eq!(out.status.code(), Some(2));
    let help = text(&anna.run(&["ratings", "--help"]).stdout);
    assert!(
        help.contains("provisional") && help.contains("leaderboard"),
        "{help}"
    );
    server
}

#[test]
fn ratings_through_the_cli_on_postgres() {
    ratings(Backend::Postgres);
}

#[test]
fn ratings_through_the_cli_on_sqlite_and_the_rebuild_command() {
    let server = ratings(Backend::Sqlite);
    let rebuild = |args: &[&str]| {
        Command::new(binary("turnpost-server", "turnpost-server"))
            .args(args)
            .env("TURNPOST_DATA_DIR", &server.data_dir)
            .env_remove("DATABASE_URL")
            .env("RUST_LOG", "warn")
            .output()
            .unwrap()
    };
    let out = rebuild(&["ratings", "rebuild", "--check"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .contains("2 rating rows recomputed from 1 rated game; 2 stored; all match"),
        "{}",
        text(&out.stdout)
    );
    server.execute_sql("UPDATE rating_history SET rating_after = 1700 WHERE rating_after > 1600");
    let out = rebuild(&["ratings", "rebuild", "--check"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("1700.00"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        text(&out.stderr).contains("recomputed from the games in 1 row"),
        "{}",
        text(&out.stderr)
    );
    let out = rebuild(&["ratings", "rebuild"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = rebuild(&["ratings", "rebuild", "--check"]);
    assert!(out.status.success(), "{}", text(&out.stdout));
}
