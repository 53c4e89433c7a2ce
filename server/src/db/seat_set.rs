//! A set of seats stored as their numbers in a text column (`games.draw_accepted_by`: `2 3`).

use std::fmt;
use std::str::FromStr;

use diesel::expression::AsExpression;
use diesel::sql_types::Text;

/// Seat numbers, ascending and each once; stored as `2 3`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct SeatSet {
    /// The seats, ascending.
    seats: Vec<i32>,
    /// `2 3` (the stored form, kept with the seats).
    text: String,
}

impl SeatSet {
    /// Whether `seat` is in the set.
    #[must_use]
    pub fn contains(&self, seat: i32) -> bool {
        self.seats.contains(&seat)
    }

    /// Adds `seat` (a seat already in the set stays once).
    pub fn insert(&mut self, seat: i32) {
        *self = self.seats.iter().copied().chain([seat]).collect();
    }

    /// The seats, ascending.
    pub fn iter(&self) -> impl Iterator<Item = i32> + '_ {
        self.seats.iter().copied()
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.seats.is_empty()
    }

    /// The stored text: `2 3`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl FromIterator<i32> for SeatSet {
    fn from_iter<I: IntoIterator<Item = i32>>(seats: I) -> Self {
        let mut seats: Vec<i32> = seats.into_iter().collect();
        seats.sort_unstable();
        seats.dedup();
        let text = seats
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        Self { seats, text }
    }
}

impl fmt::Display for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A stored seat set that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unreadable seat set `{0}`: expected seat numbers separated by spaces")]
pub struct BadSeatSet(pub String);

impl FromStr for SeatSet {
    type Err = BadSeatSet;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.split_whitespace()
            .map(|seat| seat.parse::<i32>().ok().filter(|seat| *seat > 0))
            .collect::<Option<SeatSet>>()
            .ok_or_else(|| BadSeatSet(text.to_owned()))
    }
}

super::text_column!(SeatSet);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn seats_read_and_write_their_text() {
        let mut seats: SeatSet = "3 2".parse().unwrap();
        assert_eq!(seats.as_str(), "2 3");
        seats.insert(1);
        seats.insert(3);
        assert_eq!(seats.to_string(), "1 2 3");
        assert!(seats.contains(1) && !seats.contains(4));
        assert_eq!(seats.iter().collect::<Vec<_>>(), [1, 2, 3]);
        assert_eq!("".parse(), Ok(SeatSet::default()));
        for bad in ["x", "0", "2 -1", "2,3"] {
            assert!(bad.parse::<SeatSet>().is_err(), "{bad}");
        }
    }
}
