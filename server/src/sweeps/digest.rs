//! The daily digest: for each player whose turn mail is `digest`, once a local day, at or
//! after their chosen local hour, one mail listing every game waiting for their move, most
//! urgent deadline first. No waiting game, no mail.

use chrono::Timelike;

use super::single_flight;
use super::sweep_round::SweepRound;
use crate::db::{clocks as clock_queries, notifications as q, DbConnection, DbError};
use crate::games::frame;
use crate::notify;
use crate::preferences::Preferences;

/// Accounts handled per transaction.
const BATCH: i64 = 100;

/// Sends the digests due at `round.now`; returns how many mails were queued.
///
/// # Errors
/// Storage failures.
pub fn send_digests(conn: &mut DbConnection, round: SweepRound<'_>) -> Result<usize, DbError> {
    let SweepRound { mail: ctx, now } = round;
    let mut queued = 0;
    let mut after_account = 0;
    loop {
        let (batch_queued, last) =
            frame::write(conn, |conn| -> Result<(usize, Option<i64>), DbError> {
                if !single_flight::acquire(conn, single_flight::DIGESTS)? {
                    return Ok((0, None));
                }
                let readers = q::lock_digest_readers(conn, after_account, BATCH)?;
                let mut queued = 0;
                for row in &readers {
                    let preferences = Preferences::from_row(row);
                    let local = now.and_utc().with_timezone(&preferences.time_zone);
                    let today = local.date_naive().to_string();
                    if local.hour() < u32::from(preferences.digest_hour)
                        || preferences.last_digest_on.as_deref() == Some(today.as_str())
                    {
                        continue;
                    }
                    let waiting = clock_queries::games_to_move(conn, row.account_id)?;
                    if !waiting.is_empty() && notify::digest(conn, ctx, row.account_id, &waiting)? {
                        queued += 1;
                    }
                    q::set_last_digest(conn, row.account_id, &today)?;
                }
                Ok((queued, readers.last().map(|r| r.account_id)))
            })?;
        queued += batch_queued;
        match last {
            Some(last) => after_account = last,
            None => break,
        }
    }
    Ok(queued)
}
