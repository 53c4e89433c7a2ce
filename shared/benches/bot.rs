//! Bot benchmark: `cargo bench -p turnpost-shared --bench bot [LEVEL…]`.
//! For each game variant and level, the mean and worst time per move over a few positions
//! (the start and positions a few random plies in), one thread.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use turnpost_shared::bot::{choose_move, random_move, BotLevel};
use turnpost_shared::{AnyGame, GameKind, Options};

const CASES: &[(&str, GameKind, &[&str])] = &[
    ("kefren", GameKind::Kefren, &[]),
    ("kechi", GameKind::Kechi, &[]),
    ("kechi total=die", GameKind::Kechi, &["total=die", "seed=5"]),
    (
        "kechi lines=7 tokens",
        GameKind::Kechi,
        &["lines=7", "scoring=tokens"],
    ),
    ("sanqi", GameKind::SanQi, &[]),
    ("sanqi side=10", GameKind::SanQi, &["side=10"]),
    ("chinese-checkers 2p", GameKind::ChineseCheckers, &[]),
    (
        "chinese-checkers 3p",
        GameKind::ChineseCheckers,
        &["players=3"],
    ),
    (
        "chinese-checkers 6p",
        GameKind::ChineseCheckers,
        &["players=6"],
    ),
    (
        "chinese-checkers 2p sets=3",
        GameKind::ChineseCheckers,
        &["sets=3"],
    ),
];

/// Positions to time: the start and a few positions some random plies in.
fn positions(kind: GameKind, options: &[&str]) -> Vec<AnyGame> {
    let options = Options::from_pairs(options).unwrap();
    let start = AnyGame::new(kind, &options).unwrap();
    let mut found = vec![start.clone()];
    for (seed, plies) in [(1u64, 6u64), (2, 16), (3, 30)] {
        let mut game = start.clone();
        for ply in 0..plies {
            let Ok(mv) = random_move(&game, seed * 1000 + ply) else {
                break;
            };
            game = game.play(&mv).unwrap().0;
        }
        if !game.status().is_over() {
            found.push(game);
        }
    }
    found
}

fn main() {
    let levels: Vec<BotLevel> = std::env::args()
        .skip(1)
        .filter_map(|arg| arg.parse().ok())
        .collect();
    let levels = if levels.is_empty() {
        (1..=5).filter_map(BotLevel::new).collect()
    } else {
        levels
    };
    println!(
        "{:<28} {:>5} {:>10} {:>10}",
        "game", "level", "mean ms", "worst ms"
    );
    for (name, kind, options) in CASES {
        let games = positions(*kind, options);
        for level in &levels {
            let mut total = 0.0;
            let mut worst: f64 = 0.0;
            for (index, game) in games.iter().enumerate() {
                let started = Instant::now();
                let mv = choose_move(game, *level, index as u64).unwrap();
                let seconds = started.elapsed().as_secs_f64() * 1000.0;
                assert!(game.canonical_move(&mv).is_ok());
                total += seconds;
                worst = worst.max(seconds);
            }
            println!(
                "{name:<28} {level:>5} {:>10.1} {worst:>10.1}",
                total / games.len() as f64
            );
        }
    }
}
