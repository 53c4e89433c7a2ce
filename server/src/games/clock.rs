//! The clock columns at the moments a turn changes hands: the start of a game and every move.

use chrono::{Duration, NaiveDateTime};

use super::{GameStatus, GameWithSeats};
use crate::clocks::{bank_after_move, notices_already_due, spec_of, turn_seconds, DAY_SECONDS};
use crate::db::games::GameState;
use crate::db::{clocks as q, ClockNotices, DbConnection, DbError};

/// Starts the clocks of a game whose last seat just accepted: every Fischer bank gets its
/// initial days, and the seat to move gets its deadline. `state` must already be active.
///
/// # Errors
/// [`DbError::Query`].
pub fn start(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    state: &mut GameState,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    if let Some(bank) = initial_bank(loaded) {
        let seats: Vec<i32> = loaded.seats.iter().map(|(seat, _)| seat.seat).collect();
        for seat in seats {
            store_bank(conn, loaded, seat, bank)?;
        }
    }
    next_turn(loaded, state, now);
    Ok(())
}

/// After `mover` moved at `now` (and any automatic passes were played): the mover's Fischer
/// bank, and the clock of the seat now to move (none once the game is over).
///
/// # Errors
/// [`DbError::Query`].
pub fn after_move(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    mover: i32,
    state: &mut GameState,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let spec = spec_of(loaded.game.clock.as_deref());
    if let Some(bank) = bank_after_move(spec, loaded.game.deadline_at, now) {
        store_bank(conn, loaded, mover, bank)?;
    }
    next_turn(loaded, state, now);
    Ok(())
}

/// A bot took `seat` over from a player who left (`on-leave=bot`): with a Fischer clock the
/// seat's bank starts again at the initial days, and when the seat is to move (its player may
/// have just run out of time) its turn starts now.
///
/// # Errors
/// [`DbError::Query`].
pub fn fresh_seat_clock(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    seat: i32,
    state: &mut GameState,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    if let Some(bank) = initial_bank(loaded) {
        store_bank(conn, loaded, seat, bank)?;
    }
    if state.to_move == Some(seat) {
        next_turn(loaded, state, now);
    }
    Ok(())
}

/// The bank a seat starts with under the game's Fischer clock, in seconds (none for other
/// clocks).
fn initial_bank(loaded: &GameWithSeats) -> Option<i64> {
    match spec_of(loaded.game.clock.as_deref()) {
        turnpost_shared::play::ClockSpec::Fischer { initial, .. } => {
            Some(i64::from(initial) * DAY_SECONDS)
        }
        _ => None,
    }
}

/// Stores `bank` as the Fischer bank of `seat`, in the database and in `loaded`.
fn store_bank(
    conn: &mut DbConnection,
    loaded: &mut GameWithSeats,
    seat: i32,
    bank: i64,
) -> Result<(), DbError> {
    q::set_bank(conn, loaded.game.id, seat, bank)?;
    for (stored, _) in &mut loaded.seats {
        if stored.seat == seat {
            stored.bank_seconds = Some(bank);
        }
    }
    Ok(())
}

/// Stops the clock of a game that ended.
pub fn stop(state: &mut GameState) {
    state.turn_started_at = None;
    state.deadline_at = None;
    state.clock_notices = ClockNotices::NONE;
}

/// The deadline of the seat to move: its turn's time, counted from now or from the end of its
/// player's vacation (not for a seat a bot plays on).
fn next_turn(loaded: &GameWithSeats, state: &mut GameState, now: NaiveDateTime) {
    let next = state.to_move.filter(|_| state.status == GameStatus::Active);
    let Some((seat, account)) =
        next.and_then(|to_move| loaded.seats.iter().find(|(seat, _)| seat.seat == to_move))
    else {
        stop(state);
        return;
    };
    let spec = spec_of(loaded.game.clock.as_deref());
    // A bot playing the seat on for a player who left takes no vacation.
    let starts = loaded
        .settings_of(account.id)
        .vacation_until
        .filter(|until| *until > now && seat.played_by.is_none())
        .unwrap_or(now);
    let deadline = starts + Duration::seconds(turn_seconds(spec, seat.bank_seconds));
    state.turn_started_at = Some(now);
    state.deadline_at = Some(deadline);
    state.clock_notices = notices_already_due(deadline, now);
}
