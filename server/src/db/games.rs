//! Queries on `games`, `game_seats` and `moves`.
//!
//! Locking: [`lock`] takes the game row with `SELECT … FOR UPDATE` on PostgreSQL. On SQLite the
//! caller's transaction was opened with `BEGIN IMMEDIATE` (see `transaction::write_with`),
//! which already holds the database's single write lock, so a plain read is enough there.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use turnpost_shared::api::TurnMail;
use turnpost_shared::play::{GameResult, GameStatus, ResultReason};

use super::accounts::Account;
use super::notifications::NotificationSettingsRow;
use super::preference_columns::Flag;
use super::schema::{
    accounts, game_mutes, game_seats, games, moves, notification_settings, vacations,
};
use super::seat_set::SeatSet;
use super::text_column::{Stored, StoredOption};
use super::ClockNotices;
use super::{DbConnection, DbError};

mod rows;

pub use rows::{Game, GameSeat, MoveRow, NewGame};

/// The columns a game changes over its life, written back in one `UPDATE`: what a move changes
/// first, then what an ending, a draw offer or the clock changes.
#[derive(Debug, Clone, AsChangeset)]
#[diesel(table_name = games, treat_none_as_null = true)]
pub struct GameState {
    /// Moves played.
    pub ply: i32,
    /// Seat to move.
    pub to_move: Option<i32>,
    /// Cached position text.
    pub position: String,
    /// Status.
    #[diesel(serialize_as = Stored<GameStatus>)]
    pub status: GameStatus,
    /// Result.
    #[diesel(serialize_as = StoredOption<GameResult>)]
    pub result: Option<GameResult>,
    /// Why it ended.
    #[diesel(serialize_as = StoredOption<ResultReason>)]
    pub result_reason: Option<ResultReason>,
    /// Standing draw offer.
    pub draw_offered_by: Option<i32>,
    /// Seats that accepted it, in games of more than two seats.
    pub draw_accepted_by: Option<SeatSet>,
    /// Start.
    pub started_at: Option<NaiveDateTime>,
    /// End.
    pub finished_at: Option<NaiveDateTime>,
    /// Last change.
    pub last_activity_at: NaiveDateTime,
    /// When the current turn began.
    pub turn_started_at: Option<NaiveDateTime>,
    /// When the seat to move runs out of time.
    pub deadline_at: Option<NaiveDateTime>,
    /// Clock mails sent for the current turn.
    pub clock_notices: ClockNotices,
}

impl GameState {
    /// Withdraws the standing draw offer, with the seats that accepted it.
    pub fn clear_draw_offer(&mut self) {
        self.draw_offered_by = None;
        self.draw_accepted_by = None;
    }
}

impl Game {
    /// The changeable part of the row.
    #[must_use]
    pub fn state(&self) -> GameState {
        GameState {
            status: self.status,
            result: self.result.clone(),
            result_reason: self.result_reason,
            ply: self.ply,
            to_move: self.to_move,
            position: self.position.clone(),
            draw_offered_by: self.draw_offered_by,
            draw_accepted_by: self.draw_accepted_by.clone(),
            started_at: self.started_at,
            finished_at: self.finished_at,
            last_activity_at: self.last_activity_at,
            turn_started_at: self.turn_started_at,
            deadline_at: self.deadline_at,
            clock_notices: self.clock_notices,
        }
    }

    /// Applies a changed state to this value (after it was saved).
    pub fn apply(&mut self, state: GameState) {
        self.status = state.status;
        self.result = state.result;
        self.result_reason = state.result_reason;
        self.ply = state.ply;
        self.to_move = state.to_move;
        self.position = state.position;
        self.draw_offered_by = state.draw_offered_by;
        self.draw_accepted_by = state.draw_accepted_by;
        self.started_at = state.started_at;
        self.finished_at = state.finished_at;
        self.last_activity_at = state.last_activity_at;
        self.turn_started_at = state.turn_started_at;
        self.deadline_at = state.deadline_at;
        self.clock_notices = state.clock_notices;
    }
}

