//! Reading a Kechi die game whose seed is withheld (`AnyGame::from_position_text_seed_withheld`),
//! as the CLI reads a running game on a server: the roll in the text is the turn in progress,
//! later rolls are unknown, and the spec's own reading is unchanged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnpost_shared::play::seed_commitment;
use turnpost_shared::{AnyGame, GameKind, Options, Status};

fn options(pairs: &[&str]) -> Options {
    Options::from_pairs(pairs).unwrap()
}

/// A game of `seed` after `plies` turns (the first legal turn each time), read with the seed.
fn played(seed: u64, plies: usize) -> AnyGame {
    let mut game = AnyGame::new(
        GameKind::Kechi,
        &options(&["total=die", &format!("seed={seed}"), "lines=5"]),
    )
    .unwrap();
    for _ in 0..plies {
        let mv = game.legal_moves().into_iter().next().unwrap();
        game = game.play(&mv).unwrap().0;
    }
    game
}

#[test]
fn the_turn_in_progress_reads_as_with_the_seed() {
    let hidden = options(&["total=die", "lines=5"]);
    for (seed, plies) in [(7u64, 0), (7, 3), (12_345_678_901, 6), (u64::MAX, 5)] {
        let seeded = played(seed, plies);
        let text = seeded.position_text();
        let withheld = AnyGame::from_position_text_seed_withheld(&hidden, &text).unwrap();
        assert_eq!(withheld.position_text(), text);
        assert_eq!(withheld.legal_moves(), seeded.legal_moves());
        assert_eq!(withheld.status(), seeded.status());
        assert_eq!(withheld.board_view(), seeded.board_view());
        assert!(!withheld.options().iter().any(|(key, _)| key == "seed"));
        let mv = seeded.legal_moves().pop().unwrap();
        assert_eq!(withheld.canonical_move(&mv).unwrap(), mv);
        // After the turn the next roll is not known: no moves, still going, `?` for the total.
        let (after, _) = withheld.play(&mv).unwrap();
        assert!(after.legal_moves().is_empty());
        assert!(matches!(after.status(), Status::Ongoing { .. }));
        let fields: Vec<String> = after
            .position_text()
            .split(' ')
            .map(str::to_owned)
            .collect();
        assert_eq!(fields[3], "?");
        assert!(
            AnyGame::from_position_text_seed_withheld(&hidden, &after.position_text()).is_err()
        );
    }
}

#[test]
fn the_specified_reading_is_unchanged() {
    let seeded = played(42, 2);
    let text = seeded.position_text();
    let roll = text.split(' ').nth(3).unwrap().parse::<u8>().unwrap();
    let wrong = text.replacen(&format!(" w {roll} "), &format!(" w {} ", roll % 6 + 1), 1);
    // With the seed given, both readings check the total against the roll of the ply.
    let given = options(&["total=die", "seed=42", "lines=5"]);
    let error = AnyGame::from_position_text_seed_withheld(&given, &wrong).unwrap_err();
    assert!(error.to_string().contains("seed 42"), "{error}");
    assert!(AnyGame::from_position_text(&given, &wrong).is_err());
    // The engine commands' default seed is 0: without `seed` the strict reading checks seed 0.
    let hidden = options(&["total=die", "lines=5"]);
    let zero = AnyGame::new(GameKind::Kechi, &hidden).unwrap();
    assert!(zero.options().iter().any(|(k, v)| (k, v) == ("seed", "0")));
    let strict = AnyGame::from_position_text(&hidden, &wrong);
    let roll_of_seed_zero = played(0, 2)
        .position_text()
        .split(' ')
        .nth(3)
        .unwrap()
        .to_owned();
    let wrong_total = wrong.split(' ').nth(3).unwrap();
    assert_eq!(
        strict.is_ok(),
        roll_of_seed_zero == wrong_total,
        "{strict:?}"
    );
    // Any total 1-6 is taken when the seed is withheld, and nothing else.
    let read = AnyGame::from_position_text_seed_withheld(&hidden, &wrong);
    assert!(read.is_ok(), "{read:?}");
    let seven = text.replacen(&format!(" w {roll} "), " w 7 ", 1);
    let error = AnyGame::from_position_text_seed_withheld(&hidden, &seven).unwrap_err();
    assert!(error.to_string().contains("total"), "{error}");
}

#[test]
fn other_games_read_as_always() {
    let fixed = AnyGame::new(GameKind::Kechi, &Options::new()).unwrap();
    let text = fixed.position_text();
    let read = AnyGame::from_position_text_seed_withheld(&Options::new(), &text).unwrap();
    assert_eq!(read.position_text(), text);
    assert_eq!(read.legal_moves().len(), 989);
    let (after, _) = read.play(&read.legal_moves()[0]).unwrap();
    // With `total=6` every later total is known.
    assert!(!after.legal_moves().is_empty());
    assert_eq!(after.position_text().split(' ').nth(3), Some("6"));
}

#[test]
fn the_commitment_is_the_sha256_of_the_decimal_seed() {
    assert_eq!(
        seed_commitment(42),
        "73475cb40a568e8da8a045ced110137e159f890ac4da883b6b17dc651b3a8049"
    );
}

#[test]
fn a_start_without_a_drawn_seed_has_no_roll_yet() {
    let hidden = options(&["total=die"]);
    let start = AnyGame::new_seed_withheld(GameKind::Kechi, &hidden).unwrap();
    assert!(
        start.position_text().ends_with(" w ? 0 0 0"),
        "{}",
        start.position_text()
    );
    assert!(start.legal_moves().is_empty());
    assert!(matches!(start.status(), Status::Ongoing { .. }));
    assert!(!start.options().iter().any(|(key, _)| key == "seed"));
    // With a seed, with total=6, and for other games: the ordinary start.
    for (kind, pairs) in [
        (GameKind::Kechi, &["total=die", "seed=5"][..]),
        (GameKind::Kechi, &[][..]),
        (GameKind::Kefren, &[][..]),
    ] {
        let given = options(pairs);
        assert_eq!(
            AnyGame::new_seed_withheld(kind, &given)
                .unwrap()
                .position_text(),
            AnyGame::new(kind, &given).unwrap().position_text()
        );
    }
}
