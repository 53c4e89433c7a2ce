//! Queries on `game_events`, the event log: what happened in a game, recorded in the
//! transaction of the change, and kept after its mail is composed until every consumer has
//! passed it and the retention has passed ([`prune`]).
//!
//! Two kinds of consumer read it:
//! - the mail composer, many at once in any number of processes: a composer takes an event in
//!   a write transaction, queues its mail and marks it composed in the same transaction, so
//!   each event's mail is queued exactly once. PostgreSQL claims with `FOR UPDATE SKIP LOCKED`
//!   (concurrent composers never take the same event); SQLite's write transaction is exclusive.
//! - readers in log order (streams, tournaments, later channels), each from its own position
//!   ([`LogPosition`], [`read_after`]; durable ones keep it in `event_cursors`, [`cursor`]).

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{game_events, moves};
use super::{DbConnection, DbError, Stored, StoredOption};
use crate::db::games::MoveRow;
use turnpost_shared::play::{GameResult, GameStatus, ResultReason};

mod kind;
mod log_consumer;
mod log_reads;

pub use kind::EventKind;
pub use log_consumer::LogConsumer;
pub use log_reads::{
    advance_cursor, by_id, cursor, newest_id, prune, read_after, start_now, LogFilter, LogStart,
};

/// A stored event with the game as it was at the event.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = game_events)]
pub struct GameEventRow {
    /// Id (events of one game are taken in id order).
    pub id: i64,
    /// The game.
    pub game_id: i64,
    /// What happened (see `games::GameEvent`).
    pub kind: EventKind,
    /// Moves played at the event.
    pub ply: i32,
    /// The account that acted, when the mail names it.
    pub actor_id: Option<i64>,
    /// The seat that left (`left` events).
    pub seat: Option<i32>,
    /// How it left (`resign`, `timeout`, `claim`).
    pub departure: Option<String>,
    /// Game status at the event.
    #[diesel(deserialize_as = Stored<GameStatus>)]
    pub status: GameStatus,
    /// Seat to move at the event.
    pub to_move: Option<i32>,
    /// Deadline of the seat to move at the event.
    pub deadline_at: Option<NaiveDateTime>,
    /// Result at the event.
    #[diesel(deserialize_as = StoredOption<GameResult>)]
    pub result: Option<GameResult>,
    /// Why it ended.
    #[diesel(deserialize_as = StoredOption<ResultReason>)]
    pub result_reason: Option<ResultReason>,
    /// Position text at the event.
    pub position: String,
    /// When it happened.
    pub created_at: NaiveDateTime,
    /// The writing transaction (PostgreSQL; 0 on SQLite): orders the log ([`LogPosition`]).
    pub tx: i64,
}

impl GameEventRow {
    /// Where this event stands in the log.
    #[must_use]
    pub fn position(&self) -> LogPosition {
        LogPosition {
            tx: self.tx,
            id: self.id,
        }
    }
}

/// A place in the log: readers take the events after it in (`tx`, `id`) order.
///
/// Why not the id alone: on PostgreSQL ids are taken at insert and become visible at commit,
/// so event 11 can be read before event 10 commits; a reader that moved past 11 would never
/// see 10. Readers take only events of transactions older than every transaction still running
/// (`pg_snapshot_xmin`), in the order of their transaction, which never gains an event behind a
/// position already read. On SQLite one writer commits at a time: ids alone order the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct LogPosition {
    /// The writing transaction (0 on SQLite).
    pub tx: i64,
    /// The event's id.
    pub id: i64,
}

