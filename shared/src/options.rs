//! Game options as a user gives them (`key=value` pairs), and how each game reads and checks the
//! keys it knows.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

/// A game's options as given by a user: `key=value` pairs, not yet checked against any game.
///
/// Each game reads the keys it knows with [`Options::choice`] / [`Options::number`] and refuses
/// the others with [`Options::check_keys`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Options(BTreeMap<String, String>);

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValues {
    /// One of these words.
    OneOf(&'static [&'static str]),
    /// An unsigned 64-bit decimal number.
    U64,
}

impl fmt::Display for OptionValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValues::OneOf(values) => f.write_str(&values.join(", ")),
            OptionValues::U64 => f.write_str("a whole number from 0 to 18446744073709551615"),
        }
    }
}

/// One option a game understands, with its default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    pub key: &'static str,
    pub values: OptionValues,
    pub default: &'static str,
    pub help: &'static str,
    /// Which values keep a game rated (issue 27): a game of any other value is unrated.
    pub rated: RatedValues,
}

/// The values of an option that keep a game rated: a non-standard board size or rule variant
/// makes ratings incomparable, so such games are unrated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RatedValues {
    /// Every value (the number of players, a dice seed).
    Any,
    /// Only these values (the standard board or rules).
    Only(&'static [&'static str]),
}

impl OptionSpec {
    /// Whether `value` keeps a game rated.
    #[must_use]
    pub fn keeps_rated(&self, value: &str) -> bool {
        match self.rated {
            RatedValues::Any => true,
            RatedValues::Only(values) => values.contains(&value),
        }
    }
}

/// The option that sets the number of players, in games where it varies (Chinese Checkers):
/// when a game is made for named players and the option is not given, it is their number
/// ([`Options::for_seats`]).
pub const PLAYERS_OPTION: &str = "players";

/// An option that cannot be used as given. Every variant names the key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("option `{text}` is not of the form key=value")]
    Malformed { text: String },
    #[error("unknown option `{key}` for {kind}: expected one of {known}")]
    UnknownKey {
        kind: &'static str,
        key: String,
        known: String,
    },
    #[error("option `{key}` was given twice")]
    Repeated { key: String },
    #[error("option {key}={value} is not allowed: expected {allowed}")]
    BadValue {
        key: String,
        value: String,
        allowed: String,
    },
    #[error("options {key}={value} cannot be combined with {reason}")]
    Conflict {
        key: String,
        value: String,
        reason: String,
    },
}

impl Options {
    /// No options: the standard game.
    pub fn new() -> Options {
        Options::default()
    }

    /// Options from `key=value` texts (the CLI's repeated `--option`).
    ///
    /// # Errors
    /// [`OptionError::Malformed`] for a text without `=` or with an empty key,
    /// [`OptionError::Repeated`] for a key given twice.
    pub fn from_pairs<I, S>(pairs: I) -> Result<Options, OptionError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut options = Options::new();
        for pair in pairs {
            let text = pair.as_ref();
            let Some((key, value)) = text.split_once('=') else {
                return Err(OptionError::Malformed {
                    text: text.to_string(),
                });
            };
            let key = key.trim().to_ascii_lowercase();
            if key.is_empty() {
                return Err(OptionError::Malformed {
                    text: text.to_string(),
                });
            }
            if options.0.contains_key(&key) {
                return Err(OptionError::Repeated { key });
            }
            options.0.insert(key, value.trim().to_string());
        }
        Ok(options)
    }

    /// Sets `key` to `value`, replacing an earlier value.
    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        self.0.insert(key.to_ascii_lowercase(), value.into());
    }

    /// Removes `key`; returns its value, if it was given.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        self.0.remove(key)
    }

    /// The value given for `key`, if any.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str)
    }

    /// Every `(key, value)` pair, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Whether no option is given.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// These options completed for a game of `seats` players of a game taking `specs`: where
    /// the game takes its number of players as an option ([`PLAYERS_OPTION`]) and these
    /// options do not give it (in any case), it is `seats`. Every other option keeps its value,
    /// or its default from `specs` when the game is set up.
    #[must_use]
    pub fn for_seats(&self, specs: &[OptionSpec], seats: usize) -> Options {
        let mut options = self.clone();
        let takes_players = specs.iter().any(|spec| spec.key == PLAYERS_OPTION);
        let given = self
            .0
            .keys()
            .any(|key| key.trim().eq_ignore_ascii_case(PLAYERS_OPTION));
        if takes_players && !given {
            options.set(PLAYERS_OPTION, seats.to_string());
        }
        options
    }

    /// Checks that every given key is one of `specs`.
    ///
    /// # Errors
    /// [`OptionError::UnknownKey`] naming the first unknown key and the known ones.
    pub fn check_keys(&self, kind: &'static str, specs: &[OptionSpec]) -> Result<(), OptionError> {
        for key in self.0.keys() {
            if !specs.iter().any(|spec| spec.key == key) {
                let known: Vec<&str> = specs.iter().map(|spec| spec.key).collect();
                return Err(OptionError::UnknownKey {
                    kind,
                    key: key.clone(),
                    known: if known.is_empty() {
                        "none (this game has no options)".to_string()
                    } else {
                        known.join(", ")
                    },
                });
            }
        }
        Ok(())
    }

    /// The value of a word option (`OptionValues::OneOf`), or its default; lower-cased.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] when the value is not one of the allowed words.
    pub fn choice(&self, spec: &OptionSpec) -> Result<&'static str, OptionError> {
        let given = self.get(spec.key).unwrap_or(spec.default);
        let allowed = match spec.values {
            OptionValues::OneOf(values) => values,
            OptionValues::U64 => &[][..],
        };
        allowed
            .iter()
            .copied()
            .find(|word| word.eq_ignore_ascii_case(given))
            .ok_or_else(|| bad_value(spec, given))
    }

    /// The value of a number option (`OptionValues::U64`), or its default.
    ///
    /// # Errors
    /// [`OptionError::BadValue`] when the value is not a decimal `u64`.
    pub fn number(&self, spec: &OptionSpec) -> Result<u64, OptionError> {
        let given = self.get(spec.key).unwrap_or(spec.default);
        given.parse::<u64>().map_err(|_| bad_value(spec, given))
    }
}

