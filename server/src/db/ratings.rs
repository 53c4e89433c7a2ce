//! Queries on `rating_history` (one row per rated player per rated game: the rating before and
//! after it) and on the games that are rated. A player's current rating in a rating kind is the
//! `after` of their last row; a player with no row has a new player's rating.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::accounts::Account;
use super::schema::{accounts, games, rating_history};
use super::{DbConnection, DbError, Stored};
use turnpost_shared::play::GameStatus;

/// A stored history row: a rating change and the order it was written in.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable)]
#[diesel(table_name = rating_history)]
pub struct RatingRow {
    /// Id (the order rows were written in).
    pub id: i64,
    /// What the game did to the player's rating.
    #[diesel(embed)]
    pub change: RatingChange,
}

/// One player's rating change in one rated game: the history row as written.
#[derive(Debug, Clone, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = rating_history)]
pub struct RatingChange {
    /// The player.
    pub account_id: i64,
    /// The rating kind's name (`kefren`, `chinese-checkers-multi`).
    pub rating_kind: String,
    /// The game rated.
    pub game_id: i64,
    /// Rating before the game (after growing its deviation for the idle days).
    pub rating_before: f64,
    /// Deviation before.
    pub deviation_before: f64,
    /// Volatility before.
    pub volatility_before: f64,
    /// Rating after.
    pub rating_after: f64,
    /// Deviation after.
    pub deviation_after: f64,
    /// Volatility after.
    pub volatility_after: f64,
    /// When the game ended.
    pub rated_at: NaiveDateTime,
}

/// The last row of `account_id` in `kind`, if it has played a rated game of it.
///
/// # Errors
/// [`DbError::Query`].
pub fn latest(
    conn: &mut DbConnection,
    account_id: i64,
    kind: &str,
) -> Result<Option<RatingRow>, DbError> {
    Ok(rating_history::table
        .filter(rating_history::account_id.eq(account_id))
        .filter(rating_history::rating_kind.eq(kind))
        .order(rating_history::id.desc())
        .select(RatingRow::as_select())
        .first(conn)
        .optional()?)
}

/// The last row of each of `account_ids` in `kind` (accounts without one are left out), in
/// one statement: the move's answer reads every seat's rating inside its transaction.
///
/// # Errors
/// [`DbError::Query`].
pub fn latest_of(
    conn: &mut DbConnection,
    account_ids: &[i64],
    kind: &str,
) -> Result<Vec<RatingRow>, DbError> {
    // The table twice in one statement: the subquery reads it under another name.
    let newer = diesel::alias!(rating_history as newer);
    let newest = newer
        .filter(newer.field(rating_history::account_id).eq_any(account_ids))
        .filter(newer.field(rating_history::rating_kind).eq(kind))
        .group_by(newer.field(rating_history::account_id))
        .select(diesel::dsl::max(newer.field(rating_history::id)));
    // Every move's answer: on the backend's own connection.
    Ok(super::on_own_connection!(conn, own => rating_history::table
        .filter(rating_history::id.nullable().eq_any(newest))
        .select(RatingRow::as_select())
        .load(own))?)
}

/// Every row of `account_id`, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_account(conn: &mut DbConnection, account_id: i64) -> Result<Vec<RatingRow>, DbError> {
    Ok(rating_history::table
        .filter(rating_history::account_id.eq(account_id))
        .order(rating_history::id.asc())
        .select(RatingRow::as_select())
        .load(conn)?)
}

/// Every row of `kind` with its player, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_kind(conn: &mut DbConnection, kind: &str) -> Result<Vec<(RatingRow, Account)>, DbError> {
    Ok(rating_history::table
        .inner_join(accounts::table)
        .filter(rating_history::rating_kind.eq(kind))
        .order(rating_history::id.asc())
        .select((RatingRow::as_select(), Account::as_select()))
        .load(conn)?)
}

/// The rows of one game.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_game(conn: &mut DbConnection, game_id: i64) -> Result<Vec<RatingRow>, DbError> {
    Ok(rating_history::table
        .filter(rating_history::game_id.eq(game_id))
        .order(rating_history::id.asc())
        .select(RatingRow::as_select())
        .load(conn)?)
}

/// Every row, oldest first.
///
/// # Errors
/// [`DbError::Query`].
pub fn all(conn: &mut DbConnection) -> Result<Vec<RatingRow>, DbError> {
    Ok(rating_history::table
        .order(rating_history::id.asc())
        .select(RatingRow::as_select())
        .load(conn)?)
}

/// Writes `rows`.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, rows: &[RatingChange]) -> Result<(), DbError> {
    // One statement a row: the two-backend connection has no batch insert.
    for row in rows {
        diesel::insert_into(rating_history::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// Deletes every row (`ratings rebuild` writes them again).
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_all(conn: &mut DbConnection) -> Result<usize, DbError> {
    Ok(diesel::delete(rating_history::table).execute(conn)?)
}

/// The finished rated games, in the order they ended (then by id).
///
/// # Errors
/// [`DbError::Query`].
pub fn finished_rated_games(conn: &mut DbConnection) -> Result<Vec<i64>, DbError> {
    Ok(games::table
        .filter(games::rated.eq(true))
        .filter(games::status.eq(Stored(GameStatus::Finished)))
        .order((games::finished_at.asc(), games::id.asc()))
        .select(games::id)
        .load(conn)?)
}

/// Locks the accounts of a game's players (PostgreSQL; SQLite has one writer), in id order so
/// that two games ending at once cannot deadlock, and so that each reads the other's ratings.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_players(conn: &mut DbConnection, account_ids: &[i64]) -> Result<(), DbError> {
    if let DbConnection::Pg(pg) = conn {
        accounts::table
            .filter(accounts::id.eq_any(account_ids))
            .order(accounts::id.asc())
            .select(accounts::id)
            .for_update()
            .load::<i64>(pg)?;
    }
    Ok(())
}
