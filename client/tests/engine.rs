//! The offline engine commands, run as the real `turnpost` binary.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{stderr, stdout, turnpost};

#[test]
fn moves_lists_the_25_opening_moves_sorted() {
    let run = turnpost(&["engine", "moves", "kefren"]).success();
    let out = stdout(&run);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 25);
    let mut sorted = lines.clone();
    sorted.sort();
    assert_eq!(lines, sorted);
    assert!(lines.contains(&"F2-F3"));
}

#[test]
fn perft_prints_a_bare_integer() {
    let run = turnpost(&["engine", "perft", "kefren", "--depth", "3"]).success();
    assert_eq!(stdout(&run), "17700\n");
    let run = turnpost(&["engine", "perft", "kefren", "--depth", "0"]).success();
    assert_eq!(stdout(&run), "1\n");
}

#[test]
fn show_prints_board_turn_and_position_without_colour_in_a_pipe() {
    let run = turnpost(&["engine", "show", "kefren", "--moves", "F2-F3"]).success();
    let out = stdout(&run);
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    assert!(out.contains(" 3 . . . . . b . . ."), "{out}");
    assert!(out.contains("   A B C D E F G H I"), "{out}");
    assert!(out.contains("White (seat 2) to move"), "{out}");
    assert!(out.ends_with(
        "kefren wwwwwwwww/wwwwwwwww/9/9/9/9/9/9/9/9/9/9/9/9/9/9/5b3/bbbbb1bbb/bbbbbbbbb w\n"
    ));
}

#[test]
fn status_prints_one_line() {
    let run = turnpost(&["engine", "status", "kefren", "--moves", "F2-F3"]).success();
    assert_eq!(stdout(&run), "ongoing 2\n");
    let finished = "kefren b8/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bb7/9 w";
    let run = turnpost(&["engine", "status", "kefren", "--position", finished]).success();
    assert_eq!(stdout(&run), "won 1\n");
    // A finished game has no moves: nothing printed, exit 0.
    let run = turnpost(&["engine", "moves", "kefren", "--position", finished]).success();
    assert_eq!(stdout(&run), "");
}

#[test]
fn a_bad_move_names_its_index_and_reason_and_exits_1() {
    let run = turnpost(&["engine", "moves", "kefren", "--moves", "F2-F3 E18-E1x"]).code(1);
    let err = stderr(&run);
    assert!(err.contains("move 2 `E18-E1x`"), "{err}");
    assert!(
        err.contains("byte 7") && err.contains("expected a cell"),
        "{err}"
    );
    let run = turnpost(&["engine", "show", "kefren", "--moves", "F2-F3 F3-F4"]).code(1);
    let err = stderr(&run);
    assert!(
        err.contains("move 2 `F3-F4`") && err.contains("not yours"),
        "{err}"
    );
    assert_eq!(stdout(&run), "");
}

#[test]
fn usage_errors_exit_2() {
    let run = turnpost(&["engine", "moves", "go"]).code(2);
    assert!(stderr(&run).contains("kefren"));
    let run = turnpost(&["engine", "moves", "kefren", "--option", "lines=5"]).code(2);
    assert!(stderr(&run).contains("`lines`"), "{}", stderr(&run));
    let run = turnpost(&["engine", "moves", "kefren", "--position", "kefren 9 b"]).code(2);
    assert!(stderr(&run).contains("rows"), "{}", stderr(&run));
}

#[test]
fn help_lists_exit_codes() {
    let run = turnpost(&["--help"]).success();
    assert!(stdout(&run).contains("Exit codes:"));
}

#[test]
fn show_can_draw_an_svg_picture() {
    let path = std::env::temp_dir().join(format!("turnpost-show-{}.svg", std::process::id()));
    let file = path.to_str().unwrap();
    turnpost(&[
        "engine", "show", "kefren", "--moves", "F2-F3", "--svg", file,
    ])
    .success();
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert_eq!(svg.matches("<title>").count(), 171, "one group per cell");
    // The last move's cells are ringed in the mover's colour (Black), on a white band.
    assert_eq!(
        svg.matches("stroke=\"#1d1d1d\" stroke-width=\"3\"").count(),
        2
    );
    assert_eq!(
        svg.matches("stroke=\"#ffffff\" stroke-width=\"7\"").count(),
        2
    );
}

