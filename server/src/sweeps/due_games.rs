//! The frame every clock sweep shares: one single-flight round of the game frame
//! (`games::frame::with_locked_games`) that locks the games whose clocks match, acts on each,
//! and commits the actions with the marks that they were done; the frame wakes the mail worker
//! once the round commits.

use super::single_flight;
use crate::db::clocks::{self as q, DueClocks};
use crate::db::{DbConnection, DbError};
use crate::games::{frame, GameWithSeats};

/// Runs `act` on each game `due` selects, under the sweep lock `key`; returns how many games
/// it acted on (0 when another process holds the lock).
///
/// # Errors
/// Storage failures, or `act`'s; the whole round rolls back and is tried again next time.
pub fn for_each_due(
    conn: &mut DbConnection,
    key: i64,
    due: &DueClocks<'_>,
    act: impl FnMut(&mut DbConnection, &mut GameWithSeats) -> Result<(), DbError>,
) -> Result<usize, DbError> {
    frame::with_locked_games(
        conn,
        |conn| -> Result<_, DbError> {
            if !single_flight::acquire(conn, key)? {
                return Ok(Vec::new());
            }
            q::lock_due(conn, due)
        },
        act,
    )
}
