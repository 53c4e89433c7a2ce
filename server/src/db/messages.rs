//! Queries for the messages players send with their actions (`move_messages`) and the mutes
//! that hide them (`message_game_mutes`: a game's; `message_person_mutes`: a person's).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{accounts, message_game_mutes, message_person_mutes, move_messages};
use super::{DbConnection, DbError};

/// A message as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = move_messages)]
pub struct MessageRow {
    /// Row id (the order they were sent in).
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// The sender's seat.
    pub seat: i32,
    /// The sender.
    pub account_id: i64,
    /// The game's ply at the action (a move's own ply).
    pub ply: i32,
    /// What it came with: `move`, `resign`, `draw_offer`, … (`MessageAction`).
    pub action: String,
    /// The cleaned text.
    pub body: String,
    /// When it was sent.
    pub sent_at: NaiveDateTime,
}

/// A message to store.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = move_messages)]
pub struct NewMessage<'a> {
    /// The game.
    pub game_id: i64,
    /// The sender's seat.
    pub seat: i32,
    /// The sender.
    pub account_id: i64,
    /// The game's ply at the action.
    pub ply: i32,
    /// What it came with.
    pub action: &'a str,
    /// The cleaned text.
    pub body: &'a str,
    /// When.
    pub sent_at: NaiveDateTime,
}

/// Stores a message (inside the action's transaction).
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, message: &NewMessage<'_>) -> Result<(), DbError> {
    diesel::insert_into(move_messages::table)
        .values(message)
        .execute(conn)?;
    Ok(())
}

/// Every message of `game_id` with its sender's name, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_game(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(MessageRow, String)>, DbError> {
    Ok(move_messages::table
        .inner_join(accounts::table)
        .filter(move_messages::game_id.eq(game_id))
        .order(move_messages::id.asc())
        .select((MessageRow::as_select(), accounts::name))
        .load(conn)?)
}

/// Which of `game_ids` have messages, ascending.
///
/// # Errors
/// [`DbError::Query`].
pub fn games_with_messages(conn: &mut DbConnection, game_ids: &[i64]) -> Result<Vec<i64>, DbError> {
    Ok(move_messages::table
        .filter(move_messages::game_id.eq_any(game_ids))
        .select(move_messages::game_id)
        .distinct()
        .order(move_messages::game_id.asc())
        .load(conn)?)
}

/// Whether `account_id` muted the messages of `game_id`.
///
/// # Errors
/// [`DbError::Query`].
pub fn game_muted(conn: &mut DbConnection, account_id: i64, game_id: i64) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        message_game_mutes::table.find((account_id, game_id)),
    ))
    .get_result(conn)?)
}

/// The games whose messages `account_id` muted, ascending.
///
/// # Errors
/// [`DbError::Query`].
pub fn muted_games(conn: &mut DbConnection, account_id: i64) -> Result<Vec<i64>, DbError> {
    Ok(message_game_mutes::table
        .filter(message_game_mutes::account_id.eq(account_id))
        .order(message_game_mutes::game_id.asc())
        .select(message_game_mutes::game_id)
        .load(conn)?)
}

/// The accounts whose messages `account_id` muted: (id, name), by name.
///
/// # Errors
/// [`DbError::Query`].
pub fn muted_people(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Vec<(i64, String)>, DbError> {
    Ok(message_person_mutes::table
        .inner_join(accounts::table.on(accounts::id.eq(message_person_mutes::muted_account_id)))
        .filter(message_person_mutes::account_id.eq(account_id))
        .order(accounts::name_key.asc())
        .select((accounts::id, accounts::name))
        .load(conn)?)
}

/// Deletes the mute row (`$account_id`, `$muted`) of `$table`, whose second key column is
/// `$muted_column`, and writes it again when `$on`.
macro_rules! set_mute {
    ($conn:expr, $table:ident, $muted_column:ident, ($account_id:expr, $muted:expr), $on:expr) => {{
        diesel::delete($table::table.find(($account_id, $muted))).execute($conn)?;
        if $on {
            diesel::insert_into($table::table)
                .values((
                    $table::account_id.eq($account_id),
                    $table::$muted_column.eq($muted),
                ))
                .execute($conn)?;
        }
        Ok(())
    }};
}

/// Mutes (`on`) or unmutes the messages of `game_id` for `account_id`; doing it twice is
/// the same as once.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_game_mute(
    conn: &mut DbConnection,
    account_id: i64,
    game_id: i64,
    on: bool,
) -> Result<(), DbError> {
    set_mute!(conn, message_game_mutes, game_id, (account_id, game_id), on)
}

/// Mutes (`on`) or unmutes the messages of `muted` for `account_id`; doing it twice is the
/// same as once.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_person_mute(
    conn: &mut DbConnection,
    account_id: i64,
    muted: i64,
    on: bool,
) -> Result<(), DbError> {
    set_mute!(
        conn,
        message_person_mutes,
        muted_account_id,
        (account_id, muted),
        on
    )
}
