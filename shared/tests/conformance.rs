//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::{Game, GameKind, Kechi, Kefren, Options};

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

fn kechi(options: &[&str]) -> Kechi {
    Kechi::new(&Options::from_pairs(options).unwrap()).unwrap()
}

#[test]
fn kechi_playouts() {
    common::check_playouts(&kechi(&[]), 3, 60, 1);
}

#[test]
fn kechi_die_playouts() {
    common::check_playouts(&kechi(&["total=die", "seed=1"]), 3, 80, 2);
    common::check_playouts(
        &kechi(&["total=die", "seed=12345678901234567890"]),
        3,
        80,
        3,
    );
}

#[test]
fn kechi_tokens_playouts() {
    common::check_playouts(&kechi(&["scoring=tokens"]), 3, 60, 4);
    common::check_playouts(&kechi(&["scoring=tokens", "total=die", "seed=9"]), 3, 80, 5);
}

// The larger boards have thousands of turns per position (40796 at the start of lines=7), each
// parsed, resolved and played by the harness: one short playout each keeps debug runs quick.
#[test]
fn kechi_lines_5_playouts() {
    common::check_playouts(&kechi(&["lines=5"]), 1, 40, 6);
}

#[test]
fn kechi_lines_6_playouts() {
    common::check_playouts(&kechi(&["lines=6", "total=die", "seed=3"]), 1, 40, 7);
}

#[test]
fn kechi_lines_7_playouts() {
    common::check_playouts(&kechi(&["lines=7", "total=die", "seed=7"]), 1, 40, 8);
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
