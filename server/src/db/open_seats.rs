//! Queries on `open_seats`: the seats a challenge was posted with open, for anyone to take.
//! A posted seat is vacant while it has no `game_seats` row.

use chrono::NaiveDateTime;
use diesel::dsl::{exists, not};
use diesel::prelude::*;
use turnpost_shared::play::GameStatus;
use turnpost_shared::GameKind;

use super::schema::{game_seats, games, open_seats};
use super::text_column::Stored;
use super::{DbConnection, DbError};

/// Records the seats of a new challenge that are posted open.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, game_id: i64, seats: &[i32]) -> Result<(), DbError> {
    for seat in seats {
        diesel::insert_into(open_seats::table)
            .values((open_seats::game_id.eq(game_id), open_seats::seat.eq(seat)))
            .execute(conn)?;
    }
    Ok(())
}

/// The seats of a game that were posted open (taken or not), ascending.
///
/// # Errors
/// [`DbError::Query`].
pub fn posted(conn: &mut DbConnection, game_id: i64) -> Result<Vec<i32>, DbError> {
    Ok(open_seats::table
        .filter(open_seats::game_id.eq(game_id))
        .order(open_seats::seat.asc())
        .select(open_seats::seat)
        .load(conn)?)
}

/// The seats posted open of several games: (game, seat), by game and seat.
///
/// # Errors
/// [`DbError::Query`].
pub fn posted_of(conn: &mut DbConnection, game_ids: &[i64]) -> Result<Vec<(i64, i32)>, DbError> {
    Ok(open_seats::table
        .filter(open_seats::game_id.eq_any(game_ids))
        .order((open_seats::game_id.asc(), open_seats::seat.asc()))
        .select((open_seats::game_id, open_seats::seat))
        .load(conn)?)
}

/// The challenges (status invited) with a vacant open seat, optionally of one `kind` and older
/// than game `before`, made after `made_after` (newest first, at most `limit`) or, with
/// `lapsed`, made at or before it (oldest first): the open challenges to list, or those that
/// lapsed.
///
/// # Errors
/// [`DbError::Query`].
pub fn vacant(
    conn: &mut DbConnection,
    kind: Option<GameKind>,
    before: Option<i64>,
    made_after: NaiveDateTime,
    lapsed: bool,
    limit: i64,
) -> Result<Vec<i64>, DbError> {
    let taken = game_seats::table.filter(
        game_seats::game_id
            .eq(open_seats::game_id)
            .and(game_seats::seat.eq(open_seats::seat)),
    );
    let mut query = open_seats::table
        .inner_join(games::table)
        .filter(games::status.eq(Stored(GameStatus::Invited)))
        .filter(not(exists(taken)))
        .select(games::id)
        .distinct()
        .limit(limit)
        .into_boxed();
    query = if lapsed {
        query
            .filter(games::created_at.le(made_after))
            .order(games::id.asc())
    } else {
        query
            .filter(games::created_at.gt(made_after))
            .order(games::id.desc())
    };
    if let Some(kind) = kind {
        query = query.filter(games::kind.eq(kind.to_string()));
    }
    if let Some(before) = before {
        query = query.filter(games::id.lt(before));
    }
    Ok(query.load(conn)?)
}

/// How many challenges `account_id` made after `made_after` still wait with a vacant open
/// seat.
///
/// # Errors
/// [`DbError::Query`].
pub fn waiting_of(
    conn: &mut DbConnection,
    account_id: i64,
    made_after: NaiveDateTime,
) -> Result<i64, DbError> {
    let taken = game_seats::table.filter(
        game_seats::game_id
            .eq(open_seats::game_id)
            .and(game_seats::seat.eq(open_seats::seat)),
    );
    let waiting = open_seats::table
        .filter(not(exists(taken)))
        .select(open_seats::game_id);
    Ok(games::table
        .filter(games::created_by.eq(account_id))
        .filter(games::status.eq(Stored(GameStatus::Invited)))
        .filter(games::created_at.gt(made_after))
        .filter(games::id.eq_any(waiting))
        .count()
        .get_result(conn)?)
}

/// Empties a seat of a challenge again: its player left the open seat they took.
///
/// # Errors
/// [`DbError::Query`].
pub fn vacate(conn: &mut DbConnection, game_id: i64, seat: i32) -> Result<(), DbError> {
    diesel::delete(game_seats::table.find((game_id, seat))).execute(conn)?;
    Ok(())
}
