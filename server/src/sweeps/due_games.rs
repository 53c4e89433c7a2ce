//! The frame every clock sweep shares: one single-flight transaction that locks the games whose
//! clocks match, acts on each, and commits the actions with the marks that they were done.

use super::single_flight;
use crate::db::clocks::{self as q, DueClocks};
use crate::db::models::Game;
use crate::db::{DbConnection, DbError};
use crate::transaction as tx;

/// Runs `act` on each game `due` selects, under the sweep lock `key`; returns how many games
/// it acted on (0 when another process holds the lock).
///
/// # Errors
/// Storage failures, or `act`'s; the whole round rolls back and is tried again next time.
pub fn for_each_due(
    conn: &mut DbConnection,
    key: i64,
    due: &DueClocks<'_>,
    mut act: impl FnMut(&mut DbConnection, &Game) -> Result<(), DbError>,
) -> Result<usize, DbError> {
    tx::write_with(conn, |conn| -> Result<usize, DbError> {
        if !single_flight::acquire(conn, key)? {
            return Ok(0);
        }
        let games = q::lock_due(conn, due)?;
        for game in &games {
            act(conn, game)?;
        }
        Ok(games.len())
    })
}
