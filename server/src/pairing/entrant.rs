//! An entrant: seeding strength and, once gone, the round they left before.

/// One player of a tournament, as pairing sees them (an index into the entrants slice names
/// them; the slice is in entry order).
#[derive(Clone, Debug, PartialEq)]
pub struct Entrant {
    /// Seeding strength, higher first (the rating; equal seeds keep entry order).
    pub seed: f64,
    /// Withdrawn or out on time: not paired from this round on (None while playing).
    pub left_before_round: Option<u32>,
}

impl Entrant {
    /// A player still in the tournament.
    #[must_use]
    pub fn playing(seed: f64) -> Self {
        Self {
            seed,
            left_before_round: None,
        }
    }

    /// Whether Swiss and table pairings still seat this entrant in `round`.
    #[must_use]
    pub fn plays_in(&self, round: u32) -> bool {
        self.left_before_round.is_none_or(|left| left > round)
    }
}