/// Inserts a game and reads it back.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert(conn: &mut DbConnection, new: &NewGame<'_>) -> Result<Game, DbError> {
    let id = match conn {
        DbConnection::Pg(pg) => diesel::insert_into(games::table)
            .values(*new)
            .returning(games::id)
            .get_result::<i64>(pg)?,
        DbConnection::Sqlite(sqlite) => {
            diesel::insert_into(games::table)
                .values(*new)
                .execute(sqlite)?;
            diesel::select(diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "last_insert_rowid()",
            ))
            .get_result::<i64>(sqlite)?
        }
    };
    Ok(games::table
        .find(id)
        .select(Game::as_select())
        .first(conn)?)
}

/// Reads a game without locking it.
///
/// # Errors
/// [`DbError::Query`].
pub fn find(conn: &mut DbConnection, id: i64) -> Result<Option<Game>, DbError> {
    // Every page and every move on SQLite: on the backend's own connection.
    Ok(super::on_own_connection!(conn, own => games::table
        .find(id)
        .select(Game::as_select())
        .first(own)
        .optional())?)
}

/// Reads a game and locks its row until the transaction ends (PostgreSQL `FOR UPDATE`; on
/// SQLite the immediate transaction already excludes other writers).
///
/// # Errors
/// [`DbError::Query`].
pub fn lock(conn: &mut DbConnection, id: i64) -> Result<Option<Game>, DbError> {
    match conn {
        DbConnection::Pg(pg) => Ok(games::table
            .find(id)
            .for_update()
            .select(Game::as_select())
            .first(pg)
            .optional()?),
        DbConnection::Sqlite(_) => find(conn, id),
    }
}

/// Writes a game's changed state.
///
/// # Errors
/// [`DbError::Query`].
pub fn save(conn: &mut DbConnection, id: i64, state: &GameState) -> Result<(), DbError> {
    diesel::update(games::table.find(id))
        .set(state.clone())
        .execute(conn)?;
    Ok(())
}

/// Sets the options of a game (its dice seed is drawn as it starts).
///
/// # Errors
/// [`DbError::Query`].
pub fn set_options(conn: &mut DbConnection, id: i64, options: &str) -> Result<(), DbError> {
    diesel::update(games::table.find(id))
        .set(games::options.eq(options))
        .execute(conn)?;
    Ok(())
}

/// Inserts the seats of a new game.
///
/// # Errors
/// [`DbError::Query`].
pub fn insert_seats(conn: &mut DbConnection, seats: &[GameSeat]) -> Result<(), DbError> {
    // One statement per row: diesel's SQLite backend has no multi-row INSERT … VALUES.
    for seat in seats {
        diesel::insert_into(game_seats::table)
            .values(seat)
            .execute(conn)?;
    }
    Ok(())
}

/// A player's notification settings, vacation and mute of one game, read with the seats so a
/// move needs no query per player.
#[derive(Debug, Clone, Default)]
pub struct PlayerSettings {
    /// The account.
    pub account_id: i64,
    /// Stored preferences (none: the defaults).
    pub preferences: Option<NotificationSettingsRow>,
    /// End of the player's vacation, if one was taken.
    pub vacation_until: Option<NaiveDateTime>,
    /// Whether the player muted this game.
    pub muted: bool,
}

/// The columns of `notification_settings`, as a left join reads them.
type SettingsColumns = (
    i64,
    String,
    Stored<TurnMail>,
    i32,
    Flag,
    Flag,
    Flag,
    Flag,
    Flag,
    Option<String>,
    NaiveDateTime,
    Flag,
);

/// A seat, its player, the player's settings, vacation end and mute of the game.
type SeatRow = (
    GameSeat,
    Account,
    Option<SettingsColumns>,
    Option<NaiveDateTime>,
    Option<i64>,
);

