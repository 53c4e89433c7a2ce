//! Scores in half points and Sonneborn–Berger in quarter points: whole numbers, so sums and
//! comparisons are exact (no floating point in standings).

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign};

/// A score in half points: a win is HalfPoints(2), a draw HalfPoints(1), a loss HalfPoints(0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HalfPoints(pub u32);

/// Sonneborn–Berger in quarter points (a half-point result times a half-point score).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QuarterPoints(pub u32);

impl HalfPoints {
    /// A won game or a bye.
    pub const WIN: Self = Self(2);
    /// A drawn game (or a shared place against one opponent).
    pub const DRAW: Self = Self(1);
    /// A lost game.
    pub const LOSS: Self = Self(0);

    /// This result times `score`: one term of a Sonneborn–Berger sum.
    #[must_use]
    pub fn times(self, score: HalfPoints) -> QuarterPoints {
        QuarterPoints(self.0.saturating_mul(score.0))
    }
}

/// Addition, `+=` and `sum` for a count of points: saturating, as no score comes near the
/// limit.
macro_rules! additive {
    ($points:ty) => {
        impl Add for $points {
            type Output = Self;
            fn add(self, other: Self) -> Self {
                Self(self.0.saturating_add(other.0))
            }
        }

        impl AddAssign for $points {
            fn add_assign(&mut self, other: Self) {
                *self = *self + other;
            }
        }

        impl Sum for $points {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                iter.fold(Self::default(), Add::add)
            }
        }
    };
}

additive!(HalfPoints);
additive!(QuarterPoints);

/// Whole points and a vulgar fraction, as a crosstable shows them: "0", "½", "3", "3½", "12¾".
fn write_with_fraction(f: &mut fmt::Formatter<'_>, whole: u32, fraction: &str) -> fmt::Result {
    match (whole, fraction) {
        (0, "") => f.write_str("0"),
        (0, fraction) => f.write_str(fraction),
        (whole, fraction) => write!(f, "{whole}{fraction}"),
    }
}

impl fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fraction = if self.0 % 2 == 1 { "½" } else { "" };
        write_with_fraction(f, self.0 / 2, fraction)
    }
}

impl fmt::Display for QuarterPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fraction = match self.0 % 4 {
            1 => "¼",
            2 => "½",
            3 => "¾",
            _ => "",
        };
        write_with_fraction(f, self.0 / 4, fraction)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_show_as_a_crosstable_writes_them() {
        let shown: Vec<String> = [0, 1, 2, 7].map(|half| HalfPoints(half).to_string()).into();
        assert_eq!(shown, ["0", "½", "1", "3½"]);
        let shown: Vec<String> = [0, 1, 2, 3, 4, 51]
            .map(|quarter| QuarterPoints(quarter).to_string())
            .into();
        assert_eq!(shown, ["0", "¼", "½", "¾", "1", "12¾"]);
    }

    #[test]
    fn sonneborn_berger_terms_multiply_halves_into_quarters() {
        assert_eq!(HalfPoints::WIN.times(HalfPoints(5)), QuarterPoints(10));
        assert_eq!(HalfPoints::DRAW.times(HalfPoints(5)), QuarterPoints(5));
        assert_eq!(HalfPoints::LOSS.times(HalfPoints(5)), QuarterPoints(0));
        let total: HalfPoints = [HalfPoints::WIN, HalfPoints::DRAW].into_iter().sum();
        assert_eq!(total, HalfPoints(3));
    }
}
