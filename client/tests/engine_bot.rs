//! `turnpost engine bot`, `engine match` and `engine play` (issue 16), run as the real binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use assert_cmd::Command;
use common::{stderr, stdout, turnpost};

const FINISHED_KEFREN: &str = "kefren b8/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bb7/9 w";

#[test]
fn bot_prints_a_legal_move_the_same_for_the_same_seed() {
    let args = [
        "engine", "bot", "kefren", "--level", "1", "--seed", "5", "--moves", "F2-F3",
    ];
    let first = stdout(&turnpost(&args).success());
    let again = stdout(&turnpost(&args).success());
    assert_eq!(first, again);
    let legal = stdout(&turnpost(&["engine", "moves", "kefren", "--moves", "F2-F3"]).success());
    assert!(
        legal.lines().any(|line| format!("{line}\n") == first),
        "{first} not in {legal}"
    );
}

#[test]
fn bot_handles_many_seats_and_json() {
    let run = turnpost(&[
        "--json",
        "engine",
        "bot",
        "chinese-checkers",
        "--option",
        "players=6",
        "--level",
        "1",
    ])
    .success();
    let document: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(document["version"], 1);
    let mv = document["move"].as_str().unwrap();
    let legal = stdout(
        &turnpost(&[
            "engine",
            "moves",
            "chinese-checkers",
            "--option",
            "players=6",
        ])
        .success(),
    );
    assert!(legal.lines().any(|line| line == mv), "{mv}");
}

#[test]
fn bot_on_a_finished_game_exits_1_and_bad_levels_exit_2() {
    let run = turnpost(&["engine", "bot", "kefren", "--position", FINISHED_KEFREN]).code(1);
    assert!(
        stderr(&run).contains("the game is over"),
        "{}",
        stderr(&run)
    );
    let run = turnpost(&["engine", "bot", "kefren", "--level", "6"]).code(2);
    assert!(stderr(&run).contains("1 to 5"), "{}", stderr(&run));
}

#[test]
fn match_json_counts_every_game() {
    let run = turnpost(&[
        "--json",
        "engine",
        "match",
        "sanqi",
        "--players",
        "bot-1,random",
        "--games",
        "4",
    ])
    .success();
    let document: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(document["version"], 1);
    let result = &document["match"];
    assert_eq!(result["players"], serde_json::json!(["bot-1", "random"]));
    assert_eq!(result["games"], 4);
    let wins: Vec<u64> = result["wins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|wins| wins.as_u64().unwrap())
        .collect();
    assert_eq!(wins.len(), 2);
    assert_eq!(
        wins.iter().sum::<u64>() + result["draws"].as_u64().unwrap(),
        4
    );
    assert!(wins[0] >= 3, "bot-1 should beat random: {wins:?}");
    assert!(result["plies_mean"].as_f64().unwrap() > 0.0);
    // No progress bar when stderr is not a terminal.
    assert_eq!(stderr(&run), "");
    // Same seed, same games.
    let again = stdout(
        &turnpost(&[
            "--json",
            "engine",
            "match",
            "sanqi",
            "--players",
            "bot-1,random",
            "--games",
            "4",
        ])
        .success(),
    );
    assert_eq!(stdout(&run), again);
}

#[test]
fn match_prints_a_table_and_checks_the_players() {
    let run = turnpost(&[
        "engine",
        "match",
        "chinese-checkers",
        "--option",
        "players=3",
        "--players",
        "bot-1,random,random",
        "--games",
        "1",
    ])
    .success();
    let out = stdout(&run);
    assert!(out.contains("Chinese Checkers: 1 games"), "{out}");
    assert!(out.contains("draws: "), "{out}");
    assert!(out.contains("mean plies: "), "{out}");
    let run = turnpost(&[
        "engine",
        "match",
        "kefren",
        "--players",
        "bot-1",
        "--games",
        "1",
    ])
    .code(2);
    assert!(stderr(&run).contains("2 seats"), "{}", stderr(&run));
    let run = turnpost(&[
        "engine",
        "match",
        "kefren",
        "--players",
        "bot-9,random",
        "--games",
        "1",
    ])
    .code(2);
    assert!(
        stderr(&run).contains("bot-1 … bot-5 or random"),
        "{}",
        stderr(&run)
    );
}

/// Runs `turnpost engine play` with `input` as its standard input.
fn play(args: &[&str], input: &str) -> (String, String) {
    let output = Command::cargo_bin("turnpost")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["engine", "play"])
        .args(args)
        .write_stdin(input)
        .assert()
        .success();
    (stdout(&output), stderr(&output))
}

