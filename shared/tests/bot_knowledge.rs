//! A bot knows what a player in its seat knows (invariant 7): with `total=die` the die rolls
//! still to come are not part of its thinking, so every seed that gave the same rolls so far
//! gets the same move from it (issue 31 saw `m13-m9` and `i13-i9` for one first roll).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use turnpost_shared::bot::{analyse, choose_move, BotLevel};
use turnpost_shared::{AnyGame, GameKind, Options};

/// The Kechi start of a die game with `seed`, plus its options.
fn start(seed: u64) -> AnyGame {
    let options = Options::from_pairs(["total=die".to_owned(), format!("seed={seed}")]).unwrap();
    AnyGame::new(GameKind::Kechi, &options).unwrap()
}

/// Seeds grouped by the position texts (which show each turn's roll) of the first `plies`
/// plies of a fixed line of play (each side's first legal move): seeds in one group gave the
/// same rolls so far, and reach the same position.
fn seeds_by_rolls(plies: usize) -> Vec<(AnyGame, Vec<u64>)> {
    let mut groups: BTreeMap<String, (AnyGame, Vec<u64>)> = BTreeMap::new();
    for seed in 0..3000 {
        let mut game = start(seed);
        let mut seen = vec![game.position_text()];
        for _ in 0..plies {
            let mv = game.legal_moves()[0].clone();
            game = game.play(&mv).unwrap().0;
            seen.push(game.position_text());
        }
        groups
            .entry(seen.join("|"))
            .or_insert_with(|| (game.clone(), Vec::new()))
            .1
            .push(seed);
    }
    groups
        .into_values()
        .filter(|(_, seeds)| seeds.len() >= 4)
        .collect()
}

#[test]
fn the_bot_plays_the_same_move_for_every_seed_with_the_same_rolls_so_far() {
    for plies in [0, 2] {
        let groups = seeds_by_rolls(plies);
        assert!(groups.len() >= 2, "few groups of seeds after {plies} plies");
        for (_, seeds) in groups.iter().take(3) {
            for level in [1, 3] {
                let level = BotLevel::new(level).unwrap();
                let moves: BTreeMap<String, Vec<u64>> =
                    seeds
                        .iter()
                        .take(6)
                        .fold(BTreeMap::new(), |mut moves, seed| {
                            let mut game = start(*seed);
                            for _ in 0..plies {
                                let mv = game.legal_moves()[0].clone();
                                game = game.play(&mv).unwrap().0;
                            }
                            let mv = choose_move(&game, level, 7).unwrap();
                            moves.entry(mv).or_default().push(*seed);
                            moves
                        });
                assert_eq!(
                    moves.len(),
                    1,
                    "after {plies} plies at level {level}, seeds with the same rolls so far \
                     got different moves: {moves:?}"
                );
                // The values the bot reports (a server judges draw offers by them) do not see
                // the future either.
                let values: Vec<Vec<u64>> = seeds
                    .iter()
                    .take(3)
                    .map(|seed| {
                        let mut game = start(*seed);
                        for _ in 0..plies {
                            let mv = game.legal_moves()[0].clone();
                            game = game.play(&mv).unwrap().0;
                        }
                        let choice = analyse(&game, level, 7).unwrap();
                        choice.values.iter().map(|v| v.to_bits()).collect()
                    })
                    .collect();
                assert!(values.windows(2).all(|w| w[0] == w[1]), "{values:?}");
            }
        }
    }
}

/// A position read with the seed withheld (as a server shows a running game) gets the same
/// move as the same position of any game with a seed: only the roll shown is known.
#[test]
fn the_bot_plays_the_same_move_with_the_seed_withheld() {
    let (game, seeds) = seeds_by_rolls(2).into_iter().next().unwrap();
    let text = game.position_text();
    let withheld = AnyGame::from_position_text_seed_withheld(
        &Options::from_pairs(["total=die"]).unwrap(),
        &text,
    )
    .unwrap();
    let level = BotLevel::new(2).unwrap();
    let expected = choose_move(&withheld, level, 5).unwrap();
    for seed in seeds.iter().take(4) {
        let mut seeded = start(*seed);
        for _ in 0..2 {
            let mv = seeded.legal_moves()[0].clone();
            seeded = seeded.play(&mv).unwrap().0;
        }
        assert_eq!(seeded.position_text(), text);
        assert_eq!(
            choose_move(&seeded, level, 5).unwrap(),
            expected,
            "seed {seed}"
        );
    }
}
