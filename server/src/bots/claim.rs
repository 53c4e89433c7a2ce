//! Claiming a bot move, so that with several server processes it is computed once.

use chrono::NaiveDateTime;

use crate::db::transaction as tx;
use crate::db::{bots as q, DbConnection, DbError};

/// How long a claim holds: longer than the slowest level's thinking (about 10 s), so only a
/// claim whose process died or stalled is taken over.
pub const CLAIM_EXPIRY: chrono::Duration = chrono::Duration::seconds(60);

/// Claims the bot move of `game_id` at `ply` as of `now`; `false` when another process holds
/// it (or played it: claims stay until they expire, so a late worker does not compute again).
///
/// # Errors
/// Storage failures.
pub fn try_claim(
    conn: &mut DbConnection,
    game_id: i64,
    ply: i32,
    now: NaiveDateTime,
) -> Result<bool, DbError> {
    let outcome = tx::write_with(conn, |conn| -> Result<(), DbError> {
        q::expire_claims(conn, now - CLAIM_EXPIRY)?;
        q::insert_claim(conn, game_id, ply, now)
    });
    match outcome {
        Ok(()) => Ok(true),
        Err(error) if error.is_unique_violation() => Ok(false),
        Err(error) => Err(error),
    }
}
