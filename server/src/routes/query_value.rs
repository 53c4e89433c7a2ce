//! One value of a query string read as what the route takes, or refused with 400 `bad_query`
//! naming the parameter, the value and what was wrong with it.

use std::str::FromStr;

use crate::http::error::ApiError;

/// The value `text` of the query parameter `name`, when given, read as a `T`.
///
/// # Errors
/// 400 `bad_query` `NAME=TEXT: WHY` for a value that is not a `T`, `why` saying what the
/// parameter takes (from the parse error).
pub fn parsed<T: FromStr>(
    name: &str,
    text: Option<&str>,
    why: impl FnOnce(T::Err) -> String,
) -> Result<Option<T>, ApiError> {
    text.map(|text| {
        text.parse::<T>()
            .map_err(|e| ApiError::bad_query(format!("{name}={text}: {}", why(e))))
    })
    .transpose()
}
