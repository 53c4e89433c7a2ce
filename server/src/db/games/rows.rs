//! The rows of `games`, `game_seats` and `moves`: a game, a new one (a challenge), a seat and a
//! played move.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use turnpost_shared::play::{GameResult, GameStatus, OnLeave, ResultReason, TimeoutMode};
use turnpost_shared::GameKind;

use crate::db::schema::{game_seats, games, moves};
use crate::db::{ClockNotices, SeatSet, Stored, StoredOption};

/// A game row: the challenge, then the game, with its cached position.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games)]
pub struct Game {
    /// Id.
    pub id: i64,
    /// Kind (stored by name, `kefren`, …).
    #[diesel(deserialize_as = Stored<GameKind>)]
    pub kind: GameKind,
    /// Canonical options, `key=value` pairs separated by spaces.
    pub options: String,
    /// The clock spec in canonical form (`3d`, `7d+1d/14d`); NULL means the default.
    pub clock: Option<String>,
    /// Where the game is in its life.
    #[diesel(deserialize_as = Stored<GameStatus>)]
    pub status: GameStatus,
    /// The winning seats or a draw, once over.
    #[diesel(deserialize_as = StoredOption<GameResult>)]
    pub result: Option<GameResult>,
    /// Why it ended.
    #[diesel(deserialize_as = StoredOption<ResultReason>)]
    pub result_reason: Option<ResultReason>,
    /// Moves played.
    pub ply: i32,
    /// Seat to move while active.
    pub to_move: Option<i32>,
    /// Cached position text (derived from the moves).
    pub position: String,
    /// Seat whose draw offer stands.
    pub draw_offered_by: Option<i32>,
    /// Account that made the challenge.
    pub created_by: i64,
    /// Creation time (an unanswered challenge lapses `CHALLENGE_DAYS` later).
    pub created_at: NaiveDateTime,
    /// When the last seat accepted.
    pub started_at: Option<NaiveDateTime>,
    /// When it ended or was cancelled.
    pub finished_at: Option<NaiveDateTime>,
    /// Last change (listing order).
    pub last_activity_at: NaiveDateTime,
    /// What happens when time runs out (stored as `auto` or `claim`).
    #[diesel(deserialize_as = Stored<TimeoutMode>)]
    pub timeout_mode: TimeoutMode,
    /// When the current turn began (for the clock).
    pub turn_started_at: Option<NaiveDateTime>,
    /// When the seat to move runs out of time.
    pub deadline_at: Option<NaiveDateTime>,
    /// What was mailed about the current turn's clock.
    pub clock_notices: ClockNotices,
    /// Seats that accepted the standing draw offer, in games of more than two seats.
    pub draw_accepted_by: Option<SeatSet>,
    /// What becomes of a seat whose player leaves a game of three or more seats (stored as
    /// `remove` or `bot`).
    #[diesel(deserialize_as = Stored<OnLeave>)]
    pub on_leave: OnLeave,
    /// Whether the game counts for ratings (decided with the challenge).
    pub rated: bool,
}

/// A new game (a challenge).
#[derive(Debug, Clone, Copy, Insertable)]
#[diesel(table_name = games)]
pub struct NewGame<'a> {
    /// Kind.
    #[diesel(serialize_as = Stored<GameKind>)]
    pub kind: GameKind,
    /// Canonical options.
    pub options: &'a str,
    /// Canonical clock spec.
    pub clock: Option<&'a str>,
    /// What happens when time runs out.
    #[diesel(serialize_as = Stored<TimeoutMode>)]
    pub timeout_mode: TimeoutMode,
    /// What becomes of a seat whose player leaves.
    #[diesel(serialize_as = Stored<OnLeave>)]
    pub on_leave: OnLeave,
    /// Invited.
    #[diesel(serialize_as = Stored<GameStatus>)]
    pub status: GameStatus,
    /// 0.
    pub ply: i32,
    /// Start position text.
    pub position: &'a str,
    /// Challenger.
    pub created_by: i64,
    /// Now.
    pub created_at: NaiveDateTime,
    /// Now.
    pub last_activity_at: NaiveDateTime,
    /// Whether the game counts for ratings.
    pub rated: bool,
}

/// A seat of a game.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_seats)]
pub struct GameSeat {
    /// Game.
    pub game_id: i64,
    /// 1-based seat number, turn order.
    pub seat: i32,
    /// Player.
    pub account_id: i64,
    /// When the player accepted (the challenger at once).
    pub accepted_at: Option<NaiveDateTime>,
    /// Seconds left in a Fischer bank (not counting a running turn).
    pub bank_seconds: Option<i64>,
    /// The bot account playing the seat on since its player left (`on-leave=bot`).
    pub played_by: Option<i64>,
    /// The ply at which the seat's player left, either way (set since `on-leave` exists).
    pub left_ply: Option<i32>,
}

/// A played move. Inserted with `None` bound as NULL (the column's default): one statement
/// text, kept prepared.
#[derive(Debug, Clone, Queryable, Selectable, Insertable)]
#[diesel(table_name = moves, treat_none_as_default_value = false)]
pub struct MoveRow {
    /// Game.
    pub game_id: i64,
    /// Moves before this one.
    pub ply: i32,
    /// Seat that moved.
    pub seat: i32,
    /// Player, or None for a move the server played (an automatic pass).
    pub account_id: Option<i64>,
    /// Canonical move text.
    pub notation: String,
    /// When.
    pub played_at: NaiveDateTime,
    /// An answer the server played from the seat's conditional moves (a prepared answer).
    pub prepared: bool,
}
