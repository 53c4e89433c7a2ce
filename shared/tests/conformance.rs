//! The engine contract, checked on every game.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use turnpost_shared::{Game, GameKind, Kefren, Options, SanQi};

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
