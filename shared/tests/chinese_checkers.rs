//! Chinese Checkers special rules, each from a position text (rules: `chinese-checkers.md`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::games::ChineseCheckers;
use turnpost_shared::render::{render_text, TextStyle};
use turnpost_shared::rules::OptionError;
use turnpost_shared::{AnyGame, Game, GameKind, Options, Seat, Status};

/// First and last number of each row A–Q.
const ROWS: [(u32, u32); 17] = [
    (5, 5),
    (5, 6),
    (5, 7),
    (5, 8),
    (1, 13),
    (2, 13),
    (3, 13),
    (4, 13),
    (5, 13),
    (5, 14),
    (5, 15),
    (5, 16),
    (5, 17),
    (10, 13),
    (11, 13),
    (12, 13),
    (13, 13),
];

/// The holes of a point, as in the rules' table.
fn point(k: u32) -> Vec<String> {
    let names: &[&str] = match k {
        1 => &[
            "N10", "N11", "N12", "N13", "O11", "O12", "O13", "P12", "P13", "Q13",
        ],
        2 => &["J5", "K5", "K6", "L5", "L6", "L7", "M5", "M6", "M7", "M8"],
        3 => &["E1", "E2", "E3", "E4", "F2", "F3", "F4", "G3", "G4", "H4"],
        4 => &["A5", "B5", "B6", "C5", "C6", "C7", "D5", "D6", "D7", "D8"],
        5 => &[
            "E10", "E11", "E12", "E13", "F11", "F12", "F13", "G12", "G13", "H13",
        ],
        _ => &[
            "J14", "K14", "K15", "L14", "L15", "L16", "M14", "M15", "M16", "M17",
        ],
    };
    names.iter().map(|name| name.to_string()).collect()
}

/// Position text with the given pegs (`(hole, '1'..'6' or 'x')`) and seat to move.
fn text(pegs: &[(String, char)], seat: u8) -> String {
    let mut rows: Vec<Vec<char>> = ROWS
        .iter()
        .map(|(first, last)| vec!['.'; (last - first + 1) as usize])
        .collect();
    for (hole, peg) in pegs {
        let row = (hole.as_bytes()[0] - b'A') as usize;
        let number: u32 = hole[1..].parse().unwrap();
        rows[row][(number - ROWS[row].0) as usize] = *peg;
    }
    let rows: Vec<String> = rows
        .into_iter()
        .map(|row| row.into_iter().collect())
        .collect();
    format!("chinese-checkers {} {seat}", rows.join("/"))
}

fn pegs(holes: &[&str], peg: char) -> Vec<(String, char)> {
    holes.iter().map(|hole| (hole.to_string(), peg)).collect()
}

fn options(pairs: &[&str]) -> Options {
    Options::from_pairs(pairs).unwrap()
}

fn game(pairs: &[&str], pegs: &[(String, char)], seat: u8) -> ChineseCheckers {
    let text = text(pegs, seat);
    ChineseCheckers::from_position_text(&options(pairs), &text)
        .unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The canonical text of a move, or the error message.
fn resolve(game: &ChineseCheckers, text: &str) -> Result<String, String> {
    let parsed = game.parse_move(text).map_err(|e| e.to_string())?;
    game.resolve_move(&parsed)
        .map(|mv| game.format_move(&mv))
        .map_err(|e| e.to_string())
}

fn refused(game: &ChineseCheckers, text: &str, expected: &str) {
    match resolve(game, text) {
        Ok(canonical) => panic!("{text} was accepted as {canonical}"),
        Err(error) => assert!(error.contains(expected), "{text}: {error}"),
    }
}

fn moves(game: &ChineseCheckers) -> Vec<String> {
    let mut texts: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|mv| game.format_move(mv))
        .collect();
    texts.sort();
    texts
}

fn won_by(seat: u8) -> Status {
    Status::won_by(Seat::new(seat).unwrap())
}

#[test]
fn start_position_text_is_the_rules_example() {
    let start = ChineseCheckers::new(&Options::new()).unwrap();
    assert_eq!(
        start.position_text(),
        "chinese-checkers 4/44/444/4444/............./............/.........../........../\
         ........./........../.........../............/............./1111/111/11/1 1"
    );
    assert_eq!(
        start.status(),
        Status::Ongoing {
            to_move: Seat::FIRST
        }
    );
    assert_eq!(start.perft(1), 14);
    let six = ChineseCheckers::new(&options(&["players=6"])).unwrap();
    assert_eq!(
        six.position_text(),
        "chinese-checkers 4/44/444/4444/3333.....5555/333......555/33.......55/3........5/\
         ........./2........6/22.......66/222......666/2222.....6666/1111/111/11/1 1"
    );
    let filled = ChineseCheckers::new(&options(&["players=4", "unused=filled"])).unwrap();
    assert!(filled.position_text().contains("3333.....xxxx/"));
}

