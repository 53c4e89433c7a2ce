//! Rating a game as it ends, in the transaction that ends it (every ending path: the last
//! move, an agreed draw, a resignation, a timeout, a claim, a departure).
//!
//! A game that ended before every seat had moved once (aborted) changes no rating, and nor does
//! a game of bots only. The places come from the stored result and the departures
//! ([`super::view::departures`]), as the game view shows them.

use turnpost_shared::play::DepartureText;

use super::rating::{current, new_ratings};
use super::{view, GameStatus, GameWithSeats};
use crate::db::accounts::Account;
use crate::db::ratings::{self as q, RatingChange};
use crate::db::{self, DbConnection, DbError};
use crate::ratings::RatingKind;

/// Rates a game that has just ended (inside its transaction), if it is rated, finished, not
/// aborted and not among bots only; writes one history row per player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn rate_ended(conn: &mut DbConnection, loaded: &GameWithSeats) -> Result<(), DbError> {
    let game = &loaded.game;
    if !game.rated || game.status != GameStatus::Finished {
        return Ok(());
    }
    let players: Vec<&Account> = loaded.seats.iter().map(|(_, account)| account).collect();
    if players.iter().all(|p| p.is_bot()) || aborted(conn, loaded)? {
        return Ok(());
    }
    let engine = super::engine(game)?;
    let (_, places) = view::departures(game, loaded.seats.iter().map(|(s, _)| s), Some(&engine));
    let Some(places) = places else {
        return Ok(());
    };
    let kind = RatingKind::of_game(game.kind, players.len());
    let at = game.finished_at.unwrap_or_else(db::now);
    let mut ids: Vec<i64> = players.iter().map(|p| p.id).collect();
    ids.sort_unstable();
    q::lock_players(conn, &ids)?;
    let mut before = Vec::with_capacity(players.len());
    for player in &players {
        before.push(current(conn, player.id, kind, at)?);
    }
    let places: Vec<u32> = places.into_iter().map(u32::from).collect();
    let after = new_ratings(kind, &before, &places);
    let rows: Vec<RatingChange> = players
        .iter()
        .zip(before.iter().zip(&after))
        .map(|(player, (b, a))| RatingChange {
            account_id: player.id,
            rating_kind: kind.to_string(),
            game_id: game.id,
            rating_before: b.rating,
            deviation_before: b.deviation,
            volatility_before: b.volatility,
            rating_after: a.rating,
            deviation_after: a.deviation,
            volatility_after: a.volatility,
            rated_at: at,
        })
        .collect();
    q::insert(conn, &rows)
}

/// Whether the game ended before every seat had made a move of its own (a departure line is
/// not one).
fn aborted(conn: &mut DbConnection, loaded: &GameWithSeats) -> Result<bool, DbError> {
    let moved = crate::db::games::moves(conn, loaded.game.id)?;
    Ok(loaded.seats.iter().any(|(seat, _)| {
        !moved
            .iter()
            .any(|m| m.seat == seat.seat && !DepartureText::is_departure(&m.notation))
    }))
}
