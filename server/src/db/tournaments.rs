//! Queries on `tournaments`, `tournament_entries`, `tournament_games` and `tournament_byes`.
//! The tournament service (`crate::tournaments`) reads the text columns into its types.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::accounts::Account;
use super::schema::{accounts, tournament_byes, tournament_entries, tournament_games, tournaments};
use super::{DbConnection, DbError};

/// The columns of a tournament that the organiser chose for its games and its pairings, read
/// and written as one (the service reads the text columns into its types).
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = tournaments)]
pub struct TournamentSetup {
    /// The game kind (`kefren`).
    pub kind: String,
    /// The games' options as `key=value` pairs (may be empty).
    pub options: String,
    /// The games' clock (`3d`).
    pub clock: String,
    /// `auto` or `claim`.
    pub timeout_mode: String,
    /// `round_robin`, `swiss` or `tables`.
    pub format: String,
    /// 1 for a double round-robin.
    pub double_round: i32,
    /// 1 when every round-robin round starts at once.
    pub all_at_once: i32,
    /// Seats of a table (tables format).
    pub table_seats: Option<i32>,
    /// Rounds (Swiss, tables; round-robin once started).
    pub rounds: Option<i32>,
}

/// A tournament row.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    /// Id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The account that created it.
    pub organiser_id: i64,
    /// What the organiser chose for its games and pairings.
    #[diesel(embed)]
    pub setup: TournamentSetup,
    /// When the entry window closes.
    pub entry_closes_at: NaiveDateTime,
    /// The most players who may enter.
    pub max_players: Option<i32>,
    /// `entry`, `running`, `finished` or `cancelled`.
    pub status: String,
    /// The latest round paired (0 before the start).
    pub current_round: i32,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// When round 1 was paired.
    pub started_at: Option<NaiveDateTime>,
    /// When it finished or was cancelled.
    pub finished_at: Option<NaiveDateTime>,
    /// 1 when the entry that fills the field starts it.
    pub start_when_full: i32,
}

/// A new tournament.
#[derive(Debug, Insertable)]
#[diesel(table_name = tournaments)]
pub struct NewTournament<'a> {
    /// Name.
    pub name: &'a str,
    /// Organiser.
    pub organiser_id: i64,
    /// Its games and pairings.
    #[diesel(embed)]
    pub setup: TournamentSetup,
    /// Entry window end.
    pub entry_closes_at: NaiveDateTime,
    /// Player cap.
    pub max_players: Option<i32>,
    /// `entry`.
    pub status: &'a str,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// 0 or 1.
    pub start_when_full: i32,
}

/// An entry row.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tournament_entries)]
pub struct EntryRow {
    /// Tournament.
    pub tournament_id: i64,
    /// The entrant.
    pub account_id: i64,
    /// Entry order, from 1.
    pub entry_number: i32,
    /// When they entered.
    pub joined_at: NaiveDateTime,
    /// Not paired from this round on (withdrawn or out on time).
    pub left_before_round: Option<i32>,
    /// `withdrew` or `timeout`.
    pub left_reason: Option<String>,
}

/// Inserts a tournament.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewTournament<'_>) -> Result<TournamentRow, DbError> {
    let id = match conn {
        DbConnection::Pg(pg) => diesel::insert_into(tournaments::table)
            .values(new)
            .returning(tournaments::id)
            .get_result::<i64>(pg)?,
        DbConnection::Sqlite(sqlite) => {
            diesel::insert_into(tournaments::table)
                .values(new)
                .execute(sqlite)?;
            diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "last_insert_rowid()",
            ))
            .get_result::<i64>(sqlite)?
        }
    };
    find(conn, id)?
        .ok_or_else(|| DbError::Corrupt(format!("tournament {id} vanished as it was made")))
}

/// A tournament, if it exists.
///
/// # Errors
/// [`DbError::Query`].
pub fn find(conn: &mut DbConnection, id: i64) -> Result<Option<TournamentRow>, DbError> {
    Ok(tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()?)
}