#[test]
fn play_takes_moves_hints_undo_and_resign_from_standard_input() {
    let (out, err) = play(
        &["sanqi", "--level", "1", "--seed", "3"],
        "help\nhint\nR@d9\nR@d4\nundo\nB@a1\nQ@a1\nmoves\nresign\n",
    );
    assert!(out.contains("you play First (seat 1)"), "{out}");
    assert!(out.contains("hint    the move the bot would play"), "{out}");
    assert!(out.contains("Hint: "), "{out}");
    // A bot reply after each of the human's moves, then the board again.
    assert_eq!(out.matches("Second (seat 2) plays ").count(), 2, "{out}");
    // Syntax errors get the caret of `turnpost move`; illegal moves name the rule.
    assert!(err.contains("R@d9"), "{err}");
    assert!(err.contains("Q@a1\n   ^") || err.contains('^'), "{err}");
    assert!(
        out.contains("First (seat 1) resigns. The bot won."),
        "{out}"
    );
    // `moves` lists the legal moves of the position after B@a1 and the bot's reply.
    assert!(out.contains("R@d4"), "{out}");
}

#[test]
fn play_lets_the_bot_open_and_quits_at_end_of_input() {
    let (out, _) = play(&["kefren", "--level", "1", "--seat", "2"], "undo\n");
    assert!(out.contains("Black (seat 1) plays "), "{out}");
    assert!(out.contains("Nothing to undo"), "{out}");
    assert!(out.trim_end().ends_with("Bye."), "{out}");
    // Three seats: the bots play seats 1 and 3 around the human's seat 2.
    let (out, _) = play(
        &[
            "chinese-checkers",
            "--option",
            "players=3",
            "--seat",
            "2",
            "--level",
            "1",
        ],
        "E4-E5\nresign\n",
    );
    assert_eq!(out.matches("seat 1 (pegs 1) plays ").count(), 2, "{out}");
    assert!(out.contains("your move> E4-E5"), "{out}");
    // Whose move it is is said once, above the prompt.
    assert!(out.contains("seat 2 (pegs 3) to move\n"), "{out}");
    assert!(!out.contains("to move> "), "{out}");
    assert!(out.contains("seat 2 (pegs 3) resigns. Game over."), "{out}");
    // After the human's move the seat-3 bot and the seat-1 bot reply before the next prompt.
    assert_eq!(out.matches("seat 3 (pegs 5) plays ").count(), 1, "{out}");
}

#[test]
fn play_refuses_a_seat_the_game_does_not_have() {
    let run = turnpost(&["engine", "play", "kefren", "--seat", "3"]).code(2);
    assert!(stderr(&run).contains("seats 1 to 2"), "{}", stderr(&run));
}

/// Black to move captures White's last stone (D9:E9 or D8:E9), after which White cannot move.
const KEFREN_LAST_CAPTURE: &str = "kefren 9/9/9/9/9/9/9/9/9/9/3bw4/3b5/9/9/9/9/9/9/9 b";

#[test]
fn play_whole_games_to_the_end_from_a_position() {
    let (out, err) = play(
        &["kefren", "--level", "1", "--position", KEFREN_LAST_CAPTURE],
        "D9-E10\nD9:E9\n",
    );
    // The non-capture is refused (captures are compulsory), the capture wins.
    assert!(err.contains("`D9-E10`"), "{err}");
    assert!(out.trim_end().ends_with("You won!"), "{out}");
    let (out, _) = play(
        &[
            "kefren",
            "--level",
            "1",
            "--seat",
            "2",
            "--position",
            KEFREN_LAST_CAPTURE,
        ],
        "",
    );
    assert!(out.contains("Black (seat 1) plays D"), "{out}");
    assert!(out.trim_end().ends_with("The bot won."), "{out}");
}
