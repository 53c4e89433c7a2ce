//! Vacations: each account has [`DAYS_PER_YEAR`] days a calendar year (UTC), taken only by an
//! explicit request. Taking days pauses every clock of the account: the deadlines of the games
//! where it is to move move out by the days taken, and a turn that reaches it during the
//! vacation starts counting when the vacation ends.

use chrono::{Datelike, Duration, NaiveDateTime};
use turnpost_shared::api::Vacation;

use super::{frame, Actor, GameError, GameWithSeats};
use crate::clocks::notices_already_due;
use crate::db::clocks::VacationRow;
use crate::db::{self, clocks as q, DbConnection};

/// Vacation days per account and calendar year.
pub const DAYS_PER_YEAR: u32 = 15;

fn view(row: Option<&VacationRow>, now: NaiveDateTime) -> Vacation {
    let year = now.year();
    let used = row
        .filter(|r| r.year == year)
        .map_or(0, |r| u32::try_from(r.days_used).unwrap_or(0));
    Vacation {
        year,
        days_used: used,
        days_left: DAYS_PER_YEAR.saturating_sub(used),
        until: row
            .and_then(|r| r.until_at)
            .filter(|until| *until > now)
            .map(db::rfc3339),
    }
}

/// The actor's vacation days this year and the running vacation.
///
/// # Errors
/// Storage failures.
pub fn show(conn: &mut DbConnection, actor: &Actor) -> Result<Vacation, GameError> {
    let row = q::lock_vacation(conn, actor.account_id())?;
    Ok(view(row.as_ref(), db::now()))
}

/// Takes `days` for the actor now (or, during a vacation, right after it), in the game frame:
/// the games whose deadlines move are locked like any other game write.
///
/// # Errors
/// [`GameError::InvalidVacation`] (no days), [`GameError::VacationExhausted`] (more than are
/// left this year); storage failures.
pub fn take(
    conn: &mut DbConnection,
    actor: &Actor,
    days: u32,
    now: NaiveDateTime,
) -> Result<Vacation, GameError> {
    if days == 0 {
        return Err(GameError::InvalidVacation);
    }
    let account_id = actor.account_id();
    frame::write(conn, |conn| -> Result<Vacation, GameError> {
        let existing = q::lock_vacation(conn, account_id)?;
        let current = view(existing.as_ref(), now);
        if days > current.days_left {
            return Err(GameError::VacationExhausted {
                left: current.days_left,
                per_year: DAYS_PER_YEAR,
                year: current.year,
                asked: days,
            });
        }
        let running_until = existing
            .as_ref()
            .and_then(|r| r.until_at)
            .filter(|until| *until > now);
        let added = Duration::days(i64::from(days));
        let row = VacationRow {
            account_id,
            year: current.year,
            days_used: i32::try_from(current.days_used + days).unwrap_or(i32::MAX),
            until_at: Some(running_until.unwrap_or(now) + added),
        };
        q::save_vacation(conn, &row, existing.is_some())?;
        for game_id in q::ids_to_move(conn, account_id)? {
            // Locked, then checked again: the turn may have moved on since the ids were read.
            if let Some(GameWithSeats { game, seats, .. }) =
                GameWithSeats::find(conn, game_id, true)?
            {
                let still_to_move = seats
                    .iter()
                    .any(|(s, _)| s.account_id == account_id && Some(s.seat) == game.to_move);
                if let Some(deadline) = game.deadline_at.filter(|_| still_to_move) {
                    let moved = deadline + added;
                    q::set_deadline(conn, game_id, moved, notices_already_due(moved, now))?;
                }
            }
        }
        Ok(view(Some(&row), now))
    })
}
