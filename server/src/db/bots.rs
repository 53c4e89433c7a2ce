//! Queries for the bot worker: which games wait for a bot, and the claims that make each bot
//! move computed once across server processes.

use std::ops::RangeInclusive;

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{accounts, bot_claims, game_seats, games};
use super::{DbConnection, DbError, Stored};
use turnpost_shared::play::GameStatus;

/// A bot seat that has something to do in a running game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Queryable)]
pub struct BotSeat {
    /// The game.
    pub game_id: i64,
    /// The game's ply when it was read.
    pub ply: i32,
    /// The bot's seat.
    pub seat: i32,
    /// The bot's account.
    pub account_id: i64,
    /// The bot's level (1-5).
    pub level: Option<i32>,
    /// The account that made the game: bot moves are shared out fairly between these.
    pub owner: i64,
    /// Since when the game has waited (its last activity).
    pub since: NaiveDateTime,
}

/// The bot seats (at most `$limit` of each kind) of active games that `$wanted` selects, played
/// at a level in `$levels`: seats a bot holds, then seats a bot plays on for a player who left
/// (`on-leave=bot`); the longest waiting first within each kind.
macro_rules! bot_seats_where {
    ($conn:expr, $levels:expr, $limit:expr, $wanted:expr) => {{
        macro_rules! bot_seats {
            ($games:expr) => {
                $games
                    .filter(games::status.eq(Stored(GameStatus::Active)))
                    .filter($wanted)
                    .filter(accounts::bot_level.between(*$levels.start(), *$levels.end()))
                    .select((
                        games::id,
                        games::ply,
                        game_seats::seat,
                        accounts::id,
                        accounts::bot_level,
                        games::created_by,
                        games::last_activity_at,
                    ))
                    .order((games::last_activity_at.asc(), games::id.asc()))
                    .limit($limit)
            };
        }
        let mut seats: Vec<BotSeat> =
            bot_seats!(games::table.inner_join(game_seats::table.inner_join(accounts::table)))
                .load($conn)?;
        seats.extend(
            bot_seats!(games::table.inner_join(game_seats::table).inner_join(
                accounts::table.on(game_seats::played_by.eq(accounts::id.nullable()))
            ))
            .load::<BotSeat>($conn)?,
        );
        seats
    }};
}

/// Up to `limit` active games whose seat to move is a bot's playing at a level in `levels`, and
/// up to `limit` whose seat to move is played on by such a bot for a player who left
/// (`on-leave=bot`), the longest waiting first.
///
/// # Errors
/// Storage failures.
pub fn turns_waiting(
    conn: &mut DbConnection,
    levels: RangeInclusive<i32>,
    limit: i64,
) -> Result<Vec<BotSeat>, DbError> {
    Ok(bot_seats_where!(
        conn,
        levels,
        limit,
        games::to_move.eq(game_seats::seat.nullable())
    ))
}

/// Active games where a draw offer waits for a bot's answer (up to `limit` where a bot holds
/// the seat, and up to `limit` where it plays one on for a player who left).
///
/// # Errors
/// Storage failures.
pub fn draw_offers_waiting(conn: &mut DbConnection, limit: i64) -> Result<Vec<BotSeat>, DbError> {
    Ok(bot_seats_where!(
        conn,
        (i32::MIN..=i32::MAX),
        limit,
        games::draw_offered_by
            .is_not_null()
            .and(games::draw_offered_by.ne(game_seats::seat.nullable()))
    ))
}

/// Deletes the claims made before `stale_before` (their process died or gave up).
///
/// # Errors
/// Storage failures.
pub fn expire_claims(
    conn: &mut DbConnection,
    stale_before: NaiveDateTime,
) -> Result<usize, DbError> {
    Ok(
        diesel::delete(bot_claims::table.filter(bot_claims::claimed_at.lt(stale_before)))
            .execute(conn)?,
    )
}

/// Inserts the claim on (`game_id`, `ply`).
///
/// # Errors
/// A unique violation when another process holds the claim; storage failures.
pub fn insert_claim(
    conn: &mut DbConnection,
    game_id: i64,
    ply: i32,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::insert_into(bot_claims::table)
        .values((
            bot_claims::game_id.eq(game_id),
            bot_claims::ply.eq(ply),
            bot_claims::claimed_at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// Deletes the claim on (`game_id`, `ply`), so that another round may try again at once.
///
/// # Errors
/// Storage failures.
pub fn delete_claim(conn: &mut DbConnection, game_id: i64, ply: i32) -> Result<(), DbError> {
    diesel::delete(
        bot_claims::table
            .filter(bot_claims::game_id.eq(game_id))
            .filter(bot_claims::ply.eq(ply)),
    )
    .execute(conn)?;
    Ok(())
}

/// How many games against built-in bots `account_id` holds a seat in: games being played, and
/// challenges made at or after `open_since` (younger ones have not expired) still waiting for
/// a person.
///
/// # Errors
/// Storage failures.
pub fn bot_games_of(
    conn: &mut DbConnection,
    account_id: i64,
    open_since: NaiveDateTime,
) -> Result<i64, DbError> {
    let seated = game_seats::table
        .filter(game_seats::account_id.eq(account_id))
        .select(game_seats::game_id);
    let with_a_bot = game_seats::table
        .inner_join(accounts::table)
        .filter(accounts::bot_level.is_not_null())
        .select(game_seats::game_id);
    Ok(games::table
        .filter(games::id.eq_any(seated))
        .filter(games::id.eq_any(with_a_bot))
        .filter(
            games::status
                .eq(Stored(GameStatus::Active))
                .or(games::status
                    .eq(Stored(GameStatus::Invited))
                    .and(games::created_at.ge(open_since))),
        )
        .count()
        .get_result(conn)?)
}

/// Locks `account_id`'s row until the transaction ends, so that two challenges of one account
/// cannot both count its bot games before either is made (PostgreSQL `FOR UPDATE`; SQLite's
/// immediate transaction already excludes other writers).
///
/// # Errors
/// Storage failures.
pub fn lock_bot_games_of(conn: &mut DbConnection, account_id: i64) -> Result<(), DbError> {
    if let DbConnection::Pg(pg) = conn {
        accounts::table
            .find(account_id)
            .select(accounts::id)
            .for_update()
            .load::<i64>(pg)?;
    }
    Ok(())
}
