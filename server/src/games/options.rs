//! A challenge's kind and options, as JSON gives them, checked by the engine.

use std::collections::BTreeMap;

use turnpost_shared::{AnyGame, GameKind, OptionValue, Options};

use super::dice::{self, SEED};
use super::GameError;

/// Takes `kind` and the JSON options and returns the start position (whose `options()` are
/// the canonical options to store). The seed of kinds whose options take one is not drawn
/// here but when the game starts ([`super::dice::draw`]), so a challenge shows no roll.
///
/// # Errors
/// [`GameError::InvalidOptions`] naming the key (unknown key, bad value, a key
/// given twice in different case, a `seed`, which the server draws itself).
pub fn start_position(
    kind: GameKind,
    given: &BTreeMap<String, OptionValue>,
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
        )
        .unwrap();
        assert_eq!(game.seat_count(), 3);
        let game = start_position(
            GameKind::Kechi,
            &opts(&[("total", OptionValue::Text("die".into()))]),
        )
        .unwrap();
        assert!(game.options().get("seed").is_none());
        assert!(game.position_text().ends_with(" w ? 0 0 0"));
    }

    #[test]
    fn errors_name_the_key() {
        let error = start_position(
            GameKind::Kefren,
            &opts(&[("colour", OptionValue::Flag(true))]),
        )
        .unwrap_err()
        .to_string();
        assert!(error.contains("colour"), "{error}");
        let error = start_position(GameKind::Kechi, &opts(&[("seed", OptionValue::Whole(1))]))
            .unwrap_err()
            .to_string();
        assert!(error.contains("seed"), "{error}");
    }
}
