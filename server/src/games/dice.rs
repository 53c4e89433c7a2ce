//! The dice seed of a game (Kechi `total=die`) stays secret while the game can still be played:
//! players see its commitment (the SHA-256 of its decimal digits) from the challenge on, and
//! the seed itself once the game is finished, so that every roll can be checked then. Every
//! place that shows a game's options to players goes through [`shown_options`].

use turnpost_shared::{seed_commitment, Options};

use super::GameStatus;
use crate::db::models::Game;

/// The option holding a variant's dice seed (Kechi's `seed`), drawn by the server.
pub const SEED: &str = "seed";

/// Whether players may see `game`'s seed: once it is finished and no roll is left to come.
/// A cancelled challenge keeps it: it was never played, so there is nothing to check.
#[must_use]
pub fn seed_revealed(game: &Game) -> bool {
    game.status == GameStatus::Finished
}

/// The options of `game` (read from its stored `options`) that players may see: without the
/// seed until the game is finished.
#[must_use]
pub fn shown_options(game: &Game, options: &Options) -> Options {
    if seed_revealed(game) {
        options.clone()
    } else {
        without_seed(options)
    }
}

/// `options` without the seed (a challenge being made, a running game).
#[must_use]
pub fn without_seed(options: &Options) -> Options {
    let mut shown = options.clone();
    shown.remove(SEED);
    shown
}

/// The commitment to the seed in `options`, for games that have one: see
/// [`turnpost_shared::seed_commitment`].
#[must_use]
pub fn commitment(options: &Options) -> Option<String> {
    options
        .get(SEED)
        .and_then(|seed| seed.parse::<u64>().ok())
        .map(seed_commitment)
}
