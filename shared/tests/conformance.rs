//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::games::{ChineseCheckers, Kechi, Kefren, SanQi};
use turnpost_shared::{Game, GameKind, Options};

/// Perft counts above this many nodes are left to the benchmarks.
const PERFT_BUDGET: u64 = 600_000;

#[test]
fn kefren_playouts() {
    let start = Kefren::new(&Options::new()).unwrap();
    common::check_playouts(&start, 8, 200, 1);
}

#[test]
fn kefren_perft_table() {
    let checked = common::check_perft_file(
        GameKind::Kefren,
        include_str!("perft/kefren.perft"),
        PERFT_BUDGET,
    );
    assert_eq!(checked, 4);
}

#[test]
fn kefren_parsers_never_panic() {
    common::check_parsers_never_panic(&Kefren::new(&Options::new()).unwrap(), 2000);
}

fn kechi(options: &[&str]) -> Kechi {
    Kechi::new(&Options::from_pairs(options).unwrap()).unwrap()
}

#[test]
fn kechi_playouts() {
    common::check_playouts(&kechi(&[]), 10, 100, 1);
}

#[test]
fn kechi_die_playouts() {
    common::check_playouts(&kechi(&["total=die", "seed=1"]), 6, 150, 2);
    common::check_playouts(
        &kechi(&["total=die", "seed=12345678901234567890"]),
        6,
        150,
        3,
    );
}

#[test]
fn kechi_tokens_playouts() {
    common::check_playouts(&kechi(&["scoring=tokens"]), 6, 100, 4);
    common::check_playouts(
        &kechi(&["scoring=tokens", "total=die", "seed=9"]),
        6,
        150,
        5,
    );
}

// The larger boards have thousands of turns per position (40796 at the start of lines=7), each
// parsed, resolved and played by the harness: few playouts keep debug runs quick.
#[test]
fn kechi_lines_5_playouts() {
    common::check_playouts(&kechi(&["lines=5"]), 3, 100, 6);
}

#[test]
fn kechi_lines_6_playouts() {
    common::check_playouts(&kechi(&["lines=6", "total=die", "seed=3"]), 3, 150, 7);
}

#[test]
fn kechi_lines_7_playouts() {
    common::check_playouts(&kechi(&["lines=7", "total=die", "seed=7"]), 2, 150, 8);
    // The full total on the largest board: 40796 turns at the start, so only a few plies.
    common::check_playouts(&kechi(&["lines=7"]), 1, 3, 9);
}

#[test]
fn kechi_perft_table() {
    let checked = common::check_perft_file(
        GameKind::Kechi,
        include_str!("perft/kechi.perft"),
        PERFT_BUDGET,
    );
    assert_eq!(checked, 12);
}

#[test]
fn kechi_parsers_never_panic() {
    common::check_parsers_never_panic(&kechi(&[]), 1000);
    common::check_parsers_never_panic(&kechi(&["lines=7", "scoring=tokens"]), 1000);
}

#[test]
fn any_game_serialises_as_kind_options_and_position() {
    use turnpost_shared::AnyGame;
    let game = AnyGame::new(GameKind::Kefren, &Options::new())
        .unwrap()
        .replay(&["F2-F3"])
        .unwrap();
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["kind"], "kefren");
    assert_eq!(json["position"], game.position_text());
    let back: AnyGame = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.position_text(), game.position_text());
    // A snapshot whose position is not of its kind is refused.
    let mut wrong = json;
    wrong["position"] = "kefren 9 b".into();
    assert!(serde_json::from_value::<AnyGame>(wrong).is_err());
}

/// The public goal is said of the seat, never to "you": spectators read it on the game page.
#[test]
fn public_goals_do_not_address_the_reader() {
    use turnpost_shared::{AnyGame, Seat};
    let variants: [(GameKind, &[&str]); 7] = [
        (GameKind::Kefren, &[]),
        (GameKind::Kechi, &[]),
        (GameKind::Kechi, &["scoring=tokens", "total=die"]),
        (GameKind::SanQi, &[]),
        (GameKind::ChineseCheckers, &["players=2"]),
        (
            GameKind::ChineseCheckers,
            &["players=3", "anti-spoiling=parlett"],
        ),
        (
            GameKind::ChineseCheckers,
            &["players=6", "anti-spoiling=none"],
        ),
    ];
    for (kind, options) in variants {
        let options = Options::from_pairs(options.iter().copied()).unwrap();
        let game = AnyGame::new(kind, &options).unwrap();
        for number in 1..=game.seat_count() {
            let seat = Seat::new(number).unwrap();
            let public = game.public_goal(seat);
            let words: Vec<String> = public
                .split(|c: char| !c.is_alphanumeric())
                .map(str::to_lowercase)
                .collect();
            assert!(
                !words.iter().any(|w| w == "you" || w == "your"),
                "{kind:?} seat {number}: {public}"
            );
            assert!(
                public.to_lowercase().starts_with(
                    &game
                        .seat_name(seat)
                        .split(' ')
                        .next()
                        .unwrap()
                        .to_lowercase()
                ),
                "{kind:?} seat {number}: {public} names the seat first"
            );
        }
    }
}

