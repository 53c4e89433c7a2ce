//! Kechi through the offline engine commands (issue 3, "Done when"), run as the real binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{stderr, stdout, turnpost};

const ENDGAME: &str = "kechi x...x.xx....x/.bxw/..xb/..../..x......xx../..../xx.x/...x/........x..../..../..../..../x...x...x...x w 6 0 0 20";

#[test]
fn moves_prints_the_989_opening_turns_canonical_and_sorted() {
    let run = turnpost(&["engine", "moves", "kechi"]).success();
    let out = stdout(&run);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 989);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"a13-a8,e13-e12"));
}

#[test]
fn perft_two_is_978121() {
    let run = turnpost(&["engine", "perft", "kechi", "--depth", "2"]).success();
    assert_eq!(stdout(&run), "978121\n");
}

#[test]
fn variants_work_through_show_moves_and_status() {
    let run = turnpost(&[
        "engine",
        "show",
        "kechi",
        "--option",
        "total=die",
        "--option",
        "seed=42",
    ])
    .success();
    let out = stdout(&run);
    assert!(out.contains("die roll 2"), "{out}");
    assert!(out.trim_end().ends_with(" w 2 0 0 0"), "{out}");
    let run = turnpost(&[
        "engine",
        "moves",
        "kechi",
        "--option",
        "total=die",
        "--option",
        "seed=42",
    ])
    .success();
    assert_eq!(stdout(&run).lines().count(), 47);
    let run = turnpost(&[
        "engine",
        "show",
        "kechi",
        "--option",
        "scoring=tokens",
        "--moves",
        "e13-e12, a13-a8",
    ])
    .success();
    assert!(stdout(&run).contains(" b 6 2 0 1"));
    let run = turnpost(&["engine", "moves", "kechi", "--option", "lines=5"]).success();
    assert_eq!(stdout(&run).lines().count(), 4196);
    let run = turnpost(&["engine", "status", "kechi", "--position", ENDGAME]).success();
    assert_eq!(stdout(&run), "won 2\n");
    let run = turnpost(&["engine", "moves", "kechi", "--position", ENDGAME]).success();
    assert_eq!(stdout(&run), "");
    let run = turnpost(&["engine", "moves", "kechi", "--option", "lines=9"]).failure();
    assert!(stderr(&run).contains("lines"), "{}", stderr(&run));
}

#[test]
fn bad_turns_are_refused_with_their_rule() {
    for (turn, reason) in [
        ("a13-a9", "the distances add up to 4"),
        ("a13-a12,a13-a8", "moves twice"),
        ("a13-e13,i13-i11", "holds one of your own stones"),
    ] {
        let run = turnpost(&["engine", "moves", "kechi", "--moves", turn])
            .failure()
            .code(1);
        let err = stderr(&run);
        assert!(
            err.contains("move 1") && err.contains(reason),
            "{turn}: {err}"
        );
    }
    let run = turnpost(&[
        "engine",
        "moves",
        "kechi",
        "--moves",
        "a13-a8,e13-e12 a1-a6,e1-e2 a8-a13,e12-e11",
    ])
    .failure()
    .code(1);
    let err = stderr(&run);
    assert!(
        err.contains("move 3") && err.contains("a13 is marked"),
        "{err}"
    );
}
