//! Queries for conditional moves (`conditional_moves`): one row per seat that has set some,
//! holding its lines (JSON: a list of lists of canonical moves) from the ply they start at, and
//! the last drop its owner's next turn card reports.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::conditional_moves;
use super::{DbConnection, DbError};

/// A seat's stored conditional moves.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = conditional_moves)]
pub struct ConditionalRow {
    /// The game.
    pub game_id: i64,
    /// The owner's seat.
    pub seat: i32,
    /// The ply the lines start at (the opponent to move there).
    pub ply: i32,
    /// The lines as JSON; `[]` for none.
    pub lines: String,
    /// Last change.
    pub updated_at: NaiveDateTime,
    /// The ply of the turn card that reports the last drop.
    pub dropped_ply: Option<i32>,
    /// The opponent's move that dropped the lines.
    pub dropped_move: Option<String>,
}

/// The row of `seat` in `game_id`, if any.
///
/// # Errors
/// [`DbError::Query`].
pub fn find(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
) -> Result<Option<ConditionalRow>, DbError> {
    // Every move of a two-seat game: on the backend's own connection.
    Ok(
        super::on_own_connection!(conn, own => conditional_moves::table
        .find((game_id, seat))
        .select(ConditionalRow::as_select())
        .first(own)
        .optional())?,
    )
}

/// The conditional-move rows of `game_ids` (every seat).
///
/// # Errors
/// [`DbError::Query`].
pub fn of_games(conn: &mut DbConnection, game_ids: &[i64]) -> Result<Vec<ConditionalRow>, DbError> {
    Ok(
        super::on_own_connection!(conn, own => conditional_moves::table
        .filter(conditional_moves::game_id.eq_any(game_ids))
        .select(ConditionalRow::as_select())
        .load(own))?,
    )
}

/// Stores `row` in place of the seat's row (inside the caller's transaction, the game locked).
///
/// # Errors
/// [`DbError::Query`].
pub fn save(conn: &mut DbConnection, row: &ConditionalRow) -> Result<(), DbError> {
    diesel::delete(conditional_moves::table.find((row.game_id, row.seat))).execute(conn)?;
    diesel::insert_into(conditional_moves::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

/// Deletes every seat's conditional moves in `game_id` (a game that ended).
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_game(conn: &mut DbConnection, game_id: i64) -> Result<(), DbError> {
    diesel::delete(conditional_moves::table.filter(conditional_moves::game_id.eq(game_id)))
        .execute(conn)?;
    Ok(())
}