#[test]
fn seats_and_sets_follow_the_layouts() {
    // players=3 sets=2: seat 1 plays points 1 and 2, seat 2 points 3 and 4, seat 3 points 5, 6.
    let three = ChineseCheckers::new(&options(&["players=3", "sets=2"])).unwrap();
    assert_eq!(three.seat_count(), 3);
    let first: Vec<String> = moves(&three);
    assert!(first.iter().any(|m| m.starts_with('N')), "{first:?}");
    assert!(first.iter().any(|m| m.starts_with("M8")), "{first:?}");
    refused(
        &three,
        "H4-I5",
        "not yours: it is of set 3, played by seat 2",
    );
    // players=2 sets=3: seat 2 plays points 2, 4 and 6.
    let two = ChineseCheckers::new(&options(&["players=2", "sets=3"])).unwrap();
    let after = two.clone().play("N10-M9").unwrap();
    assert_eq!(after.to_move(), Seat::new(2));
    assert!(resolve(&after, "M8-L8").is_ok());
    assert!(resolve(&after, "D5-E5").is_ok());
    assert!(resolve(&after, "M14-M13").is_ok());
    refused(&after, "H4-I5", "played by seat 1");
    // Turn order goes clockwise: with 4 players, points 1, 3, 4, 6.
    let mut four = ChineseCheckers::new(&options(&["players=4"])).unwrap();
    for (seat, mv) in [(1, "N10-M9"), (2, "H4-I5"), (3, "D5-E5"), (4, "M14-M13")] {
        assert_eq!(four.to_move(), Seat::new(seat));
        four = four.clone().play(mv).unwrap();
    }
    assert_eq!(four.to_move(), Seat::new(1));
}

#[test]
fn hop_chains_in_both_notations() {
    // The rules' example: A5-C7-E7-E9-G11 over B6, D7, E8 and F10.
    let mut setup = pegs(&["A5"], '4');
    setup.extend(pegs(&["B6", "D7", "E8", "F10", "Q13"], '1'));
    let position = game(&[], &setup, 2);
    assert_eq!(resolve(&position, "A5-C7-E7-E9-G11"), Ok("A5-G11".into()));
    assert_eq!(resolve(&position, "a5 - g11"), Ok("A5-G11".into()));
    assert_eq!(resolve(&position, "A5:C7xE7 - E9-G11"), Ok("A5-G11".into()));
    // Intermediate holes are all given or all left out.
    refused(&position, "A5-E7-G11", "hop 1 (A5-E7) is not a hop");
    assert_eq!(resolve(&position, "A5-C7"), Ok("A5-C7".into()));
    let after = position.clone().play("A5-C7-E7-E9-G11").unwrap();
    assert!(
        after.position_text().contains("/........4../"),
        "{}",
        after.position_text()
    );
    // Written paths must be legal chains, hop by hop.
    refused(&position, "A5-C7-E7-E7", "hop 3 lands on E7 a second time");
    refused(&position, "A5-C7-A5", "hop 2 lands back on A5");
    refused(&position, "A5-C7-E9", "hop 2 (C7-E9) is not a hop");
    refused(&position, "A5-B5-D5", "B5 is a step");
    refused(
        &position,
        "A5-C7-E7-G7",
        "hop 3 (E7-G7) is not a hop: there is no peg",
    );
    refused(
        &position,
        "A5-A5",
        "may not end on the hole it started from",
    );
    refused(&position, "A5-F7", "F7 cannot be reached from A5");
    refused(&position, "A5-B6", "B6 is taken");
    refused(&position, "A5-R1", "syntax error at byte 3");
    refused(&position, "A5-A6", "A6 is not on the board");
    refused(&position, "B6-B5", "not yours");
    refused(&position, "C5-C6", "there is no peg on C5");
}

#[test]
fn target_lock_holds_for_steps_hops_and_inside_chains() {
    // Set 1's target is point 4 (rows A-D). A peg on D5 may not step out to E5.
    let mut setup = pegs(&["D5", "F6"], '1');
    setup.extend(pegs(&["E6", "E7", "Q13"], '4'));
    let position = game(&[], &setup, 1);
    refused(&position, "D5-E5", "target lock");
    assert!(resolve(&position, "D5-C5").is_ok());
    // F6 hops into the target (over E6 to D6), but may not hop out again over E7 to F8.
    assert_eq!(resolve(&position, "F6-D6"), Ok("F6-D6".into()));
    refused(
        &position,
        "F6-D6-F8",
        "hop 2 (D6-F8) leaves the peg's target (point 4)",
    );
    refused(&position, "F6-F8", "target lock");
    assert!(!moves(&position).contains(&"F6-F8".to_string()));
}

