//! A challenge's kind and options, as JSON gives them, checked by the engine.

use std::collections::BTreeMap;

use turnpost_shared::api::OptionValue;
use turnpost_shared::{AnyGame, GameKind, Options};

use super::dice::{self, SEED};
use super::GameError;

/// Takes `kind` and the JSON options of a game for `seats` named players and returns the start
/// position (whose `options()` are the canonical options to store). The engine completes the
/// options for the seats ([`AnyGame::options_for_seats`]: Chinese Checkers' `players`) and
/// checks them. The seed of kinds whose options take one is not drawn here but when the game
/// starts ([`super::dice::draw`]), so a challenge shows no roll.
///
/// # Errors
/// [`GameError::InvalidOptions`] naming the key (unknown key, bad value, a key
/// given twice in different case, a `seed`, which the server draws itself).
pub fn start_position(
    kind: GameKind,
    given: &BTreeMap<String, OptionValue>,
    seats: usize,
) -> Result<AnyGame, GameError> {
    let takes_seed = dice::takes_seed(kind);
    let mut options = Options::new();
    for (key, value) in given {
        let key = key.trim().to_ascii_lowercase();
        if options.get(&key).is_some() {
            return Err(GameError::InvalidOptions(format!(
                "option `{key}` was given twice"
            )));
        }
        if key == SEED && takes_seed {
            return Err(GameError::InvalidOptions(
                "option `seed` is drawn by the server so that no player chooses the dice; leave it out"
                    .to_owned(),
            ));
        }
        options.set(&key, value.to_text().trim());
    }
    let options = AnyGame::options_for_seats(kind, &options, seats);
    AnyGame::new_seed_withheld(kind, &options).map_err(|e| GameError::InvalidOptions(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(pairs: &[(&str, OptionValue)]) -> BTreeMap<String, OptionValue> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), v.clone()))
            .collect()
    }

    #[test]
    fn numbers_and_strings_read_as_text_and_no_seed_is_drawn_yet() {
        let game = start_position(
            GameKind::ChineseCheckers,
            &opts(&[("players", OptionValue::Whole(3))]),
            3,
        )
        .unwrap();
        assert_eq!(game.seat_count(), 3);
        let game = start_position(
            GameKind::Kechi,
            &opts(&[("total", OptionValue::Text("die".into()))]),
            2,
        )
        .unwrap();
        assert!(game.options().get("seed").is_none());
        assert!(game.position_text().ends_with(" w ? 0 0 0"));
    }

    #[test]
    fn the_engine_fills_in_the_number_of_players_from_the_seats() {
        let game = start_position(GameKind::ChineseCheckers, &opts(&[]), 4).unwrap();
        assert_eq!(game.seat_count(), 4);
        assert_eq!(game.options().get("players"), Some("4"));
        // A number given is the game's, whatever the seats (the caller compares them).
        let game = start_position(
            GameKind::ChineseCheckers,
            &opts(&[(" Players", OptionValue::Whole(6))]),
            3,
        )
        .unwrap();
        assert_eq!(game.seat_count(), 6);
        let error = start_position(GameKind::ChineseCheckers, &opts(&[]), 5)
            .unwrap_err()
            .to_string();
        assert!(error.contains("players=5"), "{error}");
    }

    #[test]
    fn errors_name_the_key() {
        let error = start_position(
            GameKind::Kefren,
            &opts(&[("colour", OptionValue::Flag(true))]),
            2,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("colour"), "{error}");
        let error = start_position(
            GameKind::Kechi,
            &opts(&[("seed", OptionValue::Whole(1))]),
            2,
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("seed"), "{error}");
    }
}
