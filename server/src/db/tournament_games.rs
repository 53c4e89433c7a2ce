//! What a tournament's standings and pages read of its games, without loading the games:
//! each game's round, state and stored placings, and its seats.

use diesel::prelude::*;
use turnpost_shared::play::{GameResult, GameStatus, ResultReason};

use super::schema::{game_seats, games, tournament_games};
use super::{DbConnection, DbError, Stored, StoredOption};

/// A tournament's game as its standings and pages see it.
#[derive(Debug, Clone)]
pub struct TournamentGameRow {
    /// The round.
    pub round: i32,
    /// The game.
    pub game_id: i64,
    /// Each seat's place, stored once read after the game ended (`1,2`).
    pub placings: Option<String>,
    /// The game's status, result and why it ended.
    pub status: GameStatus,
    /// Its result once over.
    pub result: Option<GameResult>,
    /// Why it ended.
    pub result_reason: Option<ResultReason>,
}

/// The columns read into a [`TournamentGameRow`], in its order.
type Columns = (
    i32,
    i64,
    Option<String>,
    Stored<GameStatus>,
    StoredOption<GameResult>,
    StoredOption<ResultReason>,
);

/// The games of a tournament by round and id.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_tournament(
    conn: &mut DbConnection,
    tournament_id: i64,
) -> Result<Vec<TournamentGameRow>, DbError> {
    let rows: Vec<Columns> = tournament_games::table
        .inner_join(games::table)
        .filter(tournament_games::tournament_id.eq(tournament_id))
        .order((
            tournament_games::round.asc(),
            tournament_games::game_id.asc(),
        ))
        .select((
            tournament_games::round,
            tournament_games::game_id,
            tournament_games::placings,
            games::status,
            games::result,
            games::result_reason,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(round, game_id, placings, status, result, reason)| TournamentGameRow {
                round,
                game_id,
                placings,
                status: status.0,
                result: result.0,
                result_reason: reason.0,
            },
        )
        .collect())
}

/// The seats of a tournament's games: (game, seat, account), by game and seat.
///
/// # Errors
/// [`DbError::Query`].
pub fn seats_of_tournament(
    conn: &mut DbConnection,
    tournament_id: i64,
) -> Result<Vec<(i64, i32, i64)>, DbError> {
    Ok(game_seats::table
        .inner_join(tournament_games::table.on(tournament_games::game_id.eq(game_seats::game_id)))
        .filter(tournament_games::tournament_id.eq(tournament_id))
        .order((game_seats::game_id.asc(), game_seats::seat.asc()))
        .select((
            game_seats::game_id,
            game_seats::seat,
            game_seats::account_id,
        ))
        .load(conn)?)
}

/// Stores the placings of an ended game (`1,2`).
///
/// # Errors
/// [`DbError::Query`].
pub fn store_placings(conn: &mut DbConnection, game_id: i64, text: &str) -> Result<(), DbError> {
    let row = tournament_games::table.find(game_id);
    diesel::update(row)
        .set(tournament_games::placings.eq(text))
        .execute(conn)
        .map(drop)
        .map_err(DbError::from)
}
