//! The forced moves that follow a move or a departure, as rows of `moves`: the engine says
//! which ([`AnyGame::forced_continuation`]: a `pass` with no other move, at most one round of
//! seats); they are stored with no account, as the server played them.

use chrono::NaiveDateTime;
use turnpost_shared::rules::ForcedContinuation;
use turnpost_shared::AnyGame;

use crate::db::games as q;
use crate::db::games::MoveRow;
use crate::db::{DbConnection, DbError};

/// The forced moves that follow `position` as rows from ply `next_ply`, not yet stored; with
/// the position after them and the next ply.
pub(super) fn forced_rows(
    game_id: i64,
    position: AnyGame,
    next_ply: i32,
    now: NaiveDateTime,
) -> (AnyGame, i32, Vec<MoveRow>) {
    let ForcedContinuation { moves, position } = position.forced_continuation();
    let mut ply = next_ply;
    let mut rows = Vec::with_capacity(moves.len());
    for (seat, notation) in moves {
        rows.push(MoveRow {
            game_id,
            ply,
            seat: super::seat_number(seat),
            account_id: None,
            notation,
            played_at: now,
            prepared: false,
        });
        ply += 1;
    }
    (position, ply, rows)
}

/// Plays and stores the forced moves that follow `position` from ply `next_ply` (see
/// [`forced_rows`]); answers the position after them and the next ply.
///
/// # Errors
/// Storage failures.
pub(super) fn play_forced(
    conn: &mut DbConnection,
    game_id: i64,
    position: AnyGame,
    next_ply: i32,
    now: NaiveDateTime,
) -> Result<(AnyGame, i32), DbError> {
    let (position, next_ply, rows) = forced_rows(game_id, position, next_ply, now);
    for row in &rows {
        q::insert_move(conn, row)?;
    }
    Ok((position, next_ply))
}