fn settings_row(c: SettingsColumns) -> NotificationSettingsRow {
    NotificationSettingsRow {
        account_id: c.0,
        time_zone: c.1,
        turn_mail: c.2.into(),
        digest_hour: c.3,
        challenges: c.4.into(),
        challenge_replies: c.5.into(),
        game_over: c.6.into(),
        draw_offers: c.7.into(),
        reminders: c.8.into(),
        last_digest_on: c.9,
        updated_at: c.10,
        mail_confirmations: c.11.into(),
    }
}

/// The seats (with players, settings, vacation ends and mutes) of the games `$games` selects.
macro_rules! seat_rows {
    ($games:expr) => {
        game_seats::table
            .inner_join(accounts::table)
            .left_join(
                notification_settings::table
                    .on(notification_settings::account_id.eq(game_seats::account_id)),
            )
            .left_join(vacations::table.on(vacations::account_id.eq(game_seats::account_id)))
            .left_join(
                game_mutes::table.on(game_mutes::account_id
                    .eq(game_seats::account_id)
                    .and(game_mutes::game_id.eq(game_seats::game_id))),
            )
            .filter($games)
            .order((game_seats::game_id.asc(), game_seats::seat.asc()))
            .select((
                GameSeat::as_select(),
                Account::as_select(),
                (
                    notification_settings::account_id,
                    notification_settings::time_zone,
                    notification_settings::turn_mail,
                    notification_settings::digest_hour,
                    notification_settings::challenges,
                    notification_settings::challenge_replies,
                    notification_settings::game_over,
                    notification_settings::draw_offers,
                    notification_settings::reminders,
                    notification_settings::last_digest_on,
                    notification_settings::updated_at,
                    notification_settings::mail_confirmations,
                )
                    .nullable(),
                vacations::until_at.nullable(),
                game_mutes::game_id.nullable(),
            ))
    };
}

fn with_settings(rows: Vec<SeatRow>) -> Vec<(GameSeat, Account, PlayerSettings)> {
    rows.into_iter()
        .map(|(seat, account, preferences, vacation, mute)| {
            let settings = PlayerSettings {
                account_id: account.id,
                preferences: preferences.map(settings_row),
                vacation_until: vacation,
                muted: mute.is_some(),
            };
            (seat, account, settings)
        })
        .collect()
}

/// A game's seats with their players and their settings, in turn order.
///
/// # Errors
/// [`DbError::Query`].
pub fn seats_with_settings(
    conn: &mut DbConnection,
    game_id: i64,
) -> Result<Vec<(GameSeat, Account, PlayerSettings)>, DbError> {
    // Every move: on the backend's own connection.
    let rows: Vec<SeatRow> = super::on_own_connection!(conn, own =>
        seat_rows!(game_seats::game_id.eq(game_id)).load(own))?;
    Ok(with_settings(rows))
}

/// The seats of several games with their players and settings, by game, in turn order.
///
/// # Errors
/// [`DbError::Query`].
pub fn seats_with_settings_of(
    conn: &mut DbConnection,
    game_ids: &[i64],
) -> Result<Vec<(GameSeat, Account, PlayerSettings)>, DbError> {
    let rows: Vec<SeatRow> = super::on_own_connection!(conn, own =>
        seat_rows!(game_seats::game_id.eq_any(game_ids)).load(own))?;
    Ok(with_settings(rows))
}

/// The games with these ids (any order; unknown ids are left out).
///
/// # Errors
/// [`DbError::Query`].
pub fn find_many(conn: &mut DbConnection, ids: &[i64]) -> Result<Vec<Game>, DbError> {
    Ok(super::on_own_connection!(conn, own => games::table
        .filter(games::id.eq_any(ids))
        .select(Game::as_select())
        .load(own))?)
}

/// A game's seats with their players, in turn order.
///
/// # Errors
/// [`DbError::Query`].
pub fn seats(conn: &mut DbConnection, game_id: i64) -> Result<Vec<(GameSeat, Account)>, DbError> {
    Ok(game_seats::table
        .inner_join(accounts::table)
        .filter(game_seats::game_id.eq(game_id))
        .order(game_seats::seat.asc())
        .select((GameSeat::as_select(), Account::as_select()))
        .load(conn)?)
}

