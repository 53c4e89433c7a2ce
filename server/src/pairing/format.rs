//! A tournament's format and how many rounds it has.

/// How a tournament pairs its players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// Everyone plays everyone once (twice with colours reversed when `double`), Berger tables.
    RoundRobin { double: bool },
    /// Swiss over a fixed number of rounds (two-player kinds).
    Swiss { rounds: u32 },
    /// Chinese Checkers: each round the players are split into tables of about `seats` (3..=6).
    Tables { seats: u8, rounds: u32 },
}

/// The smallest and largest table a table tournament seats (Chinese Checkers' 3 to 6 players).
pub const TABLE_SEATS: std::ops::RangeInclusive<u8> = 3..=6;

impl Format {
    /// The format's name in messages: "round-robin", "double round-robin", "Swiss", "table".
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Self::RoundRobin { double: false } => "round-robin",
            Self::RoundRobin { double: true } => "double round-robin",
            Self::Swiss { .. } => "Swiss",
            Self::Tables { .. } => "table",
        }
    }

    /// The fewest players a round of this format can be played with.
    #[must_use]
    pub fn fewest_players(&self) -> usize {
        match self {
            Self::RoundRobin { .. } | Self::Swiss { .. } => 2,
            Self::Tables { .. } => usize::from(*TABLE_SEATS.start()),
        }
    }
}

/// How many rounds the tournament has (round-robin: n−1 for even n, n for odd n, doubled when
/// `double`; Swiss and Tables: their `rounds`). A round-robin of fewer than two has no rounds.
#[must_use]
pub fn round_count(format: &Format, entrants: usize) -> u32 {
    match format {
        Format::RoundRobin { double } => {
            let single = match entrants {
                0 | 1 => 0,
                even if even % 2 == 0 => even - 1,
                odd => odd,
            };
            let single = u32::try_from(single).unwrap_or(u32::MAX);
            if *double {
                single.saturating_mul(2)
            } else {
                single
            }
        }
        Format::Swiss { rounds } | Format::Tables { rounds, .. } => *rounds,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robins_have_a_round_per_opponent_and_sit_out_rounds_for_odd_counts() {
        let single = Format::RoundRobin { double: false };
        let double = Format::RoundRobin { double: true };
        let counts: Vec<u32> = (0..=7).map(|n| round_count(&single, n)).collect();
        assert_eq!(counts, [0, 0, 1, 3, 3, 5, 5, 7]);
        assert_eq!(round_count(&double, 6), 10);
        assert_eq!(round_count(&double, 5), 10);
        assert_eq!(round_count(&Format::Swiss { rounds: 4 }, 9), 4);
        assert_eq!(
            round_count(
                &Format::Tables {
                    seats: 3,
                    rounds: 5
                },
                6
            ),
            5
        );
    }
}