fn sanqi(side: u8) -> SanQi {
    SanQi::new(&Options::from_pairs([format!("side={side}")]).unwrap()).unwrap()
}

// Random games end with a pattern after about 40 plies on side 4 and 80 on side 6; the bound
// only matters if a full board turns into a long fight of replacements.
#[test]
fn sanqi_playouts_side_4() {
    common::check_playouts(&sanqi(4), 20, 150, 1);
}

#[test]
fn sanqi_playouts_side_6() {
    common::check_playouts(&sanqi(6), 4, 150, 2);
}

#[test]
fn sanqi_playouts_side_10() {
    common::check_playouts(&sanqi(10), 1, 40, 3);
}

#[test]
fn sanqi_perft_table() {
    let checked = common::check_perft_file(
        GameKind::SanQi,
        include_str!("perft/sanqi.perft"),
        PERFT_BUDGET,
    );
    assert_eq!(checked, 15);
}

#[test]
fn sanqi_parsers_never_panic() {
    common::check_parsers_never_panic(&sanqi(4), 1500);
    common::check_parsers_never_panic(&sanqi(10), 500);
}

/// Every seat layout and every variant option, each with a few bounded random playouts.
const CHINESE_CHECKERS_VARIANTS: &[&[&str]] = &[
    &[],
    &["players=3"],
    &["players=4"],
    &["players=6"],
    &["players=2", "sets=3"],
    &["players=3", "sets=2"],
    &["unused=filled"],
    &["players=4", "unused=filled"],
    &["jumps=long"],
    &["players=6", "jumps=long"],
    &["anti-spoiling=none"],
    &["anti-spoiling=swap"],
    &["players=3", "anti-spoiling=swap", "jumps=long"],
];

#[test]
fn chinese_checkers_playouts() {
    for (index, options) in CHINESE_CHECKERS_VARIANTS.iter().enumerate() {
        let start = ChineseCheckers::new(&Options::from_pairs(*options).unwrap()).unwrap();
        common::check_playouts(&start, 2, 40, index as u64 + 1);
    }
}

#[test]
fn chinese_checkers_perft_table() {
    let checked = common::check_perft_file(
        GameKind::ChineseCheckers,
        include_str!("perft/chinese-checkers.perft"),
        PERFT_BUDGET,
    );
    assert_eq!(checked, 42);
}

#[test]
fn chinese_checkers_parsers_never_panic() {
    for options in [
        &[][..],
        &["players=6", "unused=open"],
        &["players=4", "unused=filled"],
    ] {
        let game = ChineseCheckers::new(&Options::from_pairs(options).unwrap()).unwrap();
        common::check_parsers_never_panic(&game, 700);
    }
}

/// Seats leave at random points of random games, in every Chinese Checkers variant of three or
/// more seats (play goes on) and in two-seat games of every kind (the departure ends the game).
#[test]
fn departure_playouts_of_every_multi_seat_variant() {
    let variants: &[&[&str]] = &[
        &["players=3"],
        &["players=4"],
        &["players=6"],
        &["players=3", "sets=2"],
        &["players=4", "unused=filled"],
        &["players=6", "jumps=long"],
        &["players=3", "anti-spoiling=swap"],
        &["players=4", "anti-spoiling=none"],
        &["players=6", "anti-spoiling=swap", "jumps=long"],
    ];
    for (seed, options) in (1..).zip(variants) {
        let (departures, ended) =
            common::check_departure_playouts(GameKind::ChineseCheckers, options, 3, 150, 20, seed);
        assert!(departures >= 3, "{options:?}: {departures} departures");
        assert!(ended >= 1, "{options:?}: no game ended by departures");
    }
}

#[test]
fn departures_end_two_seat_games_of_every_kind() {
    let kinds: &[(GameKind, &[&str])] = &[
        (GameKind::Kefren, &[]),
        (GameKind::Kechi, &[]),
        (GameKind::SanQi, &[]),
        (GameKind::ChineseCheckers, &[]),
        (GameKind::ChineseCheckers, &["sets=3"]),
    ];
    for (seed, (kind, options)) in (100..).zip(kinds) {
        let (departures, ended) = common::check_departure_playouts(*kind, options, 4, 60, 15, seed);
        assert_eq!(
            departures, ended,
            "{kind}: a departure did not end the game"
        );
        assert!(departures >= 2, "{kind}: {departures} departures");
    }
}

