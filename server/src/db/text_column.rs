//! Typed values stored in `TEXT` columns: written from their canonical form and checked when
//! read, on every backend (a value the code does not know fails the read instead of flowing on
//! as an unknown string).
//!
//! The server's own types (named values of `turnpost_shared::named_value!`, which gives them
//! `as_str` and `FromStr`) get diesel's traits from [`text_column!`]. The vocabulary of
//! `turnpost-shared` (game status, result, reason, kind, timeout mode, on-leave rule) cannot
//! (the orphan rule keeps diesel's traits off foreign types), so rows name them through
//! [`Stored`] and [`StoredOption`]: `#[diesel(deserialize_as = Stored<GameStatus>)]` on a
//! queried field, `#[diesel(serialize_as = …)]` on a written one, and `Stored(value)` where a
//! query binds one (`games::status.eq(Stored(GameStatus::Active))`).

use std::fmt::Debug;
use std::str::FromStr;

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::expression::AsExpression;
use diesel::serialize::{self, IsNull, Output, ToSql};
use diesel::sql_types::{Nullable, Text};
use turnpost_shared::api::TurnMail;
use turnpost_shared::play::{GameResult, GameStatus, OnLeave, ResultReason, TimeoutMode};
use turnpost_shared::GameKind;

/// Implements `FromSql`/`ToSql` for `Text` on every backend for a server type with
/// `as_str(&self) -> &str` and a `FromStr` whose error is a `std::error::Error` (the type
/// derives `AsExpression` and `FromSqlRow` itself).
macro_rules! text_column {
    ($type:ty) => {
        impl<DB> diesel::deserialize::FromSql<diesel::sql_types::Text, DB> for $type
        where
            DB: diesel::backend::Backend,
            String: diesel::deserialize::FromSql<diesel::sql_types::Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> diesel::deserialize::Result<Self> {
                let text = String::from_sql(bytes)?;
                Ok(text.parse::<$type>()?)
            }
        }

        impl<DB> diesel::serialize::ToSql<diesel::sql_types::Text, DB> for $type
        where
            DB: diesel::backend::Backend,
            str: diesel::serialize::ToSql<diesel::sql_types::Text, DB>,
        {
            fn to_sql<'b>(
                &'b self,
                out: &mut diesel::serialize::Output<'b, '_, DB>,
            ) -> diesel::serialize::Result {
                self.as_str().to_sql(out)
            }
        }
    };
}

pub(crate) use text_column;

/// A value with one canonical text, the form its column stores (`Debug`, as every value diesel
/// binds is).
pub trait TextValue: Debug {
    /// The canonical text.
    fn text(&self) -> &str;
}

impl<T: TextValue + ?Sized> TextValue for &T {
    fn text(&self) -> &str {
        (**self).text()
    }
}

/// A shared value in a `NOT NULL` text column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct Stored<T>(pub T);

/// A shared value in a nullable text column (`None` is `NULL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct StoredOption<T>(pub Option<T>);

impl<T> From<T> for Stored<T> {
    fn from(value: T) -> Self {
        Self(value)
    }
}

impl<T> From<Option<T>> for StoredOption<T> {
    fn from(value: Option<T>) -> Self {
        Self(value)
    }
}

/// A value read back from its column's text: its `FromStr` error is one diesel can carry, so
/// unknown text fails the read. [`Stored`] and [`StoredOption`] read their values through it.
pub trait ParsedText: Sized {
    /// Reads a column's text.
    ///
    /// # Errors
    /// The column is not text, or the text is no value of `Self`.
    fn parse_column<DB>(bytes: DB::RawValue<'_>) -> deserialize::Result<Self>
    where
        DB: Backend,
        String: FromSql<Text, DB>;
}

impl<T> ParsedText for T
where
    T: FromStr,
    T::Err: std::error::Error + Send + Sync + 'static,
{
    fn parse_column<DB>(bytes: DB::RawValue<'_>) -> deserialize::Result<Self>
    where
        DB: Backend,
        String: FromSql<Text, DB>,
    {
        Ok(String::from_sql(bytes)?.parse::<T>()?)
    }
}

impl<T: ParsedText, DB> FromSql<Text, DB> for Stored<T>
where
    DB: Backend,
    String: FromSql<Text, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        T::parse_column::<DB>(bytes).map(Self)
    }
}

impl<T: ParsedText, DB> FromSql<Nullable<Text>, DB> for StoredOption<T>
where
    DB: Backend,
    String: FromSql<Text, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        T::parse_column::<DB>(bytes).map(|value| Self(Some(value)))
    }

    fn from_nullable_sql(bytes: Option<DB::RawValue<'_>>) -> deserialize::Result<Self> {
        bytes.map_or(Ok(Self(None)), Self::from_sql)
    }
}

impl<T: TextValue, DB> ToSql<Text, DB> for Stored<T>
where
    DB: Backend,
    str: ToSql<Text, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.0.text().to_sql(out)
    }
}

/// Binds `NULL` for `None`; the derived `Nullable<Text>` binding goes through here.
impl<T: TextValue, DB> ToSql<Text, DB> for StoredOption<T>
where
    DB: Backend,
    str: ToSql<Text, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        match &self.0 {
            Some(value) => value.text().to_sql(out),
            None => Ok(IsNull::Yes),
        }
    }
}

/// Makes a shared type storable: its canonical text (`as_str`) and the conversions
/// `deserialize_as` needs.
macro_rules! stored_text {
    ($type:ty) => {
        impl TextValue for $type {
            fn text(&self) -> &str {
                self.as_str()
            }
        }

        impl From<Stored<$type>> for $type {
            fn from(stored: Stored<$type>) -> Self {
                stored.0
            }
        }

        impl From<StoredOption<$type>> for Option<$type> {
            fn from(stored: StoredOption<$type>) -> Self {
                stored.0
            }
        }
    };
}

stored_text!(GameStatus);
stored_text!(GameResult);
stored_text!(ResultReason);
stored_text!(GameKind);
stored_text!(TimeoutMode);
stored_text!(TurnMail);
stored_text!(OnLeave);

#[cfg(test)]
mod tests {
    use std::fmt::{Debug, Display};
    use std::str::FromStr;

    use crate::db::events::EventKind;
    use crate::db::outbox::OutboxStatus;

    /// Each of `all` reads back from its text, and `unknown` (a text the column never holds)
    /// is refused.
    fn assert_texts_round_trip<T>(all: &[T], unknown: &str)
    where
        T: Copy + Debug + PartialEq + Display + FromStr,
    {
        for value in all {
            assert_eq!(value.to_string().parse::<T>().ok(), Some(*value));
        }
        assert!(unknown.parse::<T>().is_err(), "{unknown}");
    }

    #[test]
    fn server_named_values_read_back() {
        assert_texts_round_trip(&EventKind::ALL, "left-turn-passed");
        assert_eq!(EventKind::ALL.len(), 12);
        assert_texts_round_trip(&OutboxStatus::ALL, "lost");
        assert_eq!(OutboxStatus::ALL.len(), 3);
    }
}