#[test]
fn resting_in_other_players_points_needs_three_players() {
    // Three players: point 2 is the target of seat 3's set 5. Seat 1's peg on L9 may hop
    // through it (L9-L7-J7) but not stop there (L9-L7).
    let mut setup = pegs(&["L9", "L8", "K7"], '1');
    setup.extend(pegs(&["A5"], '3'));
    setup.extend(
        pegs(&["A5"], '5')
            .into_iter()
            .map(|(_, p)| ("E13".into(), p)),
    );
    let three = game(&["players=3"], &setup, 1);
    refused(&three, "L9-L7", "point 2, another player's start or target");
    refused(&three, "L8-L7", "point 2");
    assert_eq!(resolve(&three, "L9-L7-J7"), Ok("L9-J7".into()));
    assert_eq!(resolve(&three, "L9-J7"), Ok("L9-J7".into()));
    // Point 5 is seat 3's start: E9-E11 may not stop there, E9-E11-G11 hops through it.
    let mut start_point = pegs(&["E9"], '1');
    start_point.extend(pegs(&["E10", "F11"], '5'));
    let through = game(&["players=3"], &start_point, 1);
    refused(&through, "E9-E11", "E11 is in point 5");
    assert_eq!(resolve(&through, "E9-E11-G11"), Ok("E9-G11".into()));
    assert!(moves(&through).contains(&"E9-G11".to_string()));
    assert!(!moves(&through).contains(&"E9-E11".to_string()));
    // Own start and target are fine.
    assert!(resolve(&game(&["players=3"], &pegs(&["N10"], '1'), 1), "N10-N11").is_ok());
    // With four players point 2 is unused, so free; with two there is no resting rule.
    let mut four_setup = setup.clone();
    four_setup.retain(|(_, peg)| *peg == '1');
    let four = game(&["players=4"], &four_setup, 1);
    assert_eq!(resolve(&four, "L9-L7"), Ok("L9-L7".into()));
    let two = game(&[], &four_setup, 1);
    assert_eq!(resolve(&two, "L9-L7"), Ok("L9-L7".into()));
    // Six players: only the mover's own start and target are open.
    let six = game(&["players=6"], &four_setup, 1);
    refused(&six, "L9-L7", "point 2");
}

#[test]
fn forced_pass() {
    // Set 4's only peg sits on Q13 in its target, boxed in: seat 2 can only pass.
    let mut setup = pegs(&["Q13"], '4');
    setup.extend(pegs(&["P12", "P13", "O11", "O13"], '1'));
    let position = game(&[], &setup, 2);
    assert_eq!(moves(&position), ["pass"]);
    assert_eq!(position.count_moves(), 1);
    assert_eq!(position.perft(1), 1);
    refused(&position, "Q13-P12", "the only legal move is \"pass\"");
    // The engine says the pass is forced, so a server plays it; seat 1 then has a choice.
    let forced = position.forced_move().unwrap();
    assert_eq!(position.format_move(&forced), "pass");
    let passed = position.clone().play("PASS").unwrap();
    assert_eq!(passed.to_move(), Seat::new(1));
    assert_eq!(passed.forced_move(), None);
    // Seat 1 has moves, so it may not pass.
    refused(
        &passed,
        "pass",
        "you may pass only when you have no legal move",
    );
    assert_eq!(passed.perft(2), game(&[], &setup, 2).perft(3));
}

#[test]
fn swap_with_a_spoiler_in_a_full_target() {
    // Set 1's target (point 4) is full: nine of its pegs and a spoiler of set 4 on D8.
    let mut setup = pegs(&["A5", "B5", "B6", "C5", "C6", "C7", "D5", "D6", "D7"], '1');
    setup.extend(pegs(&["D8"], '4'));
    setup.extend(pegs(&["E8"], '1'));
    setup.extend(pegs(&["Q13"], '4'));
    let swap = game(&["anti-spoiling=swap"], &setup, 1);
    assert_eq!(resolve(&swap, "E8-D8"), Ok("E8-D8".into()));
    let after = swap.clone().play("E8-D8").unwrap();
    // The spoiler went to E8, where the moving peg started; all ten pegs are home.
    assert!(
        after.position_text().contains("/1111/.......4...../"),
        "{}",
        after.position_text()
    );
    assert_eq!(after.status(), won_by(1));
    // A peg inside the target may shuffle the spoiler too (D7 onto D8, spoiler to D7).
    assert!(moves(&swap).contains(&"D7-D8".to_string()));
    // Without the swap rule, D8 is simply taken.
    let none = game(&["anti-spoiling=none"], &setup, 1);
    refused(&none, "E8-D8", "D8 is taken");
    // The target must have no empty hole at the start of the move.
    let mut open = setup.clone();
    open.retain(|(hole, _)| hole != "A5");
    let open = game(&["anti-spoiling=swap"], &open, 1);
    refused(
        &open,
        "E8-D8",
        "a swap is allowed only when your target has no empty hole",
    );
    // Never onto the mover's own pegs.
    refused(&swap, "E8-D7", "D7 is taken");
}

