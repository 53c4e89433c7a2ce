//! Reminders to the seat to move, 24 hours and 2 hours before its deadline, each at most once
//! per turn (a turn that starts inside a window skips that reminder, see
//! `clocks::notices_already_due`).

use chrono::{Duration, NaiveDateTime};

use super::clock_mail;
use super::single_flight;
use crate::accounts::MailContext;
use crate::clocks::{NOTICE_24H, NOTICE_2H};
use crate::db::clocks::{self as q, DueClocks};
use crate::db::DbConnection;
use crate::error::ApiError;
use crate::games::Loaded;
use crate::transaction::{self as tx, TxError};

/// Sends the reminders due at `now`; returns how many games were reminded.
///
/// # Errors
/// Storage failures.
pub fn send_reminders(
    conn: &mut DbConnection,
    ctx: &MailContext,
    now: NaiveDateTime,
) -> Result<usize, ApiError> {
    tx::write(conn, |conn| -> Result<usize, TxError> {
        if !single_flight::acquire(conn, single_flight::REMINDERS)? {
            return Ok(0);
        }
        let mut sent = 0;
        // The 2 h reminder first: a game inside both windows gets only the more urgent one.
        for (hours, notices, done) in [
            (2, &[0, NOTICE_24H][..], NOTICE_24H | NOTICE_2H),
            (24, &[0][..], NOTICE_24H),
        ] {
            let due = q::lock_due(
                conn,
                &DueClocks {
                    after: now,
                    until: now + Duration::hours(hours),
                    notices,
                    timeout_modes: &["auto", "claim"],
                },
            )?;
            for game in &due {
                let loaded = Loaded::load(conn, game.id, false)?;
                clock_mail::reminder(conn, ctx, &loaded, now)?;
                q::set_notices(conn, game.id, done)?;
            }
            sent += due.len();
        }
        Ok(sent)
    })
}
