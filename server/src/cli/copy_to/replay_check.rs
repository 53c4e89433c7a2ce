//! Checks every copied game: its moves (and departure lines), replayed from its start
//! position, give the position stored with it. A row lost, reordered or altered on the way
//! shows as a game that no longer replays.

use diesel::prelude::*;

use super::CopyError;
use crate::db::games::{Game, MoveRow};
use crate::db::schema::{games, moves};
use crate::db::DbConnection;

/// Games read at once.
const BATCH: i64 = 500;

/// Replays every game on `conn`; returns how many.
///
/// # Errors
/// [`CopyError::Replay`] naming the first game that does not replay; [`CopyError::Query`].
pub(super) fn replay_every_game(conn: &mut DbConnection) -> Result<usize, CopyError> {
    let mut checked = 0;
    let mut after = i64::MIN;
    loop {
        let batch: Vec<Game> = games::table
            .filter(games::id.gt(after))
            .order(games::id.asc())
            .limit(BATCH)
            .select(Game::as_select())
            .load(conn)?;
        let Some(last) = batch.last() else {
            return Ok(checked);
        };
        after = last.id;
        let ids: Vec<i64> = batch.iter().map(|g| g.id).collect();
        let rows: Vec<MoveRow> = moves::table
            .filter(moves::game_id.eq_any(&ids))
            .order((moves::game_id.asc(), moves::ply.asc()))
            .select(MoveRow::as_select())
            .load(conn)?;
        let mut rows = rows.into_iter().peekable();
        for game in &batch {
            let mut notations = Vec::new();
            while let Some(row) = rows.next_if(|m| m.game_id == game.id) {
                notations.push(row.notation);
            }
            replays(game, &notations)?;
            checked += 1;
        }
    }
}

/// Whether `game`'s `notations` replay to its stored position, as an error saying where not.
fn replays(game: &Game, notations: &[String]) -> Result<(), CopyError> {
    let fail = |detail: String| CopyError::Replay {
        game: game.id,
        detail,
    };
    let count = i32::try_from(notations.len()).unwrap_or(i32::MAX);
    if count != game.ply {
        return Err(fail(format!(
            "{} stored for {} played",
            turnpost_shared::render::counted(count, "move", "moves"),
            game.ply
        )));
    }
    let start = crate::games::start_engine(game).map_err(|e| fail(e.to_string()))?;
    let replayed = start.replay(notations).map_err(|e| fail(e.to_string()))?;
    let stored = crate::games::engine(game).map_err(|e| fail(e.to_string()))?;
    if replayed.position_text() != stored.position_text() {
        return Err(fail(format!(
            "replayed `{}`, stored `{}`",
            replayed.position_text(),
            stored.position_text()
        )));
    }
    Ok(())
}