#[test]
fn parlett_win_with_a_spoiler_left_in_the_target() {
    // Set 1's target holds eight of its pegs and a spoiler on A5; E8 steps into D8.
    let mut setup = pegs(&["B5", "B6", "C5", "C6", "C7", "D5", "D6", "D7", "E8"], '1');
    setup.extend(pegs(&["A5", "Q13"], '4'));
    let parlett = game(&[], &setup, 1);
    assert_eq!(
        parlett.status(),
        Status::Ongoing {
            to_move: Seat::FIRST
        }
    );
    let after = parlett.clone().play("E8-D8").unwrap();
    assert_eq!(after.status(), won_by(1));
    assert!(after.legal_moves().is_empty());
    assert_eq!(after.perft(1), 0);
    refused(&after, "Q13-P13", "the game is over");
    // With anti-spoiling=none the spoiler keeps the set from home.
    let none = game(&["anti-spoiling=none"], &setup, 1);
    assert_eq!(
        none.clone().play("E8-D8").unwrap().status(),
        Status::Ongoing {
            to_move: Seat::new(2).unwrap()
        }
    );
    // A full target without any own peg is not home either (Parlett needs one).
    let mut spoiled: Vec<(String, char)> = point(4).into_iter().map(|h| (h, '4')).collect();
    spoiled.extend(pegs(&["N10"], '1'));
    assert_eq!(
        game(&[], &spoiled, 2).status(),
        Status::Ongoing {
            to_move: Seat::new(2).unwrap()
        }
    );
}

#[test]
fn a_move_can_complete_another_players_target() {
    // Point 1 (set 4's target) holds nine pegs of set 4; seat 1 fills the last hole.
    let mut setup: Vec<(String, char)> = point(1)
        .into_iter()
        .filter(|hole| hole != "N10")
        .map(|hole| (hole, '4'))
        .collect();
    setup.extend(pegs(&["M9", "A5"], '1'));
    let position = game(&[], &setup, 1);
    let after = position.clone().play("M9-N10").unwrap();
    assert_eq!(after.status(), won_by(2));
    // When two players are home, the one who moved is found first.
    let mut both: Vec<(String, char)> = point(1).into_iter().map(|h| (h, '4')).collect();
    both.extend(point(4).into_iter().map(|h| (h, '1')));
    assert_eq!(game(&[], &both, 2).status(), won_by(1));
    assert_eq!(game(&[], &both, 1).status(), won_by(2));
}

#[test]
fn three_sets_win_only_with_all_three_home() {
    // Seat 1 plays sets 1, 3 and 5, whose targets are points 4, 6 and 2.
    let mut setup: Vec<(String, char)> = point(6).into_iter().map(|h| (h, '3')).collect();
    setup.extend(point(2).into_iter().map(|h| (h, '5')));
    setup.extend(
        point(4)
            .into_iter()
            .filter(|hole| hole != "D8")
            .map(|hole| (hole, '1')),
    );
    setup.extend(pegs(&["E8"], '1'));
    setup.extend(pegs(&["Q13"], '4'));
    let sets = ["players=2", "sets=3"];
    let position = game(&sets, &setup, 1);
    assert!(!position.status().is_over());
    assert_eq!(position.clone().play("E8-D8").unwrap().status(), won_by(1));
    // One set short of home: no win.
    let mut short = setup.clone();
    short.retain(|(hole, _)| hole != "M8");
    short.push(("L9".into(), '5'));
    let position = game(&sets, &short, 1);
    assert!(!position.clone().play("E8-D8").unwrap().status().is_over());
    // Parlett counts only the set's own pegs: point 4 full of sets 3 and 5 is not home for
    // set 1, though seat 1 plays all three sets.
    let mut mixed: Vec<(String, char)> = Vec::new();
    for (index, hole) in point(4).into_iter().enumerate() {
        mixed.push((hole, if index % 2 == 0 { '3' } else { '5' }));
    }
    for (index, hole) in point(6).into_iter().enumerate() {
        mixed.push((hole, if index < 5 { '3' } else { '2' }));
    }
    for (index, hole) in point(2).into_iter().enumerate() {
        mixed.push((hole, if index < 5 { '5' } else { '6' }));
    }
    assert!(!game(&sets, &mixed, 2).status().is_over());
    // One peg of set 1 among them makes it home, and seat 1 (the last mover) wins.
    mixed[0].1 = '1';
    assert_eq!(game(&sets, &mixed, 2).status(), won_by(1));
}

