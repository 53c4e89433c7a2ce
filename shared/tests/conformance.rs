//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::{Game, GameKind, Kefren, Options, SanQi};

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
