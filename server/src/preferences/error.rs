//! `PreferenceError`: why a change of preferences, or an unsubscribe link, was refused.

use crate::db::DbError;

/// Why a preference operation did not happen.
#[derive(Debug, thiserror::Error)]
pub enum PreferenceError {
    /// A time zone that is not an IANA name.
    #[error("`{name}` is not an IANA time zone name such as `Europe/Berlin` or `UTC`")]
    InvalidTimeZone {
        /// The name as given.
        name: String,
    },
    /// A digest hour past 23.
    #[error("digest_hour is a local hour from 0 to 23, not {hour}")]
    InvalidDigestHour {
        /// The hour as given.
        hour: u8,
    },
    /// Muting a game that does not exist.
    #[error("there is no game {game_id} to mute")]
    UnknownGame {
        /// The id as given.
        game_id: i64,
    },
    /// Muting a game without a seat in it.
    #[error("you have no seat in game {game_id}, so there is nothing to mute")]
    NotYourGame {
        /// The game.
        game_id: i64,
    },
    /// An unsubscribe link that is missing a part, names an unknown category or carries a
    /// wrong signature.
    #[error("this unsubscribe link is not valid; use the link from the mail as it is")]
    BadUnsubscribeLink,
    /// A concurrent request changed the same rows (a unique key held where no lock did).
    #[error("a concurrent request changed the same data; read it again and retry")]
    Conflict,
    /// Storage failed.
    #[error(transparent)]
    Storage(DbError),
}

crate::db::conflict_or_storage!(PreferenceError);
