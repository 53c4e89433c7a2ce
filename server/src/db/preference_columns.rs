//! The category switches of `notification_settings`: each an `INTEGER` 1/0 read as a `bool`
//! (`turn_mail` is a shared value in a text column: `Stored<TurnMail>`, see `text_column`).

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql};
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Integer;

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
