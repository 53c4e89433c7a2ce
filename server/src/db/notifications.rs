//! Queries for notification preferences, per-game mutes, and shared server secrets.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use turnpost_shared::api::TurnMail;

use super::preference_columns::Flag;
use super::schema::{game_mutes, notification_settings};
use super::text_column::Stored;
use super::{DbConnection, DbError};

/// An account's notification preferences (absent: the defaults).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = notification_settings, treat_none_as_null = true)]
pub struct NotificationSettingsRow {
    /// Account.
    pub account_id: i64,
    /// IANA time zone name.
    pub time_zone: String,
    /// How turn mail goes.
    #[diesel(deserialize_as = Stored<TurnMail>, serialize_as = Stored<TurnMail>)]
    pub turn_mail: TurnMail,
    /// Local hour of the digest.
    pub digest_hour: i32,
    /// Challenge mail (stored 1/0, as every switch below).
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub challenges: bool,
    /// Mail about answers to the account's challenges.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub challenge_replies: bool,
    /// Game-over mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub game_over: bool,
    /// Draw-offer mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub draw_offers: bool,
    /// Deadline reminders.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub reminders: bool,
    /// Local date of the last digest.
    pub last_digest_on: Option<String>,
    /// Last change.
    pub updated_at: NaiveDateTime,
    /// Confirmations of commands sent by mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub mail_confirmations: bool,
}

/// An account's stored preferences (none: the defaults).
///
/// # Errors
/// [`DbError::Query`].
pub fn settings(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Option<NotificationSettingsRow>, DbError> {
    Ok(notification_settings::table
        .find(account_id)
        .select(NotificationSettingsRow::as_select())
        .first(conn)
        .optional()?)
}

/// Writes an account's preferences (insert or replace).
///
/// # Errors
/// [`DbError::Query`].
pub fn save_settings(
    conn: &mut DbConnection,
    row: NotificationSettingsRow,
    exists: bool,
) -> Result<(), DbError> {
    if exists {
        diesel::update(notification_settings::table.find(row.account_id))
            .set(row)
            .execute(conn)?;
    } else {
        diesel::insert_into(notification_settings::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// The accounts whose turn mail is a digest, with their settings; on PostgreSQL the rows are
/// locked, skipping those another sweeper holds.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_digest_readers(
    conn: &mut DbConnection,
    after_account: i64,
    limit: i64,
) -> Result<Vec<NotificationSettingsRow>, DbError> {
    // Built per backend: `as_select` is typed by the backend it runs on.
    macro_rules! readers {
        () => {
            notification_settings::table
                .filter(notification_settings::turn_mail.eq(Stored(TurnMail::Digest)))
                .filter(notification_settings::account_id.gt(after_account))
                .order(notification_settings::account_id.asc())
                .limit(limit)
                .select(NotificationSettingsRow::as_select())
        };
    }
    match conn {
        DbConnection::Pg(pg) => Ok(readers!().for_update().skip_locked().load(pg)?),
        DbConnection::Sqlite(sqlite) => Ok(readers!().load(sqlite)?),
    }
}

/// Records the local date of an account's last digest.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_last_digest(
    conn: &mut DbConnection,
    account_id: i64,
    date: &str,
) -> Result<(), DbError> {
    diesel::update(notification_settings::table.find(account_id))
        .set(notification_settings::last_digest_on.eq(Some(date)))
        .execute(conn)?;
    Ok(())
}

/// The games an account muted, ascending.
///
/// # Errors
/// [`DbError::Query`].
pub fn muted_games(conn: &mut DbConnection, account_id: i64) -> Result<Vec<i64>, DbError> {
    Ok(game_mutes::table
        .filter(game_mutes::account_id.eq(account_id))
        .select(game_mutes::game_id)
        .order(game_mutes::game_id.asc())
        .load(conn)?)
}

/// Whether an account muted a game.
///
/// # Errors
/// [`DbError::Query`].
pub fn is_muted(conn: &mut DbConnection, account_id: i64, game_id: i64) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        game_mutes::table.find((account_id, game_id)),
    ))
    .get_result(conn)?)
}

/// Mutes or unmutes a game for an account (both idempotent).
///
/// # Errors
/// [`DbError::Query`].
pub fn set_muted(
    conn: &mut DbConnection,
    account_id: i64,
    game_id: i64,
    muted: bool,
) -> Result<(), DbError> {
    if muted {
        if !is_muted(conn, account_id, game_id)? {
            diesel::insert_into(game_mutes::table)
                .values((
                    game_mutes::account_id.eq(account_id),
                    game_mutes::game_id.eq(game_id),
                ))
                .execute(conn)?;
        }
    } else {
        diesel::delete(game_mutes::table.find((account_id, game_id))).execute(conn)?;
    }
    Ok(())
}
