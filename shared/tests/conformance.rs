//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::{ChineseCheckers, Game, GameKind, Kefren, Options};

/// Perft counts above this many nodes are left to the benchmarks.
const PERFT_BUDGET: u64 = 600_000;

#[test]
fn kefren_playouts() {
    let start = Kefren::new(&Options::new()).unwrap();
    common::check_playouts(&start, 12, 300, 1);
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
    assert_eq!(checked, 30);
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
