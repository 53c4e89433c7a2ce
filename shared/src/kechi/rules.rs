//! The variant being played (rules: "Variants (options)") and the die.

use crate::{GameKind, OptionError, OptionSpec, OptionValues, Options};

use super::geometry::{MAX_LINES, MIN_LINES};

/// The standard turn total.
pub(crate) const FIXED_TOTAL: u8 = 6;

const TOTAL: OptionSpec = OptionSpec {
    key: "total",
    values: OptionValues::OneOf(&["6", "die"]),
    default: "6",
    help: "each turn's total: always 6, or a die roll 1-6 known before the player moves",
};
const SEED: OptionSpec = OptionSpec {
    key: "seed",
    values: OptionValues::U64,
    default: "0",
    help: "seed of the die rolls (total=die)",
};
const SCORING: OptionSpec = OptionSpec {
    key: "scoring",
    values: OptionValues::OneOf(&["markers", "tokens"]),
    default: "markers",
    help: "markers: a stuck player loses; tokens: every stone move scores, higher score wins",
};
const LINES: OptionSpec = OptionSpec {
    key: "lines",
    values: OptionValues::OneOf(&["4", "5", "6", "7"]),
    default: "4",
    help: "rows and columns of cells (and stones per side)",
};

pub(crate) const SPECS: &[OptionSpec] = &[TOTAL, SEED, SCORING, LINES];

/// A Kechi variant: every option, read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    pub(crate) lines: u8,
    /// `total=die`.
    pub(crate) die: bool,
    pub(crate) seed: u64,
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
            seed,
            tokens,
        })
    }

    /// Every option with its value, defaults included.
    pub(crate) fn options(self) -> Options {
        let mut options = Options::new();
        options.set(TOTAL.key, if self.die { "die" } else { "6" });
        options.set(SEED.key, self.seed.to_string());
        options.set(SCORING.key, if self.tokens { "tokens" } else { "markers" });
        options.set(LINES.key, self.lines.to_string());
        options
    }

    /// The total of the turn at `ply` (0 for the first turn).
    pub(crate) fn total_at(self, ply: u64) -> u8 {
        if self.die {
            roll(self.seed, ply)
        } else {
            FIXED_TOTAL
        }
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
}
