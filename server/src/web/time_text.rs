//! Times on pages as the reader reads them (issue 47): "Sun 29 Nov, 15:29 (in 23 h)" in the
//! signed-in reader's time zone, in UTC (said so) for anyone else; the exact time stays in the
//! `datetime` attribute for machines.

use maud::{html, Markup};

use crate::db::{DbConnection, DbError};
use crate::notify::{rfc3339_in_words, Reader};
use crate::preferences::Preferences;

/// Whose clock the page's times are read on: `account`'s zone, else UTC.
///
/// # Errors
/// Storage failures reading the account's preferences.
pub fn reader_of(conn: &mut DbConnection, account: Option<i64>) -> Result<Reader, DbError> {
    Ok(match account {
        Some(id) => Reader::Zone(Preferences::load(conn, id)?.time_zone),
        None => Reader::Anonymous,
    })
}

/// An API time (RFC 3339) in words for `reader`, machine-readable in its `datetime` attribute.
#[must_use]
pub fn time(at: &str, reader: Reader) -> Markup {
    html! {
        time datetime=(at) { (rfc3339_in_words(at, crate::db::now(), reader)) }
    }
}
