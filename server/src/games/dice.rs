//! The dice seed of a game (Kechi `total=die`): drawn by the server when the game starts (so
//! nothing a challenge shows, and no withdrawing and challenging again, tells or picks a
//! roll), and secret while the game can still be played: players see its commitment (the
//! SHA-256 of its decimal digits) from the start, and the seed itself once the game is
//! finished, so that every roll can be checked then. Every place that shows a game's options
//! to players goes through [`shown_options`].

use turnpost_shared::play::seed_commitment;
use turnpost_shared::{AnyGame, GameKind, Options};

use super::GameStatus;
use crate::db::games::Game;
use crate::db::DbError;

/// The option holding a variant's dice seed (Kechi's `seed`).
pub const SEED: &str = "seed";

/// Whether `kind`'s options take a seed.
#[must_use]
pub fn takes_seed(kind: GameKind) -> bool {
    AnyGame::option_specs(kind)
        .iter()
        .any(|spec| spec.key == SEED)
}

/// Whether `game` (with its stored `options`) is a challenge whose seed is not drawn yet: its
/// start position has no roll (see [`AnyGame::new_seed_withheld`]).
#[must_use]
pub fn undrawn(game: &Game, options: &Options) -> bool {
    game.started_at.is_none() && options.get(SEED).is_none() && takes_seed(game.kind)
}

/// The options of `game` with a freshly drawn seed, and its start position with them, for a
/// kind that takes a seed; `None` for other kinds. Called as the game starts.
///
/// # Errors
/// [`DbError::Corrupt`] for stored options the engine refuses (a bug).
pub fn draw(game: &Game) -> Result<Option<(Options, AnyGame)>, DbError> {
    if !takes_seed(game.kind) {
        return Ok(None);
    }
    let mut options = super::stored_options(game)?;
    options.set(SEED, random_seed().to_string());
    let start = AnyGame::new(game.kind, &options)
        .map_err(|e| DbError::Corrupt(format!("game {}: stored options: {e}", game.id)))?;
    Ok(Some((start.options(), start)))
}

/// Whether players may see `game`'s seed: once it is finished and no roll is left to come.
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

/// `options` without the seed.
#[must_use]
pub fn without_seed(options: &Options) -> Options {
    let mut shown = options.clone();
    shown.remove(SEED);
    shown
}

/// The commitment to the seed in a game's stored `options`, once it is drawn: see
/// [`turnpost_shared::play::seed_commitment`].
#[must_use]
pub fn commitment(options: &Options) -> Option<String> {
    options
        .get(SEED)
        .and_then(|seed| seed.parse::<u64>().ok())
        .map(seed_commitment)
}

/// A seed nobody can predict: from the operating system's generator.
fn random_seed() -> u64 {
    let mut bytes = [0u8; 8];
    if getrandom::fill(&mut bytes).is_err() {
        // The system generator failing is exceptional; the clock is a poor but working stand-in.
        let now = chrono::Utc::now().timestamp_nanos_opt().unwrap_or_default();
        return now.unsigned_abs().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    u64::from_le_bytes(bytes)
}
