//! The typed columns of `notification_settings`: `turn_mail` holds a [`TurnMail`] by its name
//! (`TEXT`), and each category switch is an `INTEGER` 1/0 read as a `bool`. A stored value the
//! code does not know fails the read instead of flowing on as an unknown string.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::{Integer, Text};
use turnpost_shared::TurnMail;

/// A [`TurnMail`] as the `turn_mail` column stores it (`immediate`, `digest`, `off`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, diesel::AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Text)]
pub struct StoredTurnMail(pub TurnMail);

impl From<TurnMail> for StoredTurnMail {
    fn from(turn_mail: TurnMail) -> Self {
        Self(turn_mail)
    }
}

impl From<StoredTurnMail> for TurnMail {
    fn from(stored: StoredTurnMail) -> Self {
        stored.0
    }
}

impl<DB> FromSql<Text, DB> for StoredTurnMail
where
    DB: Backend,
    String: FromSql<Text, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        let text = String::from_sql(bytes)?;
        TurnMail::from_name(&text)
            .map(Self)
            .ok_or_else(|| format!("unknown turn_mail value {text:?}").into())
    }
}

impl<DB> ToSql<Text, DB> for StoredTurnMail
where
    DB: Backend,
    str: ToSql<Text, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        self.0.as_str().to_sql(out)
    }
}

/// A category switch as its column stores it: 1 on, 0 off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, diesel::AsExpression, diesel::FromSqlRow)]
#[diesel(sql_type = Integer)]
pub struct Flag(pub bool);

/// What a switched-on flag stores.
const ON: i32 = 1;
/// What a switched-off flag stores.
const OFF: i32 = 0;

impl From<bool> for Flag {
    fn from(on: bool) -> Self {
        Self(on)
    }
}

impl From<Flag> for bool {
    fn from(flag: Flag) -> Self {
        flag.0
    }
}

impl<DB> FromSql<Integer, DB> for Flag
where
    DB: Backend,
    i32: FromSql<Integer, DB>,
{
    fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
        Ok(Self(i32::from_sql(bytes)? != OFF))
    }
}

impl<DB> ToSql<Integer, DB> for Flag
where
    DB: Backend,
    i32: ToSql<Integer, DB>,
{
    fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
        let stored: &'static i32 = if self.0 { &ON } else { &OFF };
        stored.to_sql(out)
    }
}
