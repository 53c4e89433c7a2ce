//! A player's rating in one rating kind.

/// Above this deviation a rating is provisional (lichess's mark, `?` beside the number).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A rating: Glicko-2's rating, deviation and volatility on the Glicko scale (1500 / 350 /
/// 0.06 for a new player). Multi-player ratings (Weng–Lin) use the same scale for their mean
/// and deviation and keep the volatility at its start value (the model has none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (Glicko-2's r, Weng–Lin's μ).
    pub rating: f64,
    /// The rating deviation (Glicko-2's RD, Weng–Lin's σ).
    pub deviation: f64,
    /// Glicko-2's volatility σ.
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, deviation 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// Whether the rating is still provisional (deviation above [`PROVISIONAL_DEVIATION`]).
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded for people (`1523`).
    #[must_use]
    pub fn shown(&self) -> i32 {
        rounded(self.rating)
    }

    /// The deviation rounded for people.
    #[must_use]
    pub fn shown_deviation(&self) -> i32 {
        rounded(self.deviation)
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating::NEW
    }
}

/// `value` rounded to the nearest whole number, saturating.
#[must_use]
pub(super) fn rounded(value: f64) -> i32 {
    let value = value.round();
    if value.is_nan() {
        0
    } else {
        // Ratings stay far inside i32; `as` saturates on the impossible rest.
        #[expect(clippy::cast_possible_truncation, reason = "rounded and saturating")]
        let whole = value as i32;
        whole
    }
}