#[test]
fn inert_pegs_are_hopped_over_but_never_landed_on() {
    // unused=filled: point 2 keeps inert pegs on K6 and L6 only (a puzzle position).
    let mut setup = pegs(&["K6", "L6"], 'x');
    setup.extend(pegs(&["J6", "K7"], '1'));
    setup.extend(pegs(&["A5"], '4'));
    let position = game(&["unused=filled"], &setup, 1);
    assert_eq!(resolve(&position, "K7-K5"), Ok("K7-K5".into()));
    refused(&position, "J6-L6", "L6 is taken");
    refused(&position, "J6-K6", "K6 is taken");
    refused(&position, "K6-K5", "inert");
    // At the start, every unused point is full of inert pegs.
    let start = ChineseCheckers::new(&options(&["unused=filled"])).unwrap();
    let inert = start.position_text().matches('x').count();
    assert_eq!(inert, 40);
    assert!(moves(&start)
        .iter()
        .all(|mv| !mv.contains("E1") && !mv.contains("M5")));
}

#[test]
fn long_jumps_jump_a_peg_at_any_distance() {
    // E5 over E8 (three away) to E11 (three beyond), holes between empty.
    let mut setup = pegs(&["E5", "E8"], '1');
    setup.extend(pegs(&["A5"], '4'));
    let long = game(&["jumps=long"], &setup, 1);
    assert_eq!(resolve(&long, "E5-E11"), Ok("E5-E11".into()));
    assert!(!moves(&long).contains(&"E5-E12".to_string()));
    let short = game(&[], &setup, 1);
    refused(&short, "E5-E11", "cannot be reached");
    // A second peg in the landing half blocks the hop.
    let mut blocked = setup.clone();
    blocked.push(("E10".into(), '4'));
    let blocked = game(&["jumps=long"], &blocked, 1);
    refused(&blocked, "E5-E11", "cannot be reached");
    refused(&blocked, "E5-E8-E11", "hop 1 (E5-E8) is not a hop");
    refused(&blocked, "E5-E11-E5", "hop 1 (E5-E11) is not a hop");
}

#[test]
fn options_are_refused_or_accepted_as_specified() {
    let accepted: &[&[&str]] = &[
        &[],
        &["players=2"],
        &["players=3"],
        &["players=4"],
        &["players=6"],
        &["sets=1"],
        &["players=6", "sets=1"],
        &["players=2", "sets=3"],
        &["players=3", "sets=2"],
        &["unused=open"],
        &["unused=filled"],
        &["players=4", "unused=filled"],
        &["players=3", "unused=open"],
        &["jumps=short"],
        &["jumps=long"],
        &["anti-spoiling=parlett"],
        &["anti-spoiling=none"],
        &["anti-spoiling=swap"],
        &["Players=3", "ANTI-SPOILING=Swap"],
    ];
    for pairs in accepted {
        let game = ChineseCheckers::new(&options(pairs)).unwrap_or_else(|e| panic!("{e}"));
        // The canonical options give the same game back.
        let again = ChineseCheckers::new(&game.options()).unwrap();
        assert_eq!(again.position_text(), game.position_text());
        assert_eq!(game.options().iter().count(), 5);
    }
    let conflicts: &[(&[&str], &str)] = &[
        (&["players=3", "unused=filled"], "players=3"),
        (&["players=6", "unused=filled"], "players=6"),
        (&["players=2", "sets=3", "unused=filled"], "sets=3"),
        (&["players=3", "sets=2", "unused=filled"], "sets=2"),
        (&["players=2", "sets=2"], "players=2"),
        (&["players=4", "sets=2"], "players=4"),
        (&["players=6", "sets=3"], "players=6"),
        (&["players=3", "sets=3"], "players=3"),
        (&["sets=2"], "players=2"),
    ];
    for (pairs, reason) in conflicts {
        let error = ChineseCheckers::new(&options(pairs)).unwrap_err();
        assert!(
            matches!(error, OptionError::Conflict { .. }) && error.to_string().contains(reason),
            "{pairs:?}: {error}"
        );
    }
    let error = ChineseCheckers::new(&options(&["players=6", "unused=filled"])).unwrap_err();
    assert!(error.to_string().contains("no point is unused"), "{error}");
    for bad in [
        "players=5",
        "sets=4",
        "unused=closed",
        "jumps=super",
        "anti-spoiling=yes",
    ] {
        let error = ChineseCheckers::new(&options(&[bad])).unwrap_err();
        assert!(
            matches!(error, OptionError::BadValue { .. }),
            "{bad}: {error}"
        );
    }
    let error = ChineseCheckers::new(&options(&["colour=red"])).unwrap_err();
    assert!(error.to_string().contains("anti-spoiling"), "{error}");
    let any = AnyGame::new(GameKind::ChineseCheckers, &options(&["players=6"])).unwrap();
    assert_eq!(any.seat_count(), 6);
    assert_eq!(AnyGame::option_specs(GameKind::ChineseCheckers).len(), 5);
}

