//! The tournaments' consumer of the event log: it reads the log from its own position and
//! answers whether a tournament's game has ended since, so the sweeper pairs the next round at
//! once instead of at its next round of sweeps. It only ever wakes the sweeper, whose work is
//! idempotent, so acting on an event twice (after a restart from a position stored a little
//! behind) is harmless; its stored position is what lets the log be pruned.

use std::time::{Duration, Instant};

use crate::db::events::{self, EventKind, LogFilter, LogPosition};
use crate::db::{DbConnection, DbError};

/// The consumer's name in `event_cursors`.
pub const ROUND_ENDS_CONSUMER: &str = "tournaments";

/// Events read per query.
const BATCH: i64 = 512;

/// How often the position is stored while nothing is found (each store is a write).
const STORE_EVERY: Duration = Duration::from_secs(30);

/// The consumer's position, kept in memory between reads and stored now and then.
#[derive(Debug, Default)]
pub struct RoundEnds {
    at: Option<LogPosition>,
    stored_at: Option<Instant>,
}

impl RoundEnds {
    /// Reads the log after the position; answers whether a tournament's game ended there.
    ///
    /// # Errors
    /// Storage failures (the position stays where it was).
    pub fn tournament_game_ended(&mut self, conn: &mut DbConnection) -> Result<bool, DbError> {
        let mut at = match self.at {
            Some(at) => at,
            None => match events::cursor(conn, ROUND_ENDS_CONSUMER)? {
                Some(stored) => stored,
                // The first start: what happened before is the sweeps' to find.
                None => events::start_now(conn)?.after,
            },
        };
        let mut ended = false;
        loop {
            let rows = events::read_after(conn, at, LogFilter::All, BATCH)?;
            for row in rows.iter().filter(|row| row.kind == EventKind::GameOver) {
                ended |= crate::db::tournaments::of_game(conn, row.game_id)?.is_some();
            }
            let Some(last) = rows.last() else { break };
            at = last.position();
            if rows.len() < usize::try_from(BATCH).unwrap_or(usize::MAX) {
                break;
            }
        }
        let moved = self.at != Some(at);
        self.at = Some(at);
        let due = self
            .stored_at
            .is_none_or(|stored| stored.elapsed() >= STORE_EVERY);
        if moved && (ended || due) {
            events::advance_cursor(conn, ROUND_ENDS_CONSUMER, at, crate::db::now())?;
            self.stored_at = Some(Instant::now());
        }
        Ok(ended)
    }
}
