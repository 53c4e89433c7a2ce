//! The bot (issue 16): always a legal move, in every variant of every game, from random
//! positions; single legal moves and forced passes at once; an error when the game is over;
//! the same move for the same seed.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::Rng;
use turnpost_shared::bot::{choose_move, random_move, BotError, BotLevel};
use turnpost_shared::{AnyGame, GameKind, Options};

/// Every variant worth telling apart: each option value of each game at least once.
const VARIANTS: &[(GameKind, &[&str])] = &[
    (GameKind::Kefren, &[]),
    (GameKind::Kechi, &[]),
    (GameKind::Kechi, &["total=die", "seed=11"]),
    (GameKind::Kechi, &["scoring=tokens"]),
    (GameKind::Kechi, &["lines=5", "total=die", "seed=2"]),
    (GameKind::Kechi, &["lines=7", "scoring=tokens"]),
    (GameKind::SanQi, &[]),
    (GameKind::SanQi, &["side=6"]),
    (GameKind::SanQi, &["side=8"]),
    (GameKind::SanQi, &["side=10"]),
    (GameKind::ChineseCheckers, &[]),
    (GameKind::ChineseCheckers, &["players=3"]),
    (GameKind::ChineseCheckers, &["players=4"]),
    (GameKind::ChineseCheckers, &["players=6"]),
    (GameKind::ChineseCheckers, &["players=2", "sets=3"]),
    (GameKind::ChineseCheckers, &["players=3", "sets=2"]),
    (GameKind::ChineseCheckers, &["unused=filled", "jumps=long"]),
    (
        GameKind::ChineseCheckers,
        &["players=4", "anti-spoiling=swap"],
    ),
    (GameKind::ChineseCheckers, &["anti-spoiling=none"]),
];

fn level(number: u8) -> BotLevel {
    BotLevel::new(number).unwrap()
}

/// The position after `plies` random moves (or the last one before the game ended).
fn random_position(start: &AnyGame, plies: usize, rng: &mut Rng) -> AnyGame {
    let mut game = start.clone();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let next = game.play(&moves[rng.below(moves.len())]).unwrap().0;
        if next.status().is_over() {
            break;
        }
        game = next;
    }
    game
}

#[test]
fn the_bot_plays_a_legal_move_in_random_positions_of_every_variant() {
    let mut rng = Rng::new(16);
    for (kind, options) in VARIANTS {
        let start = AnyGame::new(*kind, &Options::from_pairs(*options).unwrap()).unwrap();
        for (round, plies) in [0, 5, 17, 40].into_iter().enumerate() {
            let game = random_position(&start, plies, &mut rng);
            if game.status().is_over() {
                continue;
            }
            let mv = choose_move(&game, level(1), round as u64).unwrap();
            assert!(
                game.legal_moves().contains(&mv),
                "{kind} {options:?}: {mv} is not legal in {}",
                game.position_text()
            );
            let random = random_move(&game, round as u64).unwrap();
            assert!(game.legal_moves().contains(&random));
        }
    }
}

#[test]
fn bots_finish_games_against_each_other_with_legal_moves() {
    for (kind, options) in [
        (GameKind::SanQi, &[][..]),
        (GameKind::Kechi, &["total=die", "seed=4"][..]),
    ] {
        let mut game = AnyGame::new(kind, &Options::from_pairs(options).unwrap()).unwrap();
        for ply in 0..400u64 {
            if game.status().is_over() {
                break;
            }
            let mv = choose_move(&game, level(1), ply).unwrap();
            game = game.play(&mv).unwrap().0;
        }
        assert!(game.status().is_over(), "{kind}: {}", game.position_text());
    }
}

/// Two-player Chinese Checkers: seat 1's only peg on A5 (its target's tip) between set-4 pegs.
fn chinese_checkers(top_rows: &str) -> AnyGame {
    let text = format!(
        "chinese-checkers {top_rows}/............./............/.........../........../\
         ........./........../.........../............/............./..../.../../. 1"
    );
    AnyGame::from_position_text(&Options::new(), &text).unwrap()
}

