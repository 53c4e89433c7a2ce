//! Reminders to the seat to move, 24 hours and 2 hours before its deadline, each at most once
//! per turn (a turn that starts inside a window skips that reminder, see
//! `clocks::notices_already_due`).

use chrono::Duration;

use super::due_games::for_each_due;
use super::single_flight;
use super::sweep_round::SweepRound;
use crate::notify;
use turnpost_shared::play::TimeoutMode;

use crate::clocks::ClockNotices;
use crate::db::clocks::{self as q, DueClocks};
use crate::db::{DbConnection, DbError};

/// Sends the reminders due at `round.now`; returns how many games were reminded.
///
/// # Errors
/// Storage failures.
pub fn send_reminders(conn: &mut DbConnection, round: SweepRound<'_>) -> Result<usize, DbError> {
    let SweepRound { mail: ctx, now } = round;
    let mut sent = 0;
    // The 2 h reminder first: a game inside both windows gets only the more urgent one.
    for (hours, notices, done) in [
        (
            2,
            &[ClockNotices::NONE, ClockNotices::REMINDED_24H][..],
            ClockNotices::REMINDED_24H | ClockNotices::REMINDED_2H,
        ),
        (24, &[ClockNotices::NONE][..], ClockNotices::REMINDED_24H),
    ] {
        let due = DueClocks {
            after: now,
            until: now + Duration::hours(hours),
            notices,
            timeout_modes: &[TimeoutMode::Auto, TimeoutMode::Claim],
        };
        sent += for_each_due(conn, single_flight::REMINDERS, &due, |conn, loaded| {
            notify::reminder(conn, ctx, loaded, now)?;
            q::set_notices(conn, loaded.game.id, done)?;
            Ok(())
        })?;
    }
    Ok(sent)
}
