//! The reads of the game service: a game, its moves, its board, its record, an actor's games.
//! Any account may read any game; the actor only decides what "your seat" means.

use chrono::NaiveDateTime;
use turnpost_shared::{GameList, GameRecord, GameView, MoveList};

use super::{frame, view, Actor, GameError};
use crate::db::games::{self as q, ListStatus};
use crate::db::{self, DbConnection};

/// The game as `actor` sees it.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn show(conn: &mut DbConnection, actor: &Actor, game_id: i64) -> Result<GameView, GameError> {
    frame::read(conn, |conn| {
        view::load_view(conn, game_id, actor.account_id())
    })
}

/// Every move of a game.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn moves(conn: &mut DbConnection, game_id: i64) -> Result<MoveList, GameError> {
    let rows = frame::read(conn, |conn| {
        if q::find(conn, game_id)?.is_none() {
            return Err(GameError::NotFound { game_id });
        }
        Ok(q::moves(conn, game_id)?)
    })?;
    Ok(MoveList {
        moves: rows.iter().map(view::move_view).collect(),
    })
}

/// The board of a game as SVG.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures; an unreadable stored position.
pub fn board_svg(conn: &mut DbConnection, game_id: i64) -> Result<String, GameError> {
    let (engine, recent) = frame::read(conn, |conn| {
        let game = q::find(conn, game_id)?.ok_or(GameError::NotFound { game_id })?;
        let engine = super::engine(&game)?;
        // The moves since the seat to move last moved: one fewer than the seats (at least one).
        let since = i64::from(engine.seat_count()).saturating_sub(1).max(1);
        let recent = q::last_moves(conn, game_id, since)?;
        Ok((engine, recent))
    })?;
    let view = engine.board_view_with_moves(recent.iter().filter_map(|mv| {
        let seat = turnpost_shared::Seat::new(u8::try_from(mv.seat).ok()?)?;
        (!turnpost_shared::DepartureText::is_departure(&mv.notation))
            .then_some((seat, mv.notation.as_str()))
    }));
    Ok(turnpost_shared::render_svg(&view))
}

/// The record of a game.
///
/// # Errors
/// [`GameError::NotFound`]; storage failures.
pub fn record(conn: &mut DbConnection, game_id: i64) -> Result<GameRecord, GameError> {
    frame::read(conn, |conn| super::record::record(conn, game_id))
}

/// Which of an actor's games to list, a page at a time.
#[derive(Debug, Clone, Copy)]
pub struct ListFilter {
    /// Only games in this (shown) status.
    pub status: Option<ListStatus>,
    /// Only games where the actor is to move.
    pub my_turn: bool,
    /// Only games whose last activity (and id) is before this cursor.
    pub before: Option<(NaiveDateTime, i64)>,
    /// Page size.
    pub limit: i64,
}

/// `actor`'s games, newest activity first; `next_cursor` when the page is full.
///
/// # Errors
/// Storage failures.
pub fn list(
    conn: &mut DbConnection,
    actor: &Actor,
    filter: &ListFilter,
) -> Result<GameList, GameError> {
    let viewer = actor.account_id();
    let (games, seats, bots) = frame::read(conn, |conn| {
        let now = db::now();
        let games = q::list_for_account(
            conn,
            viewer,
            filter.status,
            filter.my_turn,
            filter.before,
            filter.limit,
            now,
        )?;
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        let seats = q::seats_of(conn, &ids)?;
        let bot_ids: Vec<i64> = seats.iter().filter_map(|(s, _)| s.played_by).collect();
        let bots = if bot_ids.is_empty() {
            Vec::new()
        } else {
            q::account_names(conn, &bot_ids)?
        };
        Ok::<_, GameError>((games, seats, bots))
    })?;
    let now = db::now();
    let next_cursor = (games.len() == usize::try_from(filter.limit).unwrap_or(usize::MAX))
        .then(|| games.last())
        .flatten()
        .map(|g| {
            format!(
                "{}.{}",
                g.last_activity_at.and_utc().timestamp_micros(),
                g.id
            )
        });
    let summaries = games
        .iter()
        .map(|game| {
            let own: Vec<_> = seats
                .iter()
                .filter(|(s, _)| s.game_id == game.id)
                .cloned()
                .collect();
            view::summary(game, &own, &bots, viewer, now)
        })
        .collect();
    Ok(GameList {
        games: summaries,
        next_cursor,
    })
}