/// A tournament, its row locked until the transaction ends (PostgreSQL; a SQLite write
/// transaction holds the whole database already).
///
/// # Errors
/// [`DbError::Query`].
pub fn lock(conn: &mut DbConnection, id: i64) -> Result<Option<TournamentRow>, DbError> {
    match conn {
        DbConnection::Pg(pg) => Ok(tournaments::table
            .find(id)
            .for_update()
            .select(TournamentRow::as_select())
            .first(pg)
            .optional()?),
        DbConnection::Sqlite(_) => find(conn, id),
    }
}

/// Tournaments with `status`, newest first, at most `limit`.
///
/// # Errors
/// [`DbError::Query`].
pub fn with_status(
    conn: &mut DbConnection,
    status: &str,
    limit: i64,
) -> Result<Vec<TournamentRow>, DbError> {
    Ok(tournaments::table
        .filter(tournaments::status.eq(status))
        .order(tournaments::id.desc())
        .limit(limit)
        .select(TournamentRow::as_select())
        .load(conn)?)
}

/// The ids of the tournaments the sweep may have work on: entry windows closed by `now`, and
/// every running tournament (oldest first).
///
/// # Errors
/// [`DbError::Query`].
pub fn due(conn: &mut DbConnection, now: NaiveDateTime) -> Result<Vec<i64>, DbError> {
    Ok(tournaments::table
        .filter(
            tournaments::status.eq("running").or(tournaments::status
                .eq("entry")
                .and(tournaments::entry_closes_at.le(now))),
        )
        .order(tournaments::id.asc())
        .select(tournaments::id)
        .load(conn)?)
}

/// Closes the entries of tournament `id` at `at` (its field is full: round 1 need not wait).
///
/// # Errors
/// [`DbError::Query`].
pub fn close_entries(conn: &mut DbConnection, id: i64, at: NaiveDateTime) -> Result<(), DbError> {
    diesel::update(tournaments::table.find(id))
        .set(tournaments::entry_closes_at.eq(at))
        .execute(conn)?;
    Ok(())
}

/// Whether a tournament whose entries closed by `now` still waits for its first round.
///
/// # Errors
/// [`DbError::Query`].
pub fn closed_and_waiting(conn: &mut DbConnection, now: NaiveDateTime) -> Result<bool, DbError> {
    Ok(diesel::select(diesel::dsl::exists(
        tournaments::table
            .filter(tournaments::status.eq("entry"))
            .filter(tournaments::entry_closes_at.le(now)),
    ))
    .get_result(conn)?)
}

/// Sets status, current round, rounds and times of a tournament.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_state(
    conn: &mut DbConnection,
    id: i64,
    status: &str,
    current_round: i32,
    rounds: Option<i32>,
    started_at: Option<NaiveDateTime>,
    finished_at: Option<NaiveDateTime>,
) -> Result<(), DbError> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(status),
            tournaments::current_round.eq(current_round),
            tournaments::rounds.eq(rounds),
            tournaments::started_at.eq(started_at),
            tournaments::finished_at.eq(finished_at),
        ))
        .execute(conn)?;
    Ok(())
}

/// The entries of a tournament in entry order, with their accounts.
///
/// # Errors
/// [`DbError::Query`].
pub fn entries(
    conn: &mut DbConnection,
    tournament_id: i64,
) -> Result<Vec<(EntryRow, Account)>, DbError> {
    Ok(tournament_entries::table
        .inner_join(accounts::table)
        .filter(tournament_entries::tournament_id.eq(tournament_id))
        .order(tournament_entries::entry_number.asc())
        .select((EntryRow::as_select(), Account::as_select()))
        .load(conn)?)
}