/// A new event row.
/// `None` is bound as NULL (every such column's default), so the statement is the same each
/// time and PostgreSQL keeps it prepared.
#[derive(Debug, Clone, Insertable)]
#[diesel(table_name = game_events, treat_none_as_default_value = false)]
pub struct NewGameEvent<'a> {
    /// The game.
    pub game_id: i64,
    /// What happened.
    pub kind: EventKind,
    /// Moves played.
    pub ply: i32,
    /// Who acted.
    pub actor_id: Option<i64>,
    /// Seat that left.
    pub seat: Option<i32>,
    /// How.
    pub departure: Option<&'a str>,
    /// Status.
    #[diesel(serialize_as = Stored<GameStatus>)]
    pub status: GameStatus,
    /// Seat to move.
    pub to_move: Option<i32>,
    /// Its deadline.
    pub deadline_at: Option<NaiveDateTime>,
    /// Result.
    #[diesel(serialize_as = StoredOption<&'a GameResult>)]
    pub result: Option<&'a GameResult>,
    /// Why.
    #[diesel(serialize_as = StoredOption<ResultReason>)]
    pub result_reason: Option<ResultReason>,
    /// Position text.
    pub position: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// Records an event on the caller's connection (inside the change's transaction).
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewGameEvent<'_>) -> Result<(), DbError> {
    super::commit_bell::ring_at_commit();
    diesel::insert_into(game_events::table)
        .values(new.clone())
        .execute(conn)?;
    Ok(())
}

/// Takes the oldest event waiting for its mail whose game has no older event waiting, locking it until the
/// caller's transaction ends (PostgreSQL skips events other workers hold, and their games'
/// later events wait behind them). Call inside a write transaction.
///
/// # Errors
/// [`DbError::Query`].
pub fn take_next(conn: &mut DbConnection) -> Result<Option<GameEventRow>, DbError> {
    Ok(take_waiting(conn, 1)?.into_iter().next())
}

/// Takes up to `limit` events, oldest first, each the oldest waiting of its game (so at most
/// one per game), locking them as [`take_next`] does. Call inside a write transaction.
///
/// # Errors
/// [`DbError::Query`].
pub fn take_waiting(conn: &mut DbConnection, limit: i64) -> Result<Vec<GameEventRow>, DbError> {
    let earlier = diesel::alias!(game_events as earlier);
    // One query for both backends; only PostgreSQL gets the row lock.
    macro_rules! first_waiting {
        () => {
            game_events::table
                .filter(game_events::mail_composed.eq(false))
                .filter(diesel::dsl::not(diesel::dsl::exists(
                    earlier
                        .filter(earlier.field(game_events::mail_composed).eq(false))
                        .filter(earlier.field(game_events::game_id).eq(game_events::game_id))
                        .filter(earlier.field(game_events::id).lt(game_events::id)),
                )))
                .order(game_events::id.asc())
                .limit(limit)
                .select(GameEventRow::as_select())
        };
    }
    Ok(match conn {
        DbConnection::Pg(pg) => first_waiting!().for_update().skip_locked().load(pg)?,
        DbConnection::Sqlite(sqlite) => first_waiting!().load(sqlite)?,
    })
}

/// Marks the events `ids` composed (their mail is queued, in the caller's transaction).
///
/// # Errors
/// [`DbError::Query`].
pub fn mark_composed(conn: &mut DbConnection, ids: &[i64]) -> Result<(), DbError> {
    diesel::update(game_events::table.filter(game_events::id.eq_any(ids)))
        .set(game_events::mail_composed.eq(true))
        .execute(conn)?;
    Ok(())
}

/// Deletes the events whose stored kind this code does not know (a hand-edited row, or one
/// written by a later version): such a row fails every take, and would hold back all game mail.
/// Returns how many.
///
/// # Errors
/// [`DbError::Query`].
pub fn delete_unknown_kinds(conn: &mut DbConnection) -> Result<usize, DbError> {
    let known: Vec<&str> = EventKind::ALL.iter().map(|kind| kind.as_str()).collect();
    Ok(diesel::delete(game_events::table.filter(game_events::kind.ne_all(known))).execute(conn)?)
}

/// When the oldest waiting event happened (`None`: none waits). The catch-up composer
/// (`crate::worker_threads::overdue_catch_up`) reads it to know whether mail is overdue: one read
/// of the first row of the primary key (ids grow with time).
///
/// # Errors
/// [`DbError::Query`].
pub fn oldest_waiting_at(conn: &mut DbConnection) -> Result<Option<NaiveDateTime>, DbError> {
    Ok(game_events::table
        .filter(game_events::mail_composed.eq(false))
        .order(game_events::id.asc())
        .select(game_events::created_at)
        .first(conn)
        .optional()?)
}

