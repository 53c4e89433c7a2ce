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

/// The rules' die, written here from the rules file: `splitmix64(seed + ply) mod 6 + 1`.
fn die_roll(seed: u64, ply: u64) -> u64 {
    let mut z = seed.wrapping_add(ply).wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) % 6 + 1
}

/// A finished die game's record as the server prints it: the commitment (SHA-256 of "42",
/// `printf %s 42 | sha256sum`), the revealed seed, the moves.
fn finished_record(commitment: &str, moves: &[String]) -> String {
    let mut text = format!(
        "[Game \"7\"]\n[Kind \"kechi\"]\n[Options \"lines=4 scoring=markers seed=42 total=die\"]\n\
         [Seed-SHA256 \"{commitment}\"]\n[Seed \"42\"]\n[Result \"won 2\"]\n\n"
    );
    for mv in moves {
        text.push_str(mv);
        text.push('\n');
    }
    text
}

const COMMITMENT_42: &str = "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049";

#[test]
fn replay_checks_the_revealed_seed_and_prints_every_roll() {
    // Six turns of a seed-42 game, each the first legal turn the engine lists.
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..6 {
        let mut args = vec!["engine", "moves", "kechi", "--option", "total=die"];
        args.extend(["--option", "seed=42"]);
        let joined = moves.join(" ");
        if !moves.is_empty() {
            args.extend(["--moves", joined.as_str()]);
        }
        let out = stdout(&turnpost(&args).success());
        moves.push(out.lines().next().unwrap().to_owned());
    }
    let dir = std::env::temp_dir().join(format!("turnpost-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("record.txt");
    std::fs::write(&file, finished_record(COMMITMENT_42, &moves)).unwrap();
    let run = turnpost(&["engine", "replay", file.to_str().unwrap()]).success();
    let out = stdout(&run);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!("seed 42 matches Seed-SHA256 {COMMITMENT_42}")
    );
    assert!(lines[1].starts_with("start: kechi "), "{out}");
    // Every position's total is the roll of its ply, and each move is listed before it.
    for (ply, line) in lines[1..=7].iter().enumerate() {
        let fields: Vec<&str> = line.split(' ').collect();
        let n = fields.len();
        assert_eq!(fields[n - 1], ply.to_string(), "{line}");
        assert_eq!(
            fields[n - 4],
            die_roll(42, ply as u64).to_string(),
            "{line}"
        );
        if ply > 0 {
            assert!(
                line.starts_with(&format!("{ply} {}: kechi ", moves[ply - 1])),
                "{line}"
            );
        }
    }
    assert_eq!(lines[8], "ongoing 1");

    // A seed that does not match its commitment is refused (exit 1).
    let forged = COMMITMENT_42.replace('7', "8");
    std::fs::write(&file, finished_record(&forged, &moves)).unwrap();
    let run = turnpost(&["engine", "replay", file.to_str().unwrap()]).code(1);
    assert!(
        stderr(&run).contains("does not match its commitment"),
        "{}",
        stderr(&run)
    );
    // A running game's record (a commitment, no seed) cannot be replayed, and says why.
    let running = finished_record(COMMITMENT_42, &moves)
        .replace("[Seed \"42\"]\n", "")
        .replace(" seed=42", "");
    std::fs::write(&file, running).unwrap();
    let run = turnpost(&["engine", "replay", file.to_str().unwrap()]).code(2);
    assert!(stderr(&run).contains("withheld"), "{}", stderr(&run));
    std::fs::remove_dir_all(&dir).unwrap();
}
