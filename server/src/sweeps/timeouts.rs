//! Clocks that ran out: in `auto` games the server ends the game as a loss on time; in `claim`
//! games the other players are told once that they may claim the win.

use chrono::{DateTime, NaiveDateTime};

use super::due_games::for_each_due;
use super::single_flight;
use super::sweep_round::SweepRound;
use crate::notify;
use turnpost_shared::play::TimeoutMode;

use crate::clocks::ClockNotices;
use crate::db::clocks::{self as q, DueClocks};
use crate::db::{DbConnection, DbError};
use crate::games::ending;

fn epoch() -> NaiveDateTime {
    DateTime::UNIX_EPOCH.naive_utc()
}

/// Ends every `auto` game whose deadline passed by `now`; returns how many.
///
/// # Errors
/// Storage failures (the round is rolled back and tried again next time).
pub fn end_timed_out(conn: &mut DbConnection, now: NaiveDateTime) -> Result<usize, DbError> {
    let due = DueClocks {
        after: epoch(),
        until: now,
        notices: &ClockNotices::every_set(),
        timeout_modes: &[TimeoutMode::Auto],
    };
    for_each_due(conn, single_flight::TIMEOUTS, &due, |conn, loaded| {
        ending::time_out(conn, loaded)?;
        tracing::info!(game = loaded.game.id, "game ended on time");
        Ok(())
    })
}

/// Tells the other players of every `claim` game whose deadline passed by `round.now` that
/// they may claim the win (once per turn); returns how many games.
///
/// # Errors
/// Storage failures.
pub fn announce_claims(conn: &mut DbConnection, round: SweepRound<'_>) -> Result<usize, DbError> {
    let SweepRound { mail: ctx, now } = round;
    let due = DueClocks {
        after: epoch(),
        until: now,
        notices: &ClockNotices::sets_without(ClockNotices::CLAIMABLE),
        timeout_modes: &[TimeoutMode::Claim],
    };
    for_each_due(conn, single_flight::TIMEOUTS, &due, |conn, loaded| {
        notify::claimable(conn, ctx, loaded)?;
        let game = &loaded.game;
        q::set_notices(conn, game.id, game.clock_notices | ClockNotices::CLAIMABLE)?;
        Ok(())
    })
}
