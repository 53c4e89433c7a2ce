//! Queries for clocks: Fischer banks, vacations, and the games the sweeps look at.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::games::Game;
use super::schema::{game_seats, games, vacations};
use super::{DbConnection, DbError, Stored};
use turnpost_shared::play::{GameStatus, TimeoutMode};

use super::ClockNotices;

/// Vacation days of an account in one year.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = vacations, treat_none_as_null = true)]
pub struct VacationRow {
    /// Account.
    pub account_id: i64,
    /// Calendar year (UTC) the days count in.
    pub year: i32,
    /// Days taken that year.
    pub days_used: i32,
    /// End of the running vacation.
    pub until_at: Option<NaiveDateTime>,
}

/// Most games one sweep pass handles, so a pass stays a short transaction.
pub const SWEEP_BATCH: i64 = 100;

/// Sets a seat's Fischer bank.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_bank(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
    bank: i64,
) -> Result<(), DbError> {
    diesel::update(game_seats::table.find((game_id, seat)))
        .set(game_seats::bank_seconds.eq(Some(bank)))
        .execute(conn)?;
    Ok(())
}

/// An account's vacation row, locked for the transaction on PostgreSQL.
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_vacation(
    conn: &mut DbConnection,
    account_id: i64,
) -> Result<Option<VacationRow>, DbError> {
    match conn {
        DbConnection::Pg(pg) => Ok(vacations::table
            .find(account_id)
            .for_update()
            .select(VacationRow::as_select())
            .first(pg)
            .optional()?),
        DbConnection::Sqlite(sqlite) => Ok(vacations::table
            .find(account_id)
            .select(VacationRow::as_select())
            .first(sqlite)
            .optional()?),
    }
}

/// Writes an account's vacation row (insert or replace).
///
/// # Errors
/// [`DbError::Query`].
pub fn save_vacation(
    conn: &mut DbConnection,
    row: &VacationRow,
    exists: bool,
) -> Result<(), DbError> {
    if exists {
        diesel::update(vacations::table.find(row.account_id))
            .set(row)
            .execute(conn)?;
    } else {
        diesel::insert_into(vacations::table)
            .values(row)
            .execute(conn)?;
    }
    Ok(())
}

/// The active games joined with the seat `$account_id` holds in them, where that seat is to
/// move.
macro_rules! to_move_by {
    ($account_id:expr) => {
        games::table
            .inner_join(
                game_seats::table.on(game_seats::game_id
                    .eq(games::id)
                    .and(games::to_move.eq(game_seats::seat.nullable()))),
            )
            .filter(game_seats::account_id.eq($account_id))
            // A seat a bot plays on for its player who left is not the player's turn.
            .filter(game_seats::played_by.is_null())
            .filter(games::status.eq(Stored(GameStatus::Active)))
    };
}

/// Ids of the active games in which `account_id` holds the seat to move (lock each with
/// `games::lock` before changing it).
///
/// # Errors
/// [`DbError::Query`].
pub fn ids_to_move(conn: &mut DbConnection, account_id: i64) -> Result<Vec<i64>, DbError> {
    Ok(to_move_by!(account_id)
        .select(games::id)
        .order(games::id.asc())
        .load(conn)?)
}

/// Moves a game's deadline and clears the reminders sent for it.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_deadline(
    conn: &mut DbConnection,
    game_id: i64,
    deadline: NaiveDateTime,
    notices: ClockNotices,
) -> Result<(), DbError> {
    diesel::update(games::table.find(game_id))
        .set((
            games::deadline_at.eq(Some(deadline)),
            games::clock_notices.eq(notices),
        ))
        .execute(conn)?;
    Ok(())
}

/// Records clock mails sent for a game's current turn.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_notices(
    conn: &mut DbConnection,
    game_id: i64,
    notices: ClockNotices,
) -> Result<(), DbError> {
    diesel::update(games::table.find(game_id))
        .set(games::clock_notices.eq(notices))
        .execute(conn)?;
    Ok(())
}

/// Which running clocks a sweep pass looks for.
#[derive(Debug, Clone, Copy)]
pub struct DueClocks<'a> {
    /// Deadlines strictly after this.
    pub after: NaiveDateTime,
    /// Deadlines at or before this.
    pub until: NaiveDateTime,
    /// Only games whose `clock_notices` is one of these.
    pub notices: &'a [ClockNotices],
    /// Only games with one of these timeout modes.
    pub timeout_modes: &'a [TimeoutMode],
}

/// Active games matching `due`, soonest deadline first, at most [`SWEEP_BATCH`], skipping rows
/// another sweeper holds (PostgreSQL `FOR UPDATE SKIP LOCKED`; SQLite's immediate transaction
/// already excludes other writers).
///
/// # Errors
/// [`DbError::Query`].
pub fn lock_due(conn: &mut DbConnection, due: &DueClocks<'_>) -> Result<Vec<Game>, DbError> {
    let modes: Vec<&str> = due.timeout_modes.iter().map(|m| m.as_str()).collect();
    // Built per backend: `as_select` is typed by the backend it runs on.
    macro_rules! due_games {
        () => {
            games::table
                .filter(games::status.eq(Stored(GameStatus::Active)))
                .filter(games::deadline_at.le(due.until))
                .filter(games::deadline_at.gt(due.after))
                .filter(games::clock_notices.eq_any(due.notices.to_vec()))
                .filter(games::timeout_mode.eq_any(modes.clone()))
                .order(games::deadline_at.asc())
                .limit(SWEEP_BATCH)
                .select(Game::as_select())
        };
    }
    match conn {
        DbConnection::Pg(pg) => Ok(due_games!().for_update().skip_locked().load(pg)?),
        DbConnection::Sqlite(sqlite) => Ok(due_games!().load(sqlite)?),
    }
}

/// Active games in which `account_id` is to move and that it has not muted, most urgent
/// deadline first.
///
/// # Errors
/// [`DbError::Query`].
pub fn games_to_move(conn: &mut DbConnection, account_id: i64) -> Result<Vec<Game>, DbError> {
    let muted = super::schema::game_mutes::table
        .filter(super::schema::game_mutes::account_id.eq(account_id))
        .select(super::schema::game_mutes::game_id);
    Ok(to_move_by!(account_id)
        .filter(diesel::dsl::not(games::id.eq_any(muted)))
        .order((games::deadline_at.asc(), games::id.asc()))
        .select(Game::as_select())
        .load(conn)?)
}