fn bad_value(spec: &OptionSpec, given: &str) -> OptionError {
    OptionError::BadValue {
        key: spec.key.to_string(),
        value: given.to_string(),
        allowed: spec.values.to_string(),
    }
}

/// `key=value` pairs joined by spaces, as the CLI takes them.
impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (key, value) in self.iter() {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{key}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: OptionSpec = OptionSpec {
        key: "lines",
        values: OptionValues::OneOf(&["4", "5", "6", "7"]),
        default: "4",
        help: "rows and columns of cells",
        rated: RatedValues::Only(&["4"]),
    };
    const SEED: OptionSpec = OptionSpec {
        key: "seed",
        values: OptionValues::U64,
        default: "0",
        help: "seed of the dice",
        rated: RatedValues::Any,
    };

    #[test]
    fn pairs_parse_and_defaults_apply() {
        let options = Options::from_pairs(["Lines = 6"]).unwrap();
        assert_eq!(options.choice(&LINES).unwrap(), "6");
        assert_eq!(options.number(&SEED).unwrap(), 0);
    }

    #[test]
    fn the_players_option_defaults_to_the_seats_named() {
        const PLAYERS: OptionSpec = OptionSpec {
            key: PLAYERS_OPTION,
            values: OptionValues::OneOf(&["2", "3", "4", "6"]),
            default: "2",
            help: "number of players",
            rated: RatedValues::Any,
        };
        let completed = Options::new().for_seats(&[PLAYERS, LINES], 3);
        assert_eq!(completed.get(PLAYERS_OPTION), Some("3"));
        assert_eq!(completed.choice(&PLAYERS).unwrap(), "3");
        // Other options keep their defaults, given ones their values.
        assert_eq!(completed.get("lines"), None);
        assert_eq!(completed.choice(&LINES).unwrap(), "4");
        let given = Options::from_pairs(["players=4", "lines=5"]).unwrap();
        assert_eq!(given.for_seats(&[PLAYERS, LINES], 3), given);
        let mut upper = Options::new();
        upper.0.insert(" Players".to_string(), "6".to_string());
        assert_eq!(upper.for_seats(&[PLAYERS], 3), upper);
        // A game without the option gets none.
        assert_eq!(Options::new().for_seats(&[LINES, SEED], 3), Options::new());
    }

    #[test]
    fn errors_name_the_key_and_allowed_values() {
        let options = Options::from_pairs(["lines=9"]).unwrap();
        let error = options.choice(&LINES).unwrap_err().to_string();
        assert!(
            error.contains("lines=9") && error.contains("4, 5, 6, 7"),
            "{error}"
        );
        let error = Options::from_pairs(["colour=red"])
            .unwrap()
            .check_keys("kechi", &[LINES, SEED])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("`colour`") && error.contains("lines, seed"),
            "{error}"
        );
        assert!(matches!(
            Options::from_pairs(["lines"]),
            Err(OptionError::Malformed { .. })
        ));
        assert!(matches!(
            Options::from_pairs(["lines=4", "LINES=5"]),
            Err(OptionError::Repeated { .. })
        ));
        let error = Options::from_pairs(["seed=-1"])
            .unwrap()
            .number(&SEED)
            .unwrap_err();
        assert!(error.to_string().contains("seed=-1"));
    }
}