/// How many entrants each of `ids` has.
///
/// # Errors
/// [`DbError::Query`].
pub fn entry_counts(conn: &mut DbConnection, ids: &[i64]) -> Result<Vec<(i64, i64)>, DbError> {
    Ok(tournament_entries::table
        .filter(tournament_entries::tournament_id.eq_any(ids))
        .group_by(tournament_entries::tournament_id)
        .select((tournament_entries::tournament_id, diesel::dsl::count_star()))
        .load(conn)?)
}

/// Adds an entrant with the next entry number.
///
/// # Errors
/// [`DbError::Query`] (a second entry of the same account is a unique violation).
pub fn insert_entry(
    conn: &mut DbConnection,
    tournament_id: i64,
    account_id: i64,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let last: Option<i32> = tournament_entries::table
        .filter(tournament_entries::tournament_id.eq(tournament_id))
        .select(diesel::dsl::max(tournament_entries::entry_number))
        .first(conn)?;
    diesel::insert_into(tournament_entries::table)
        .values((
            tournament_entries::tournament_id.eq(tournament_id),
            tournament_entries::account_id.eq(account_id),
            tournament_entries::entry_number.eq(last.unwrap_or(0) + 1),
            tournament_entries::joined_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Removes an entry (a withdrawal before the start).
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_entry(
    conn: &mut DbConnection,
    tournament_id: i64,
    account_id: i64,
) -> Result<(), DbError> {
    diesel::delete(tournament_entries::table.find((tournament_id, account_id))).execute(conn)?;
    Ok(())
}

/// Marks an entrant out from `round` on (`reason`: `withdrew` or `timeout`), unless already out.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_left(
    conn: &mut DbConnection,
    tournament_id: i64,
    account_id: i64,
    round: i32,
    reason: &str,
) -> Result<(), DbError> {
    diesel::update(
        tournament_entries::table
            .find((tournament_id, account_id))
            .filter(tournament_entries::left_before_round.is_null()),
    )
    .set((
        tournament_entries::left_before_round.eq(round),
        tournament_entries::left_reason.eq(reason),
    ))
    .execute(conn)?;
    Ok(())
}

/// The queries of a table that records ids by tournament round: insert one, and list a
/// tournament's as (round, id), by round and id.
macro_rules! by_round {
    ($table:ident, $id:ident, $insert:ident, $list:ident, $one:literal, $all:literal) => {
        #[doc = concat!("Records ", $one, " of `round`.")]
        ///
        /// # Errors
        /// [`DbError::Query`].
        pub fn $insert(
            conn: &mut DbConnection,
            tournament_id: i64,
            round: i32,
            $id: i64,
        ) -> Result<(), DbError> {
            diesel::insert_into($table::table)
                .values((
                    $table::tournament_id.eq(tournament_id),
                    $table::round.eq(round),
                    $table::$id.eq($id),
                ))
                .execute(conn)?;
            Ok(())
        }

        #[doc = concat!("The ", $all, " of a tournament: (round, ", stringify!($id), "), by round.")]
        ///
        /// # Errors
        /// [`DbError::Query`].
        pub fn $list(
            conn: &mut DbConnection,
            tournament_id: i64,
        ) -> Result<Vec<(i32, i64)>, DbError> {
            Ok($table::table
                .filter($table::tournament_id.eq(tournament_id))
                .order(($table::round.asc(), $table::$id.asc()))
                .select(($table::round, $table::$id))
                .load(conn)?)
        }
    };
}

by_round!(
    tournament_games,
    game_id,
    insert_game,
    games,
    "a game",
    "games"
);
// One bye a round at most (the key is the tournament and round).
by_round!(
    tournament_byes,
    account_id,
    insert_bye,
    byes,
    "a bye",
    "byes"
);

/// The tournament and round a game belongs to, if any.
///
/// # Errors
/// [`DbError::Query`].
pub fn of_game(conn: &mut DbConnection, game_id: i64) -> Result<Option<(i64, i32)>, DbError> {
    Ok(tournament_games::table
        .find(game_id)
        .select((tournament_games::tournament_id, tournament_games::round))
        .first(conn)
        .optional()?)
}