#[test]
fn position_text_is_validated_field_by_field() {
    let start = ChineseCheckers::new(&Options::new())
        .unwrap()
        .position_text();
    let read = |pairs: &[&str], text: &str| {
        ChineseCheckers::from_position_text(&options(pairs), text).map(|g| g.position_text())
    };
    assert_eq!(read(&[], &start), Ok(start.clone()));
    let error = |pairs: &[&str], text: &str| read(pairs, text).unwrap_err();
    let cases: Vec<(Vec<&str>, String, &str, &str)> = vec![
        (
            vec![],
            start.replace("chinese-checkers", "kefren"),
            "kind",
            "chinese-checkers",
        ),
        (
            vec![],
            start.replacen("4/44/", "4/444/", 1),
            "rows",
            "row B: expected 2 holes",
        ),
        (
            vec![],
            start.replacen("4/44/", "4/44/4/", 1),
            "rows",
            "expected 17 rows",
        ),
        (
            vec![],
            start.replacen("4/44/", "4/4?/", 1),
            "rows",
            "row B: expected ., 1-6 or x",
        ),
        (
            vec![],
            start.replacen(".............", "1111111111111", 1),
            "rows",
            "pegs of set 1",
        ),
        (
            vec![],
            start.replacen(".............", "2............", 1),
            "rows",
            "not in play",
        ),
        (
            vec![],
            start.replacen(".............", "x............", 1),
            "rows",
            "unused=filled",
        ),
        (
            vec!["unused=filled"],
            start.replacen(".............", "......x......", 1),
            "rows",
            "unused points",
        ),
        (vec![], start.replace(" 1", " 3"), "seat", "1 to 2"),
        (vec![], start.replace(" 1", " 0"), "seat", "1 to 2"),
        (vec![], start.replace(" 1", ""), "seat", "seat"),
        (vec![], format!("{start} 1"), "end", "nothing after"),
        (vec!["players=5"], start.clone(), "options", "players=5"),
    ];
    for (pairs, text, field, message) in cases {
        let error = error(&pairs, &text);
        assert_eq!(error.field, field, "{text}: {error}");
        assert!(error.to_string().contains(message), "{text}: {error}");
    }
    // Fewer than ten pegs are fine; inert pegs inside filled points too.
    assert!(read(&["unused=filled"], &start.replacen("4/44/", "4/4./", 1)).is_ok());
    assert!(read(&["players=6"], &start.replace(" 1", " 6")).is_ok());
}

#[test]
fn the_board_is_drawn_as_a_star() {
    let start = ChineseCheckers::new(&options(&["players=6"])).unwrap();
    let view = start.board_view();
    assert_eq!(view.cells.len(), 121);
    let text = render_text(&view, TextStyle::Plain);
    assert_eq!(
        text,
        "\
A             4  A5  ▲4
B            4 4  B5-6
C           4 4 4  C5-7
D ▲3       4 4 4 4  D5-8   ▲5
E 3 3 3 3 . . . . . 5 5 5 5  E1-13
F  3 3 3 . . . . . . 5 5 5  F2-13
G   3 3 . . . . . . . 5 5  G3-13
H    3 . . . . . . . . 5  H4-13
I     . . . . . . . . .  I5-13
J    2 . . . . . . . . 6  J5-14
K   2 2 . . . . . . . 6 6  K5-15
L  2 2 2 . . . . . . 6 6 6  L5-16
M 2 2 2 2 . . . . . 6 6 6 6  M5-17
N ▲2       1 1 1 1  N10-13 ▲6
O           1 1 1  O11-13
P            1 1  P12-13
Q             1  Q13  ▲1
"
    );
    assert!(text.contains('6'));
    // Each seat's target point is marked for the goal line ("fill the point marked ▲4").
    let two = ChineseCheckers::new(&options(&[])).unwrap();
    let text = render_text(&two.board_view(), TextStyle::Plain);
    assert!(
        text.contains("▲4") && text.contains("▲1") && !text.contains("▲2"),
        "{text}"
    );
    assert!(two.goal(turnpost_shared::Seat::FIRST).contains("marked ▲4"));
}

#[test]
fn seats_are_named_by_their_points() {
    use turnpost_shared::Seat;
    let game = turnpost_shared::games::ChineseCheckers::new(
        &turnpost_shared::Options::from_pairs(["players=2", "sets=3"]).unwrap(),
    )
    .unwrap();
    assert_eq!(game.seat_name(Seat::FIRST), "seat 1 (pegs 1, 3, 5)");
    assert_eq!(
        game.seat_name(Seat::new(2).unwrap()),
        "seat 2 (pegs 2, 4, 6)"
    );
}

fn any(pairs: &[&str]) -> AnyGame {
    AnyGame::new(GameKind::ChineseCheckers, &options(pairs)).unwrap()
}

fn play(game: &AnyGame, line: &str) -> AnyGame {
    let (next, canonical) = game
        .play_line(line)
        .unwrap_or_else(|e| panic!("{line}: {e}"));
    if line.contains(' ') {
        assert_eq!(canonical, line.to_lowercase());
    }
    next
}

