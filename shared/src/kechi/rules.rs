//! The variant being played (rules: "Variants (options)") and the die.

use crate::{
    options::OptionError, options::OptionSpec, options::OptionValues, options::RatedValues,
    GameKind, Options,
};

use super::geometry::{MAX_LINES, MIN_LINES};

/// The standard turn total.
pub(crate) const FIXED_TOTAL: u8 = 6;
/// The total of a position played on from one read with the seed withheld: the next roll is
/// not known (position text shows `?`).
pub(crate) const UNKNOWN_TOTAL: u8 = 0;

const TOTAL: OptionSpec = OptionSpec {
    key: "total",
    values: OptionValues::OneOf(&["6", "die"]),
    default: "6",
    help: "each turn's total: always 6, or a die roll 1-6 known before the player moves",
    rated: RatedValues::Any,
};
const SEED: OptionSpec = OptionSpec {
    key: "seed",
    values: OptionValues::U64,
    default: "0",
    help: "seed of the die rolls (total=die)",
    rated: RatedValues::Any,
};
const SCORING: OptionSpec = OptionSpec {
    key: "scoring",
    values: OptionValues::OneOf(&["markers", "tokens"]),
    default: "markers",
    help: "markers: a stuck player loses; tokens: every stone move scores, higher score wins",
    rated: RatedValues::Only(&["markers"]),
};
const LINES: OptionSpec = OptionSpec {
    key: "lines",
    values: OptionValues::OneOf(&["4", "5", "6", "7"]),
    default: "4",
    help: "rows and columns of cells (and stones per side)",
    rated: RatedValues::Only(&["4"]),
};

pub(crate) const SPECS: &[OptionSpec] = &[TOTAL, SEED, SCORING, LINES];

/// A Kechi variant: every option, read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    pub(crate) lines: u8,
    /// `total=die`.
    pub(crate) die: bool,
    /// The seed of the die; `None` when it is withheld (a game running on a server, read with
    /// [`Rules::withheld`]): then only the roll in a position text is known.
    pub(crate) seed: Option<u64>,
    /// `scoring=tokens`.
    pub(crate) tokens: bool,
}

impl Rules {
    /// Reads the options.
    ///
    /// # Errors
    /// [`OptionError`] naming an unknown key or a value outside the allowed ones.
    pub(crate) fn from_options(options: &Options) -> Result<Rules, OptionError> {
        options.check_keys(GameKind::Kechi.name(), SPECS)?;
        let die = options.choice(&TOTAL)? == "die";
        let seed = options.number(&SEED)?;
        let tokens = options.choice(&SCORING)? == "tokens";
        let lines = options
            .choice(&LINES)?
            .parse::<u8>()
            .unwrap_or(MIN_LINES)
            .clamp(MIN_LINES, MAX_LINES);
        Ok(Rules {
            lines,
            die,
            seed: Some(seed),
            tokens,
        })
    }

    /// The variant of `options` with the die's seed withheld when `options` give none and the
    /// total is a die roll; otherwise exactly [`Rules::from_options`].
    ///
    /// # Errors
    /// As [`Rules::from_options`].
    pub(crate) fn withheld(options: &Options) -> Result<Rules, OptionError> {
        let mut rules = Rules::from_options(options)?;
        if rules.die && options.get(SEED.key).is_none() {
            rules.seed = None;
        }
        Ok(rules)
    }

    /// Every option with its value, defaults included.
    pub(crate) fn options(self) -> Options {
        let mut options = Options::new();
        options.set(TOTAL.key, if self.die { "die" } else { "6" });
        if let Some(seed) = self.seed {
            options.set(SEED.key, seed.to_string());
        }
        options.set(SCORING.key, if self.tokens { "tokens" } else { "markers" });
        options.set(LINES.key, self.lines.to_string());
        options
    }

    /// The total of the turn at `ply` (0 for the first turn); `None` for a die roll whose seed
    /// is withheld.
    pub(crate) fn total_at(self, ply: u64) -> Option<u8> {
        if !self.die {
            return Some(FIXED_TOTAL);
        }
        self.seed.map(|seed| roll(seed, ply))
    }
}

/// SplitMix64's output for state `x`, exactly as the rules give it.
pub(crate) fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The die roll for ply `ply` of a game with seed `seed`: `splitmix64(seed + ply) mod 6 + 1`.
pub(crate) fn roll(seed: u64, ply: u64) -> u8 {
    // The remainder is below 6, so the conversion cannot fail.
    u8::try_from(splitmix64(seed.wrapping_add(ply)) % 6).unwrap_or(0) + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix_matches_the_reference_outputs() {
        // First outputs of the reference SplitMix64 generator seeded with 0 (state advances by
        // the golden gamma before mixing, as in the rules' formula with x = 0, gamma, 2·gamma).
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(splitmix64(0x9E37_79B9_7F4A_7C15), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn options_round_trip_with_defaults() {
        let rules = Rules::from_options(&Options::new()).unwrap();
        assert_eq!(
            rules.options().to_string(),
            "lines=4 scoring=markers seed=0 total=6"
        );
        let error = Rules::from_options(&Options::from_pairs(["total=7"]).unwrap()).unwrap_err();
        assert!(error.to_string().contains("6, die"), "{error}");
    }

    #[test]
    fn a_withheld_seed_is_only_missing_with_the_die() {
        let die = Options::from_pairs(["total=die"]).unwrap();
        let rules = Rules::withheld(&die).unwrap();
        assert_eq!((rules.seed, rules.total_at(3)), (None, None));
        assert_eq!(
            rules.options().to_string(),
            "lines=4 scoring=markers total=die"
        );
        // A given seed, or no die at all, reads as always.
        let seeded = Options::from_pairs(["total=die", "seed=9"]).unwrap();
        assert_eq!(
            Rules::withheld(&seeded).unwrap(),
            Rules::from_options(&seeded).unwrap()
        );
        let fixed = Rules::withheld(&Options::new()).unwrap();
        assert_eq!((fixed.seed, fixed.total_at(3)), (Some(0), Some(6)));
        // The engine commands' default seed stays 0.
        assert_eq!(Rules::from_options(&die).unwrap().seed, Some(0));
    }
}
