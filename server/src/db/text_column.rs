//! Typed values stored in `TEXT` or `INTEGER` columns: written from their canonical form and
//! checked when read, on every backend (a value the code does not know fails the read instead
//! of flowing on as an unknown string).

/// Implements `FromSql`/`ToSql` for `Text` on every backend for a type with
/// `as_str(&self) -> &str` and a `FromStr` whose error is a `std::error::Error`.
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