fn seat(n: u8) -> Seat {
    Seat::new(n).unwrap()
}

/// The position text's rows (without the seat and the seats that left).
fn rows(game: &AnyGame) -> String {
    game.position_text().split(' ').nth(1).unwrap().to_string()
}

#[test]
fn a_seat_leaving_takes_its_pegs_and_its_turns() {
    let start = any(&["players=3"]);
    let first = start.legal_moves()[0].clone();
    let game = play(&play(&start, &first), "Resign 3");
    // Set 5 is off the board, the others stay; seat 2 is still to move.
    assert!(!rows(&game).contains('5'));
    assert_eq!(rows(&game).matches('3').count(), 10);
    assert_eq!(game.status(), Status::Ongoing { to_move: seat(2) });
    assert!(game.position_text().ends_with(" 2 left=3"));
    assert_eq!(game.departed(), [seat(3)]);
    // Seat 2 moves, then seat 1 again: seat 3 is skipped.
    let second = game.legal_moves()[0].clone();
    let game = play(&game, &second);
    assert_eq!(game.status(), Status::Ongoing { to_move: seat(1) });
    assert_eq!(game.placings(), None);
    // With two seats playing, leaving ends the game; the board stays as it was.
    let over = play(&game, "timeout 1");
    assert_eq!(over.status(), won_by(2));
    assert_eq!(rows(&over), rows(&game));
    assert!(over.position_text().ends_with(" left=3,1"));
    assert_eq!(over.placings(), Some(vec![2, 1, 3]));
    assert!(over.legal_moves().is_empty());
    assert_eq!((over.perft(0), over.perft(1)), (1, 0));
    // Every position reads back.
    let options = options(&["players=3"]);
    for position in [&game, &over] {
        let read = AnyGame::from_position_text(&options, &position.position_text()).unwrap();
        assert_eq!(read.status(), position.status());
        assert_eq!(read.departed(), position.departed());
    }
}

#[test]
fn the_seat_to_move_leaving_passes_the_turn_on() {
    // Four players: seat 1 is claimed against while to move; seat 2 moves next.
    let game = play(&any(&["players=4"]), "claim 1");
    assert_eq!(game.status(), Status::Ongoing { to_move: seat(2) });
    assert!(!rows(&game).contains('1'));
    // Six players: 4 leaves, then 6; seat 5's turn comes after seat 3's... and then seat 1's.
    let mut six = play(&play(&any(&["players=6"]), "resign 4"), "resign 6");
    let mut order = Vec::new();
    for _ in 0..5 {
        order.push(six.status().to_move().unwrap().number());
        let mv = six.legal_moves()[0].clone();
        six = play(&six, &mv);
    }
    assert_eq!(order, [1, 2, 3, 5, 1]);
}

#[test]
fn a_seat_playing_two_sets_leaves_with_both() {
    let game = play(&any(&["players=3", "sets=2"]), "resign 2");
    assert!(!rows(&game).contains('3') && !rows(&game).contains('4'));
    assert_eq!(rows(&game).matches('1').count(), 10);
    assert_eq!(rows(&game).matches('6').count(), 10);
    let over = play(&game, "resign 3");
    assert_eq!(over.status(), won_by(1));
    assert_eq!(over.placings(), Some(vec![1, 3, 2]));
}

#[test]
fn the_points_of_a_seat_that_left_are_free_to_rest_in() {
    // As in the resting test: point 2 is the target of seat 3's set 5, so seat 1 may not stop
    // there; once seat 3 has left, it may.
    let mut setup = pegs(&["L9", "L8", "K7"], '1');
    setup.extend(pegs(&["A5"], '3'));
    setup.extend(pegs(&["E13"], '5'));
    let three = game(&["players=3"], &setup, 1);
    refused(&three, "L9-L7", "point 2");
    let left = three.leave(seat(3)).unwrap();
    assert_eq!(resolve(&left, "L9-L7"), Ok("L9-L7".into()));
    assert!(moves(&left).contains(&"L8-L7".to_string()));
    assert_eq!(left.count_moves(), moves(&left).len() as u64);
    // Seat 2's points (3 and 6) are still not free for seat 1.
    let mut into_six = pegs(&["J13"], '1');
    into_six.extend(pegs(&["A5"], '3'));
    into_six.extend(pegs(&["E13"], '5'));
    let left = game(&["players=3"], &into_six, 1).leave(seat(3)).unwrap();
    refused(&left, "J13-J14", "point 6");
}

#[test]
fn inert_pegs_stay_when_a_seat_leaves() {
    let start = any(&["players=4", "unused=filled"]);
    let game = play(&start, "resign 3");
    assert_eq!(rows(&game).matches('x').count(), 20);
    assert!(!rows(&game).contains('4'));
    assert_eq!(game.status(), Status::Ongoing { to_move: seat(1) });
}