#[test]
fn a_departure_ends_a_two_seat_game_and_the_record_keeps_it() {
    use turnpost_shared::{AnyGame, GameRecord, MoveError, Seat, Status};
    let record =
        GameRecord::parse("[Kind \"kefren\"]\n[Options \"\"]\n\nF2-F3\nResign  2\n").unwrap();
    let game = record.replay().unwrap();
    assert_eq!(game.status(), Status::won_by(Seat::FIRST));
    assert_eq!(game.placings(), Some(vec![1, 2]));
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.perft(2), 0);
    let text = game.position_text();
    assert!(text.ends_with(" left=2"), "{text}");
    let read = AnyGame::from_position_text(&Options::new(), &text).unwrap();
    assert_eq!(read.status(), game.status());
    assert_eq!(read.departed(), [Seat::new(2).unwrap()]);
    // No move after the end, but a syntax error is still a syntax error.
    let error = game.play("E18-E17").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("the game is over: seat 2 has left"),
        "{error}"
    );
    assert!(matches!(game.play("E18-"), Err(MoveError::Syntax(_))));
    // `left=` must name a seat of the game, of a game that was still going on.
    let bad = text.replace("left=2", "left=3");
    let error = AnyGame::from_position_text(&Options::new(), &bad).unwrap_err();
    assert!(error.to_string().contains("1 to 2"), "{error}");
    let twice = format!("{text} left=1");
    assert!(AnyGame::from_position_text(&Options::new(), &twice).is_err());
    // The snapshot (JSON) keeps the departure too.
    let json = serde_json::to_value(&game).unwrap();
    let back: AnyGame = serde_json::from_value(json).unwrap();
    assert_eq!(back.status(), game.status());
}

/// Perft by the general generator: every legal move played as text through [`AnyGame`].
fn general_perft(game: &turnpost_shared::AnyGame, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    game.legal_moves()
        .iter()
        .map(|mv| general_perft(&game.play(mv).unwrap().0, depth - 1))
        .sum()
}

/// The fast counter skips the seats that left and frees their points like the general
/// generator, three plies deep (turn order wraps past the seats that left).
#[test]
fn perft_after_departures_agrees_with_the_general_generator() {
    use turnpost_shared::AnyGame;
    let cases: &[(&[&str], &[&str])] = &[
        (&["players=6"], &["resign 2", "timeout 5"]),
        (&["players=3", "sets=2"], &["N10-M10", "claim 3"]),
        (&["players=4", "unused=filled"], &["resign 1"]),
        (
            &["players=4", "anti-spoiling=swap", "jumps=long"],
            &["resign 3"],
        ),
    ];
    for (options, lines) in cases {
        let start = AnyGame::new(
            GameKind::ChineseCheckers,
            &Options::from_pairs(*options).unwrap(),
        )
        .unwrap();
        let game = start.replay(lines).unwrap();
        let fast: Vec<u64> = (1..=3).map(|depth| game.perft(depth)).collect();
        let general: Vec<u64> = (1..=3).map(|depth| general_perft(&game, depth)).collect();
        assert_eq!(fast, general, "{options:?} {lines:?}");
    }
}

/// Departure lines of any shape: never a panic; a syntax error points inside the text.
#[test]
fn departure_parsing_never_panics() {
    use proptest::prelude::*;
    use turnpost_shared::{AnyGame, MoveError};
    let game = AnyGame::new(
        GameKind::ChineseCheckers,
        &Options::from_pairs(["players=3"]).unwrap(),
    )
    .unwrap();
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig {
        cases: 2000,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = prop_oneof![
        "(resign|Timeout|CLAIM|claim)[ \t]{0,2}[0-9a-zé ,-]{0,12}",
        "[ ]{0,2}(resign|timeout)[0-9]{0,25}",
        ".*",
    ];
    runner
        .run(&strategy, |text| {
            match game.play_line(&text) {
                Ok((next, canonical)) => {
                    prop_assert_eq!(next.play_line(&canonical).is_err(), true);
                }
                Err(MoveError::Syntax(error)) => {
                    prop_assert!(error.offset <= text.len(), "offset past the end: {error}");
                }
                Err(MoveError::Illegal { reason }) => prop_assert!(!reason.is_empty()),
            }
            Ok(())
        })
        .unwrap();
}
