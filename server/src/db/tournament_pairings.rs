//! Queries on `tournament_pairings`: a round's pairings stored when it is paired, each until
//! its game has been made (`crate::tournaments` makes them in short batches).

use diesel::prelude::*;

use super::schema::tournament_pairings;
use super::{DbConnection, DbError};

/// A pairing whose game is still to be made.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournament_pairings)]
pub struct PairingRow {
    /// The tournament.
    pub tournament_id: i64,
    /// Its round.
    pub round: i32,
    /// Its place in the round, from 1.
    pub board: i32,
    /// The entrants' account ids by seat, comma-separated.
    pub seats: String,
}

impl PairingRow {
    /// The seats' account ids.
    ///
    /// # Errors
    /// [`DbError::Corrupt`] for text that is no list of ids.
    pub fn accounts(&self) -> Result<Vec<i64>, DbError> {
        self.seats
            .split(',')
            .map(|id| {
                id.parse::<i64>().map_err(|_| {
                    DbError::Corrupt(format!(
                        "tournament {}: pairing {}/{} seats {:?}",
                        self.tournament_id, self.round, self.board, self.seats
                    ))
                })
            })
            .collect()
    }
}

/// The text of a seats column.
#[must_use]
pub fn seats_text(accounts: &[i64]) -> String {
    accounts
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Stores pairings.
///
/// # Errors
/// [`DbError::Query`] (a pairing stored twice is a unique violation).
pub fn insert(conn: &mut DbConnection, rows: &[PairingRow]) -> Result<(), DbError> {
    // One statement per row: diesel's SQLite backend has no multi-row INSERT … VALUES (a
    // 100-player round-robin's 4 950 rows take a few tens of milliseconds).
    rows.iter().try_for_each(|row| {
        let insert = diesel::insert_into(tournament_pairings::table).values(row);
        insert.execute(conn).map(drop).map_err(DbError::from)
    })
}

/// The pairings of a tournament whose games are still to be made, by round and board; at most
/// `limit`.
///
/// # Errors
/// [`DbError::Query`].
pub fn waiting(
    conn: &mut DbConnection,
    tournament_id: i64,
    limit: i64,
) -> Result<Vec<PairingRow>, DbError> {
    Ok(tournament_pairings::table
        .filter(tournament_pairings::tournament_id.eq(tournament_id))
        .order((
            tournament_pairings::round.asc(),
            tournament_pairings::board.asc(),
        ))
        .limit(limit)
        .select(PairingRow::as_select())
        .load(conn)?)
}

/// Removes a pairing whose game has been made.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete(conn: &mut DbConnection, row: &PairingRow) -> Result<(), DbError> {
    diesel::delete(tournament_pairings::table.find((row.tournament_id, row.round, row.board)))
        .execute(conn)?;
    Ok(())
}

/// Whether any tournament has pairings whose games are still to be made.
///
/// # Errors
/// [`DbError::Query`].
pub fn any_waiting(conn: &mut DbConnection) -> Result<bool, DbError> {
    let first: Option<i64> = tournament_pairings::table
        .select(tournament_pairings::tournament_id)
        .first(conn)
        .optional()?;
    Ok(first.is_some())
}
