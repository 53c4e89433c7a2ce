//! `turnpost rules`, run as the real binary: the players' rules of each game, offline.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{stderr, stdout, turnpost};

#[test]
fn rules_without_a_kind_lists_every_game() {
    let out = stdout(&turnpost(&["rules"]).success());
    for line in [
        "kefren",
        "kechi",
        "sanqi",
        "chinese-checkers",
        "Chinese Checkers",
    ] {
        assert!(out.contains(line), "{out}");
    }
}

#[test]
fn rules_of_each_game_say_the_goal_the_moves_and_the_notation() {
    for (kind, says) in [
        ("kefren", "more Black stones on row 19"),
        ("kechi", "your die roll"),
        ("sanqi", "wins with a circle or a triangle"),
        ("chinese-checkers", "Fill the point opposite your start"),
    ] {
        let out = stdout(&turnpost(&["rules", kind]).success());
        for part in ["## The goal", "## A ", "## Notation", "## Variants", says] {
            assert!(out.contains(part), "{kind}: no `{part}`:\n{out}");
        }
        assert!(
            !out.contains("shared/rules"),
            "{kind} points outside the repository"
        );
    }
}

#[test]
fn rules_json_carries_the_same_text() {
    let out = stdout(&turnpost(&["--json", "rules", "sanqi"]).success());
    let value: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(value["rules"]["kind"], "sanqi");
    assert!(value["rules"]["text"]
        .as_str()
        .unwrap()
        .starts_with("# SanQi"));
}

#[test]
fn rules_of_an_unknown_kind_is_a_usage_error() {
    let run = turnpost(&["rules", "chess"]).code(2);
    assert!(stderr(&run).contains("chess"), "{}", stderr(&run));
}
