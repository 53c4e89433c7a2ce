//! Queries on `rematches`: the one rematch challenge of a finished game.

use diesel::prelude::*;

use super::schema::rematches;
use super::{DbConnection, DbError};

/// The rematch challenge of `game_id`, if one was made.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_game(conn: &mut DbConnection, game_id: i64) -> Result<Option<i64>, DbError> {
    Ok(rematches::table
        .find(game_id)
        .select(rematches::rematch_id)
        .first(conn)
        .optional()?)
}

/// Records that `rematch_id` is the rematch of `game_id` (a second one is a unique violation).
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, game_id: i64, rematch_id: i64) -> Result<(), DbError> {
    diesel::insert_into(rematches::table)
        .values((
            rematches::game_id.eq(game_id),
            rematches::rematch_id.eq(rematch_id),
        ))
        .execute(conn)?;
    Ok(())
}