/// Seats of several games with the players' names (listings).
///
/// # Errors
/// [`DbError::Query`].
pub fn seats_of(
    conn: &mut DbConnection,
    game_ids: &[i64],
) -> Result<Vec<(GameSeat, String)>, DbError> {
    Ok(game_seats::table
        .inner_join(accounts::table)
        .filter(game_seats::game_id.eq_any(game_ids))
        .order((game_seats::game_id.asc(), game_seats::seat.asc()))
        .select((GameSeat::as_select(), accounts::name))
        .load(conn)?)
}

/// The names of the accounts with these ids (account id, name).
///
/// # Errors
/// [`DbError::Query`].
pub fn account_names(conn: &mut DbConnection, ids: &[i64]) -> Result<Vec<(i64, String)>, DbError> {
    Ok(accounts::table
        .filter(accounts::id.eq_any(ids))
        .select((accounts::id, accounts::name))
        .load(conn)?)
}

/// Records that `seat`'s player left at `ply` (kept if it was recorded before: the player left
/// then) and, with `played_by`, the bot that plays the seat on from now.
///
/// # Errors
/// [`DbError::Query`].
pub fn seat_left(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
    ply: i32,
    played_by: Option<i64>,
) -> Result<(), DbError> {
    let row = game_seats::table.find((game_id, seat));
    diesel::update(row.filter(game_seats::left_ply.is_null()))
        .set(game_seats::left_ply.eq(Some(ply)))
        .execute(conn)?;
    if let Some(bot) = played_by {
        diesel::update(row)
            .set(game_seats::played_by.eq(Some(bot)))
            .execute(conn)?;
    }
    Ok(())
}

/// Marks a seat accepted.
///
/// # Errors
/// [`DbError::Query`].
pub fn accept_seat(
    conn: &mut DbConnection,
    game_id: i64,
    seat: i32,
    at: NaiveDateTime,
) -> Result<(), DbError> {
    diesel::update(game_seats::table.find((game_id, seat)))
        .set(game_seats::accepted_at.eq(Some(at)))
        .execute(conn)?;
    Ok(())
}