/// How many events wait for their mail.
///
/// # Errors
/// [`DbError::Query`].
pub fn waiting(conn: &mut DbConnection) -> Result<i64, DbError> {
    Ok(game_events::table
        .filter(game_events::mail_composed.eq(false))
        .count()
        .get_result(conn)?)
}

/// The last `n` moves of `game_id` played before ply `ply`, oldest first: the moves a mail
/// composed at that ply reports.
///
/// # Errors
/// [`DbError::Query`].
pub fn moves_before(
    conn: &mut DbConnection,
    game_id: i64,
    ply: i32,
    n: i64,
) -> Result<Vec<MoveRow>, DbError> {
    let mut rows: Vec<MoveRow> = moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::ply.lt(ply))
        .order(moves::ply.desc())
        .limit(n)
        .select(MoveRow::as_select())
        .load(conn)?;
    rows.reverse();
    Ok(rows)
}

/// The moves of `game_ids` with a ply from `from` up to (not including) `before`, by game and
/// ply: the last moves of a batch of events' games in one statement
/// (`crate::notify::BatchReads`).
///
/// # Errors
/// [`DbError::Query`].
pub fn moves_of_games(
    conn: &mut DbConnection,
    game_ids: &[i64],
    from: i32,
    before: i32,
) -> Result<Vec<MoveRow>, DbError> {
    // Every batch of events: on the backend's own connection.
    Ok(super::on_own_connection!(conn, own => moves::table
        .filter(moves::game_id.eq_any(game_ids))
        .filter(moves::ply.ge(from))
        .filter(moves::ply.lt(before))
        .order((moves::game_id.asc(), moves::ply.asc()))
        .select(MoveRow::as_select())
        .load(own))?)
}

/// The moves at the (game, ply) pairs of `wanted` that exist, in one statement: the moves a
/// batch of stream events names (`crate::live`).
///
/// # Errors
/// [`DbError::Query`].
pub fn moves_at(conn: &mut DbConnection, wanted: &[(i64, i32)]) -> Result<Vec<MoveRow>, DbError> {
    // Each game with its own plies, so that no game's moves are read at another's plies.
    let mut by_game: Vec<(i64, Vec<i32>)> = Vec::new();
    for &(game_id, ply) in wanted {
        match by_game.iter_mut().find(|(game, _)| *game == game_id) {
            Some((_, plies)) => plies.push(ply),
            None => by_game.push((game_id, vec![ply])),
        }
    }
    if by_game.is_empty() {
        return Ok(Vec::new());
    }
    Ok(super::on_own_connection!(conn, own => {
        let mut query = moves::table.select(MoveRow::as_select()).into_boxed();
        for (game_id, plies) in &by_game {
            query = query.or_filter(
                moves::game_id
                    .eq(*game_id)
                    .and(moves::ply.eq_any(plies.clone())),
            );
        }
        query.load(own)
    })?)
}

/// Up to `limit` waiting events of `game_ids` other than `taken`, oldest first: the later
/// events of games whose oldest waiting event the caller took with [`take_waiting`]. No other
/// composer takes them meanwhile: [`take_waiting`] passes over any event with an earlier one of
/// its game waiting, and the caller's stays until it commits.
///
/// # Errors
/// [`DbError::Query`].
pub fn later_of_games(
    conn: &mut DbConnection,
    game_ids: &[i64],
    taken: &[i64],
    limit: i64,
) -> Result<Vec<GameEventRow>, DbError> {
    Ok(super::on_own_connection!(conn, own => game_events::table
        .filter(game_events::mail_composed.eq(false))
        .filter(game_events::game_id.eq_any(game_ids))
        .filter(game_events::id.ne_all(taken))
        .order(game_events::id.asc())
        .limit(limit)
        .select(GameEventRow::as_select())
        .load(own))?)
}
