//! Which clock mails were sent for a game's current turn, as the `games.clock_notices` column
//! stores them (a bit set, cleared when the turn changes hands).

use std::ops::BitOr;

use diesel::expression::AsExpression;
use diesel::sql_types::Integer;

/// A set of clock notices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Integer)]
pub struct ClockNotices(i32);

impl ClockNotices {
    /// Nothing sent.
    pub const NONE: Self = Self(0);
    /// The reminder 24 h before the deadline was sent (or not needed).
    pub const REMINDED_24H: Self = Self(1);
    /// The reminder 2 h before the deadline was sent (or not needed).
    pub const REMINDED_2H: Self = Self(2);
    /// The players who may claim a win on time were told.
    pub const CLAIMABLE: Self = Self(4);
    /// Every notice there is.
    const ALL: Self = Self(7);

    /// Whether every notice of `other` is in this set.
    #[must_use]
    pub fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }

    /// Every possible set, for a query that matches any of them.
    #[must_use]
    pub fn every_set() -> Vec<Self> {
        (0..=Self::ALL.0).map(Self).collect()
    }

    /// The sets without `notice`, for a query that finds turns where it is still to be sent.
    #[must_use]
    pub fn sets_without(notice: Self) -> Vec<Self> {
        Self::every_set()
            .into_iter()
            .filter(|set| !set.contains(notice))
            .collect()
    }
}

impl BitOr for ClockNotices {
    type Output = Self;

    fn bitor(self, other: Self) -> Self {
        Self(self.0 | other.0)
    }
}

/// A stored bit set with bits the code does not know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("unknown clock notice bits {0}")]
pub struct UnknownClockNotices(pub i32);

impl TryFrom<i32> for ClockNotices {
    type Error = UnknownClockNotices;

    fn try_from(bits: i32) -> Result<Self, Self::Error> {
        if bits & !Self::ALL.0 == 0 {
            Ok(Self(bits))
        } else {
            Err(UnknownClockNotices(bits))
        }
    }
}

impl<DB> diesel::deserialize::FromSql<Integer, DB> for ClockNotices
where
    DB: diesel::backend::Backend,
    i32: diesel::deserialize::FromSql<Integer, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<Self> {
        Ok(Self::try_from(i32::from_sql(bytes)?)?)
    }
}

impl<DB> diesel::serialize::ToSql<Integer, DB> for ClockNotices
where
    DB: diesel::backend::Backend,
    i32: diesel::serialize::ToSql<Integer, DB>,
{
    fn to_sql<'b>(
        &'b self,
        out: &mut diesel::serialize::Output<'b, '_, DB>,
    ) -> diesel::serialize::Result {
        self.0.to_sql(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_and_bits() {
        let both = ClockNotices::REMINDED_24H | ClockNotices::REMINDED_2H;
        assert!(both.contains(ClockNotices::REMINDED_2H));
        assert!(!both.contains(ClockNotices::CLAIMABLE));
        assert_eq!(ClockNotices::every_set().len(), 8);
        assert_eq!(ClockNotices::sets_without(ClockNotices::CLAIMABLE).len(), 4);
        assert_eq!(ClockNotices::try_from(8), Err(UnknownClockNotices(8)));
        assert_eq!(ClockNotices::try_from(5), Ok(ClockNotices(5)));
    }
}