#[test]
fn departures_that_cannot_be_played_say_why() {
    let game = any(&["players=3"]);
    let illegal_move = |game: &AnyGame, line: &str, expected: &str| match game.play(line) {
        Ok(_) => panic!("{line} was accepted"),
        Err(error) => assert!(error.to_string().contains(expected), "{line}: {error}"),
    };
    let illegal = |game: &AnyGame, line: &str, expected: &str| match game.play_line(line) {
        Ok(_) => panic!("{line} was accepted"),
        Err(error) => assert!(error.to_string().contains(expected), "{line}: {error}"),
    };
    illegal(
        &game,
        "resign 4",
        "seat 4 is not in this game (seats 1 to 3)",
    );
    illegal(&game, "resign 0", "seat 0 is not in this game");
    let left = play(&game, "resign 2");
    illegal(&left, "claim 2", "seat 2 has already left");
    let over = play(&left, "resign 1");
    illegal(&over, "resign 3", "the game is over");
    illegal(&over, "resign 1", "seat 1 has already left");
    // A move request cannot make a seat leave: `play` takes moves only.
    illegal_move(&game, "resign 2", "is a departure, not a move");
    match game.play_line("resign two") {
        Err(turnpost_shared::MoveError::Syntax(error)) => assert_eq!(error.offset, 7),
        other => panic!("{other:?}"),
    }
    let error = game.leave(seat(5), turnpost_shared::play::Departure::Timeout);
    assert!(matches!(
        error,
        Err(turnpost_shared::play::LeaveError::NotInGame { seat: 5, seats: 3 })
    ));
}

/// `resign 2 bot` (on-leave=bot): the seat keeps its pegs and turns, the position does not
/// change, a record with it replays; only while three or more seats play.
#[test]
fn a_bot_taking_a_seat_over_changes_nothing_on_the_board() {
    let game = any(&["players=3"]);
    let moved = play(&game, "N13-M13");
    let taken = play(&moved, "RESIGN 2 Bot");
    assert_eq!(taken.position_text(), moved.position_text());
    assert!(taken.departed().is_empty());
    assert_eq!(taken.status(), moved.status(), "seat 2 is still to move");
    let record = turnpost_shared::GameRecord::parse(&format!(
        "[Kind \"chinese-checkers\"]\n[Options \"{}\"]\n\nN13-M13\nresign 2 bot\n{}\n",
        game.options(),
        taken.legal_moves()[0]
    ))
    .unwrap();
    let replayed = record.replay().unwrap();
    assert_eq!(
        replayed.position_text(),
        play(&taken, &taken.legal_moves()[0]).position_text()
    );
    // The --moves splitter keeps the line whole.
    assert_eq!(
        turnpost_shared::play::split_move_list("N13-M13 timeout 2 bot")[1],
        "timeout 2 bot"
    );
    let illegal = |game: &AnyGame, line: &str, expected: &str| match game.play_line(line) {
        Ok(_) => panic!("{line} was accepted"),
        Err(error) => assert!(error.to_string().contains(expected), "{line}: {error}"),
    };
    illegal(&game, "resign 4 bot", "seat 4 is not in this game");
    let left = play(&game, "resign 3");
    illegal(&left, "resign 3 bot", "seat 3 has already left");
    illegal(
        &left,
        "claim 1 bot",
        "only while three or more seats play (2 do)",
    );
    illegal(&any(&["players=2"]), "resign 1 bot", "(2 do)");
    illegal(&game, "resign 2 bots", "`bot`");
}

#[test]
fn position_text_lists_the_seats_that_left() {
    let three = options(&["players=3"]);
    let start = any(&["players=3"]).position_text();
    let read = |text: &str| ChineseCheckers::from_position_text(&three, text);
    let game = play(&any(&["players=3"]), "resign 3");
    assert_eq!(read(&game.position_text()).unwrap().departed(), [seat(3)]);
    let cases = [
        (format!("{start} left=4"), "left", "1 to 3"),
        (format!("{start} left=2,2"), "left", "twice"),
        (format!("{start} left=1,2,3"), "left", "every seat"),
        (format!("{start} left="), "left", "found ``"),
        (format!("{start} gone=2"), "end", "nothing after"),
        (format!("{start} left=1"), "seat", "has left"),
        (
            format!("{start} left=2"),
            "rows",
            "pegs of set 3, whose seat 2 has left",
        ),
        (format!("{} x", game.position_text()), "end", "found `x`"),
    ];
    for (text, field, message) in cases {
        let error = read(&text).unwrap_err();
        assert_eq!(error.field, field, "{text}: {error}");
        assert!(error.to_string().contains(message), "{text}: {error}");
    }
    // The last departure ended the game: that seat's pegs stay, and the text reads back.
    let ended = game.position_text().replace(" 1 left=3", " 2 left=3,1");
    assert_eq!(read(&ended).unwrap().status(), won_by(2));
}