#[test]
fn a_single_legal_move_and_a_forced_pass_come_back_at_once() {
    // B5 and C5 block the step and the hop down the left edge; B6 is the only way out.
    let single = chinese_checkers("1/4./4../....");
    assert_eq!(single.legal_moves(), ["A5-B6"]);
    assert_eq!(choose_move(&single, level(5), 0).unwrap(), "A5-B6");
    // Both steps and both hops blocked: seat 1 must pass.
    let stuck = chinese_checkers("1/44/4.4/....");
    assert_eq!(stuck.legal_moves(), ["pass"]);
    assert_eq!(choose_move(&stuck, level(5), 0).unwrap(), "pass");
}

#[test]
fn a_finished_game_is_an_error() {
    let finished = AnyGame::from_position_text(
        &Options::new(),
        "kefren b8/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/9/bb7/9 w",
    )
    .unwrap();
    let error = choose_move(&finished, level(1), 0).unwrap_err();
    assert!(matches!(error, BotError::GameOver(_)));
    assert!(error.to_string().contains("game is over"), "{error}");
    assert!(random_move(&finished, 0).is_err());
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let mut rng = Rng::new(3);
    for (kind, options) in VARIANTS.iter().step_by(3) {
        let start = AnyGame::new(*kind, &Options::from_pairs(*options).unwrap()).unwrap();
        let game = random_position(&start, 9, &mut rng);
        if game.status().is_over() {
            continue;
        }
        for seed in [0, 7] {
            let first = choose_move(&game, level(2), seed).unwrap();
            assert_eq!(choose_move(&game, level(2), seed).unwrap(), first, "{kind}");
        }
    }
}

#[test]
fn the_bot_takes_a_win_in_one() {
    // SanQi seed example 1 (RULES.md): after First's R@d4, Second completes the red triangle
    // b3 c3 d3 c4 d4 d5 with R@b3.
    let stones = [
        "R@c3", "R@c4", "R@d3", "R@d5", "R@e5", "R@e6", "R@f3", "R@f4", "B@e3", "B@e4", "B@f5",
        "Y@g7", "R@d4",
    ];
    let start = AnyGame::new(GameKind::SanQi, &Options::new()).unwrap();
    let game = start.replay(&stones).unwrap();
    assert!(!game.status().is_over());
    for seed in 0..3 {
        let mv = choose_move(&game, level(1), seed).unwrap();
        let after = game.play(&mv).unwrap().0;
        assert_eq!(after.status().to_string(), "won 2", "{mv} does not win");
    }
}

#[test]
fn levels_read_from_text() {
    assert_eq!("3".parse::<BotLevel>().unwrap(), level(3));
    assert!("0".parse::<BotLevel>().is_err());
    assert!("6".parse::<BotLevel>().is_err());
    assert!("x".parse::<BotLevel>().is_err());
}

#[test]
fn analyse_gives_a_value_per_seat() {
    let game = AnyGame::new(
        GameKind::ChineseCheckers,
        &Options::from_pairs(["players=3"]).unwrap(),
    )
    .unwrap();
    let choice = turnpost_shared::bot::analyse(&game, level(1), 0).unwrap();
    assert!(game.legal_moves().contains(&choice.mv));
    assert_eq!(choice.values.len(), 3);
    assert!(choice
        .values
        .iter()
        .all(|value| (0.0..=1.0).contains(value)));
    // Black to move captures White's last stone: the search sees the win.
    let winning = AnyGame::from_position_text(
        &Options::new(),
        "kefren 9/9/9/9/9/9/9/9/9/9/3bw4/3b5/9/9/9/9/9/9/9 b",
    )
    .unwrap();
    let choice = turnpost_shared::bot::analyse(&winning, level(1), 0).unwrap();
    assert!(choice.values[0] > 0.9, "{:?}", choice.values);
}