/// Appends a move. A second move at the same ply is a unique violation.
///
/// # Errors
/// [`DbError::Query`] ([`DbError::is_unique_violation`] for a taken ply).
pub fn insert_move(conn: &mut DbConnection, row: &MoveRow) -> Result<(), DbError> {
    diesel::insert_into(moves::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

/// Every move of a game, first first.
///
/// # Errors
/// [`DbError::Query`].
pub fn moves(conn: &mut DbConnection, game_id: i64) -> Result<Vec<MoveRow>, DbError> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.asc())
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// The last `n` moves of a game, first first.
///
/// # Errors
/// [`DbError::Query`].
pub fn last_moves(conn: &mut DbConnection, game_id: i64, n: i64) -> Result<Vec<MoveRow>, DbError> {
    let mut rows: Vec<MoveRow> = super::on_own_connection!(conn, own => moves::table
        .filter(moves::game_id.eq(game_id))
        .order(moves::ply.desc())
        .limit(n)
        .select(MoveRow::as_select())
        .load(own))?;
    rows.reverse();
    Ok(rows)
}

/// A page of a game's moves, first first: the first `limit` after ply `after` when given,
/// else the last `limit` before ply `before` (or of all).
///
/// # Errors
/// [`DbError::Query`].
pub fn moves_page(
    conn: &mut DbConnection,
    game_id: i64,
    after: Option<i32>,
    before: Option<i32>,
    limit: i64,
) -> Result<Vec<MoveRow>, DbError> {
    let mut query = moves::table
        .filter(moves::game_id.eq(game_id))
        .select(MoveRow::as_select())
        .limit(limit)
        .into_boxed();
    if let Some(after) = after {
        query = query.filter(moves::ply.gt(after)).order(moves::ply.asc());
        return Ok(query.load(conn)?);
    }
    if let Some(before) = before {
        query = query.filter(moves::ply.lt(before));
    }
    let mut rows: Vec<MoveRow> = query.order(moves::ply.desc()).load(conn)?;
    rows.reverse();
    Ok(rows)
}

/// The move at `ply`, if played.
///
/// # Errors
/// [`DbError::Query`].
pub fn move_at(
    conn: &mut DbConnection,
    game_id: i64,
    ply: i32,
) -> Result<Option<MoveRow>, DbError> {
    Ok(moves::table
        .find((game_id, ply))
        .select(MoveRow::as_select())
        .first(conn)
        .optional()?)
}

/// A page of the account's games, newest activity first, after the keyset `before`
/// (`last_activity_at`, `id`) of the previous page's last game. Challenges made at or before
/// `lapsed_at` count as cancelled (they expire lazily), so a listing by `status` filters on the
/// status as shown: invited means still open, cancelled includes the lapsed ones.
///
/// # Errors
/// [`DbError::Query`].
pub fn list_for_account(
    conn: &mut DbConnection,
    account_id: i64,
    status: Option<GameStatus>,
    my_turn: bool,
    before: Option<(NaiveDateTime, i64)>,
    limit: i64,
    lapsed_at: NaiveDateTime,
) -> Result<Vec<Game>, DbError> {
    let mut query = games::table
        .inner_join(game_seats::table)
        .filter(game_seats::account_id.eq(account_id))
        .select(Game::as_select())
        .order((games::last_activity_at.desc(), games::id.desc()))
        .limit(limit)
        .into_boxed();
    match status {
        None => {}
        Some(GameStatus::Invited) => {
            query = query
                .filter(games::status.eq(Stored(GameStatus::Invited)))
                .filter(games::created_at.gt(lapsed_at));
        }
        Some(GameStatus::Active) => {
            query = query.filter(games::status.eq(Stored(GameStatus::Active)))
        }
        Some(GameStatus::Finished) => {
            query = query.filter(games::status.eq(Stored(GameStatus::Finished)));
        }
        Some(GameStatus::Cancelled) => {
            query = query.filter(
                games::status
                    .eq(Stored(GameStatus::Cancelled))
                    .or(games::status
                        .eq(Stored(GameStatus::Invited))
                        .and(games::created_at.le(lapsed_at))),
            );
        }
    }
    if my_turn {
        query = query
            .filter(games::status.eq(Stored(GameStatus::Active)))
            .filter(games::to_move.eq(game_seats::seat.nullable()))
            // A seat a bot plays on is no longer its player's turn.
            .filter(game_seats::played_by.is_null());
    }
    if let Some((at, id)) = before {
        query = query.filter(
            games::last_activity_at
                .lt(at)
                .or(games::last_activity_at.eq(at).and(games::id.lt(id))),
        );
    }
    Ok(query.load(conn)?)
}

/// Recent active and finished games, newest activity first, optionally of one kind and of one
/// player (the public listing).
///
/// # Errors
/// [`DbError::Query`].
pub fn recent_public(
    conn: &mut DbConnection,
    kind: Option<turnpost_shared::GameKind>,
    account_id: Option<i64>,
    limit: i64,
) -> Result<Vec<Game>, DbError> {
    let mut query = games::table
        .filter(
            games::status
                .eq(Stored(GameStatus::Active))
                .or(games::status.eq(Stored(GameStatus::Finished))),
        )
        .select(Game::as_select())
        .order((games::last_activity_at.desc(), games::id.desc()))
        .limit(limit)
        .into_boxed();
    if let Some(kind) = kind {
        query = query.filter(games::kind.eq(kind.to_string()));
    }
    if let Some(account_id) = account_id {
        query = query.filter(
            games::id.eq_any(
                game_seats::table
                    .filter(game_seats::account_id.eq(account_id))
                    .select(game_seats::game_id),
            ),
        );
    }
    Ok(query.load(conn)?)
}
