//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::{Game, GameKind, Kefren, Options};

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
