//! Lanes: the bot levels grouped by what a move costs to think about, each with its own queue
//! and threads, so a quick move never waits behind a deep search of another game.

use std::ops::RangeInclusive;

/// A group of bot levels that share thinking threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lane {
    /// Levels 1 and 2 (a few hundred to a thousand search iterations) and draw answers (a
    /// level-1 search): milliseconds each.
    Quick,
    /// Levels 3 to 5 (thousands to tens of thousands of iterations): up to seconds each.
    Deep,
}

impl Lane {
    /// Every lane.
    pub const ALL: [Lane; 2] = [Lane::Quick, Lane::Deep];

    /// The levels whose moves this lane thinks about.
    #[must_use]
    pub fn levels(self) -> RangeInclusive<i32> {
        match self {
            Self::Quick => 1..=2,
            Self::Deep => 3..=5,
        }
    }

    /// How many threads think in this lane on a machine with `cores` cores: a quarter of them
    /// (at least one) for quick moves, the rest (at least one) for deep ones. The threads run at
    /// the lowest priority, so more of them than cores costs the HTTP API nothing.
    #[must_use]
    pub fn threads(self, cores: usize) -> usize {
        let quick = (cores / 4).max(1);
        match self {
            Self::Quick => quick,
            Self::Deep => cores.saturating_sub(quick).max(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::bot::BotLevel;

    #[test]
    fn every_level_has_one_lane() {
        for level in BotLevel::MIN.number()..=BotLevel::MAX.number() {
            let lanes: Vec<Lane> = Lane::ALL
                .into_iter()
                .filter(|lane| lane.levels().contains(&i32::from(level)))
                .collect();
            assert_eq!(lanes.len(), 1, "level {level}: {lanes:?}");
        }
        assert!(Lane::Quick.levels().contains(&1));
        assert!(Lane::Deep.levels().contains(&5));
    }

    #[test]
    fn both_lanes_think_on_any_machine_and_use_its_cores() {
        for cores in [1, 2, 3, 4, 8, 64] {
            let quick = Lane::Quick.threads(cores);
            let deep = Lane::Deep.threads(cores);
            assert!(quick >= 1 && deep >= 1, "{cores} cores");
            assert_eq!(quick + deep, cores.max(2), "{cores} cores");
        }
    }
}
