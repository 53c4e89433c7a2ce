//! The status column of `mail_outbox` as a type: stored as the text `pending`, `sent` or
//! `dead` (the column's CHECK constraint), read back into [`OutboxStatus`]; an unknown text is
//! a deserialisation error, not a silently wrong status.

use std::fmt;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::pg::Pg;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;
use diesel::sqlite::Sqlite;

/// Where a queued mail stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, AsExpression, FromSqlRow)]
#[diesel(sql_type = Text)]
pub enum OutboxStatus {
    /// Waiting to be delivered (first attempt or a retry).
    Pending,
    /// Delivered to the relay.
    Sent,
    /// Given up on (refused for good, or too many failed attempts).
    Dead,
}

impl OutboxStatus {
    /// The stored text.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Sent => "sent",
            Self::Dead => "dead",
        }
    }

    /// The status stored as `text`, if it is one.
    #[must_use]
    pub fn from_stored(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(Self::Pending),
            "sent" => Some(Self::Sent),
            "dead" => Some(Self::Dead),
            _ => None,
        }
    }
}

impl fmt::Display for OutboxStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn parse(text: &str) -> deserialize::Result<OutboxStatus> {
    OutboxStatus::from_stored(text).ok_or_else(|| {
        format!("mail_outbox.status: expected pending, sent or dead, found {text:?}").into()
    })
}

impl ToSql<Text, Pg> for OutboxStatus {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Pg>) -> serialize::Result {
        <str as ToSql<Text, Pg>>::to_sql(self.as_str(), out)
    }
}

impl ToSql<Text, Sqlite> for OutboxStatus {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Sqlite>) -> serialize::Result {
        out.set_value(self.as_str());
        Ok(serialize::IsNull::No)
    }
}

impl FromSql<Text, Pg> for OutboxStatus {
    fn from_sql(bytes: <Pg as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        parse(&<String as FromSql<Text, Pg>>::from_sql(bytes)?)
    }
}

impl FromSql<Text, Sqlite> for OutboxStatus {
    fn from_sql(bytes: <Sqlite as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        parse(&<String as FromSql<Text, Sqlite>>::from_sql(bytes)?)
    }
}

/// The backend of [`crate::db::DbConnection`] (either of the two).
type Multi = <crate::db::DbConnection as diesel::Connection>::Backend;

impl ToSql<Text, Multi> for OutboxStatus {
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, Multi>) -> serialize::Result {
        out.set_value((Text, self));
        Ok(serialize::IsNull::No)
    }
}

impl FromSql<Text, Multi> for OutboxStatus {
    fn from_sql(bytes: <Multi as Backend>::RawValue<'_>) -> deserialize::Result<Self> {
        bytes.from_sql::<Self, Text>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_texts_round_trip() {
        for status in [
            OutboxStatus::Pending,
            OutboxStatus::Sent,
            OutboxStatus::Dead,
        ] {
            assert_eq!(OutboxStatus::from_stored(status.as_str()), Some(status));
        }
        assert_eq!(OutboxStatus::from_stored("Pending"), None);
        assert!(parse("lost").is_err());
    }
}