#[test]
fn show_marks_each_seats_last_move_in_its_colour_in_all_four_games() {
    for (kind, moves, first, second) in [
        ("kefren", "F2-F3 E18-E17", "#1d1d1d", "#fafafa"),
        ("kechi", "a13-a7 e1-e7", "#fafafa", "#1d1d1d"),
        ("sanqi", "R@d4 B@c3", "#1d1d1d", "#fafafa"),
        ("chinese-checkers", "N13-M12 D5-E5", "#d62828", "#1f5fbf"),
    ] {
        let path =
            std::env::temp_dir().join(format!("turnpost-mark-{kind}-{}.svg", std::process::id()));
        let file = path.to_str().unwrap();
        turnpost(&["engine", "show", kind, "--moves", moves, "--svg", file]).success();
        let svg = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let rings = |colour: &str| {
            svg.matches(&format!("stroke=\"{colour}\" stroke-width=\"3\""))
                .count()
        };
        assert!(rings(first) >= 1, "{kind}: no ring in {first}");
        assert!(rings(second) >= 1, "{kind}: no ring in {second}");
    }
}

#[test]
fn json_output_for_scripts() {
    let run = turnpost(&["engine", "moves", "kefren", "--json"]).success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(json["version"], 1);
    assert_eq!(json["moves"].as_array().unwrap().len(), 25);
    let run = turnpost(&["engine", "status", "kefren", "--json", "--moves", "F2-F3"]).success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(json["status"]["state"], "ongoing");
    assert_eq!(json["status"]["to_move"], 2);
    let run = turnpost(&["engine", "perft", "kefren", "--depth", "2", "--json"]).success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(json["perft"], 625);
    let run = turnpost(&["--json", "engine", "show", "kefren"]).success();
    let json: serde_json::Value = serde_json::from_str(&stdout(&run)).unwrap();
    assert_eq!(json["position"]["kind"], "kefren");
    assert!(json["position"]["board"]
        .as_str()
        .unwrap()
        .contains("A B C"));
}

#[test]
fn departure_lines_play_in_moves() {
    let three = ["--option", "players=3"];
    let status = |moves: &str| {
        let mut args = vec!["engine", "status", "chinese-checkers", "--moves", moves];
        args.extend(three);
        stdout(&turnpost(&args).success())
    };
    assert_eq!(status("N10-M10 resign 2"), "ongoing 3\n");
    assert_eq!(status("resign 1 Timeout 3"), "won 2\n");
    let mut args = vec![
        "engine",
        "show",
        "chinese-checkers",
        "--moves",
        "resign 3 claim 1",
    ];
    args.extend(three);
    let out = stdout(&turnpost(&args).success());
    assert!(
        out.contains("left (in order): seat 3 (pegs 5), seat 1 (pegs 1)"),
        "{out}"
    );
    assert!(
        out.contains("places: 1. seat 2 (pegs 3), 2. seat 1 (pegs 1), 3. seat 3 (pegs 5)"),
        "{out}"
    );
    assert!(out.ends_with(" 2 left=3,1\n"), "{out}");
    // The engine commands read such positions back.
    let position = out.lines().last().unwrap().to_string();
    let mut args = vec![
        "engine",
        "perft",
        "chinese-checkers",
        "--depth",
        "2",
        "--position",
    ];
    args.push(&position);
    args.extend(three);
    assert_eq!(stdout(&turnpost(&args).success()), "0\n");
    // A position with a seat gone, read back by every command.
    let mut args = vec!["engine", "show", "chinese-checkers", "--moves", "resign 3"];
    args.extend(three);
    let out = stdout(&turnpost(&args).success());
    let position = out.lines().last().unwrap().to_string();
    assert!(position.ends_with(" 1 left=3"), "{position}");
    for (command, expected) in [("status", "ongoing 1\n"), ("perft", "14\n")] {
        let mut args = vec![
            "engine",
            command,
            "chinese-checkers",
            "--position",
            &position,
        ];
        args.extend(three);
        if command == "perft" {
            args.extend(["--depth", "1"]);
        }
        assert_eq!(stdout(&turnpost(&args).success()), expected);
    }
    let mut args = vec![
        "engine",
        "moves",
        "chinese-checkers",
        "--position",
        &position,
    ];
    args.extend(three);
    let moves = stdout(&turnpost(&args).success());
    assert_eq!(moves.lines().count(), 14);
    // Departures that cannot be played name the line and say why.
    let mut args = vec![
        "engine",
        "moves",
        "chinese-checkers",
        "--moves",
        "resign 2 resign 2",
    ];
    args.extend(three);
    let err = stderr(&turnpost(&args).code(1));
    assert!(
        err.contains("move 2 `resign 2`: illegal move: seat 2 has already left"),
        "{err}"
    );
    let err = stderr(&turnpost(&["engine", "moves", "kefren", "--moves", "resign 3"]).code(1));
    assert!(
        err.contains("seat 3 is not in this game (seats 1 to 2)"),
        "{err}"
    );
    let err = stderr(&turnpost(&["engine", "moves", "kefren", "--moves", "resign x"]).code(1));
    assert!(err.contains("syntax error at byte 7"), "{err}");
    // Two seats: the departure ends the game.
    let run = turnpost(&["engine", "status", "kefren", "--moves", "F2-F3 resign 1"]).success();
    assert_eq!(stdout(&run), "won 2\n");
}
