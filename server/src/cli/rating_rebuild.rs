//! `turnpost-server ratings rebuild [--check]`: recomputes every rating from the finished
//! rated games, in the order they ended, with the same code that rates a game as it ends
//! (`games::rating_update`), and compares the result with the stored history rows. With
//! `--check` nothing is written (the recomputation is rolled back); without it, the
//! recomputed rows replace the stored ones.
//!
//! Games are replayed in the order they ended (`finished_at`, then id). Live, a player's games
//! are rated in commit order (their account rows are locked); two games of one player ending
//! within the same instant could commit in the other order, and `--check` would then report it.

use std::collections::BTreeMap;

use crate::db::ratings::{self as q, RatingChange, RatingRow};
use crate::db::{DbConnection, DbError};
use crate::games::rating_update::rate_ended;
use crate::games::GameWithSeats;

/// Two stored values this close are the same (both backends store doubles exactly; this only
/// forgives a different last bit of floating-point arithmetic).
const TOLERANCE: f64 = 1e-6;

/// What a rebuild found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RebuildReport {
    /// Rated games replayed.
    pub games: usize,
    /// History rows recomputed.
    pub rows: usize,
    /// History rows stored before.
    pub stored: usize,
    /// Each difference between the stored and the recomputed rows, one line each.
    pub mismatches: Vec<String>,
}

/// Why a rebuild stopped: a storage failure, or (internally) `--check`'s rollback.
enum Stop {
    Db(DbError),
    RolledBack(RebuildReport),
}

impl From<DbError> for Stop {
    fn from(error: DbError) -> Self {
        Stop::Db(error)
    }
}

impl From<diesel::result::Error> for Stop {
    fn from(error: diesel::result::Error) -> Self {
        Stop::Db(DbError::Query(error))
    }
}

/// Recomputes the rating history from the games; writes it unless `check_only`.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for a game whose stored position cannot be read.
pub fn rebuild(conn: &mut DbConnection, check_only: bool) -> Result<RebuildReport, DbError> {
    let outcome = crate::db::transaction::write_with(conn, |conn| {
        let stored = q::all(conn)?;
        q::delete_all(conn)?;
        let games = q::finished_rated_games(conn)?;
        for &game_id in &games {
            let loaded = GameWithSeats::load(conn, game_id, false).map_err(|e| {
                DbError::Corrupt(format!("game {game_id} cannot be read again: {e}"))
            })?;
            rate_ended(conn, &loaded)?;
        }
        let recomputed = q::all(conn)?;
        let report = RebuildReport {
            games: games.len(),
            rows: recomputed.len(),
            stored: stored.len(),
            mismatches: compare(&stored, &recomputed),
        };
        if check_only {
            Err(Stop::RolledBack(report))
        } else {
            Ok(report)
        }
    });
    match outcome {
        Ok(report) | Err(Stop::RolledBack(report)) => Ok(report),
        Err(Stop::Db(error)) => Err(error),
    }
}

/// The differences between the `stored` and the `recomputed` rows, by game and player.
fn compare(stored: &[RatingRow], recomputed: &[RatingRow]) -> Vec<String> {
    let key = |row: &RatingRow| (row.change.game_id, row.change.account_id);
    let stored: BTreeMap<_, _> = stored.iter().map(|row| (key(row), row)).collect();
    let recomputed: BTreeMap<_, _> = recomputed.iter().map(|row| (key(row), row)).collect();
    let mut lines = Vec::new();
    for (&(game, account), row) in &stored {
        match recomputed.get(&(game, account)) {
            None => lines.push(format!(
                "game {game}, account {account}: stored, but the game rates nobody now"
            )),
            Some(again) if !same(&row.change, &again.change) => lines.push(format!(
                "game {game}, account {account} ({}): stored {:.2} -> {:.2} (deviation {:.2}), \
                 recomputed {:.2} -> {:.2} (deviation {:.2})",
                row.change.rating_kind,
                row.change.rating_before,
                row.change.rating_after,
                row.change.deviation_after,
                again.change.rating_before,
                again.change.rating_after,
                again.change.deviation_after
            )),
            Some(_) => {}
        }
    }
    for &(game, account) in recomputed.keys() {
        if !stored.contains_key(&(game, account)) {
            lines.push(format!(
                "game {game}, account {account}: recomputed, but nothing was stored"
            ));
        }
    }
    lines
}

fn same(a: &RatingChange, b: &RatingChange) -> bool {
    let close = |x: f64, y: f64| (x - y).abs() <= TOLERANCE;
    a.rating_kind == b.rating_kind
        && a.rated_at == b.rated_at
        && close(a.rating_before, b.rating_before)
        && close(a.deviation_before, b.deviation_before)
        && close(a.volatility_before, b.volatility_before)
        && close(a.rating_after, b.rating_after)
        && close(a.deviation_after, b.deviation_after)
        && close(a.volatility_after, b.volatility_after)
}
