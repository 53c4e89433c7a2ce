//! Rows as Rust structs.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use turnpost_shared::{
    GameKind, GameResult, GameStatus, OnLeave, ResultReason, TimeoutMode, TurnMail,
};

use super::ClockNotices;

use super::preference_columns::Flag;
use super::schema::{
    accounts, api_tokens, browser_sessions, game_seats, games, moves, notification_settings,
    sign_in_codes, vacations,
};
use super::seat_set::SeatSet;
use super::text_column::{Stored, StoredOption};

/// An account row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = accounts)]
pub struct Account {
    /// Id.
    pub id: i64,
    /// Name as spelled at sign-up.
    pub name: String,
    /// Lower-cased name, unique.
    pub name_key: String,
    /// Email as given.
    pub email: String,
    /// Lower-cased email, unique.
    pub email_key: String,
    /// When a code sent to the email was first verified (None: sign-up not finished).
    pub verified_at: Option<NaiveDateTime>,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// The level of a built-in bot account (1-5); None for people.
    pub bot_level: Option<i32>,
    /// Signs the account's play links; revoking an API token increments it, so the links and
    /// play cookies issued before stop working (`crate::play_link`).
    pub link_generation: i32,
}

impl Account {
    /// Whether this is a built-in bot account (it cannot sign in and receives no mail).
    #[must_use]
    pub fn is_bot(&self) -> bool {
        self.bot_level.is_some()
    }

    /// The API view of this account.
    #[must_use]
    pub fn to_api(&self) -> turnpost_shared::Account {
        turnpost_shared::Account {
            id: self.id,
            name: self.name.clone(),
            email: self.email.clone(),
            created_at: super::rfc3339(self.created_at),
        }
    }
}

/// A new account.
#[derive(Debug, Insertable)]
#[diesel(table_name = accounts)]
pub struct NewAccount<'a> {
    /// Name as spelled.
    pub name: &'a str,
    /// Lower-cased name.
    pub name_key: &'a str,
    /// Email as given.
    pub email: &'a str,
    /// Lower-cased email.
    pub email_key: &'a str,
    /// Verified already (operator command) or not yet.
    pub verified_at: Option<NaiveDateTime>,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// An API token row (the secret itself is never stored).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = api_tokens)]
pub struct ApiToken {
    /// Id.
    pub id: i64,
    /// Owner.
    pub account_id: i64,
    /// Hex SHA-256 of the token.
    pub token_hash: String,
    /// Label.
    pub label: String,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// Last use, to the minute.
    pub last_used_at: Option<NaiveDateTime>,
}

impl ApiToken {
    /// The API view of this token.
    #[must_use]
    pub fn to_api(&self) -> turnpost_shared::TokenInfo {
        turnpost_shared::TokenInfo {
            id: self.id,
            label: self.label.clone(),
            created_at: super::rfc3339(self.created_at),
            last_used_at: self.last_used_at.map(super::rfc3339),
        }
    }
}

/// A new API token.
#[derive(Debug, Insertable)]
#[diesel(table_name = api_tokens)]
pub struct NewApiToken<'a> {
    /// Owner.
    pub account_id: i64,
    /// Hex SHA-256 of the token.
    pub token_hash: &'a str,
    /// Label.
    pub label: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
}

/// A one-time sign-in code row.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = sign_in_codes)]
pub struct SignInCode {
    /// Id.
    pub id: i64,
    /// Account the code signs in to.
    pub account_id: i64,
    /// Hex SHA-256 of the code.
    pub code_hash: String,
    /// Wrong guesses so far.
    pub attempts: i32,
    /// End of validity.
    pub expires_at: NaiveDateTime,
    /// When it was used or superseded.
    pub used_at: Option<NaiveDateTime>,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// Hex SHA-256 of the sign-in link mailed with the code.
    pub link_hash: Option<String>,
}

/// A new sign-in code.
#[derive(Debug, Insertable)]
#[diesel(table_name = sign_in_codes)]
pub struct NewSignInCode<'a> {
    /// Account.
    pub account_id: i64,
    /// Hex SHA-256 of the code.
    pub code_hash: &'a str,
    /// End of validity.
    pub expires_at: NaiveDateTime,
    /// Now.
    pub created_at: NaiveDateTime,
    /// Hex SHA-256 of the sign-in link mailed with the code.
    pub link_hash: Option<&'a str>,
}

/// A signed-in browser (the session cookie's secret is stored hashed).
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = browser_sessions)]
pub struct BrowserSession {
    /// Id.
    pub id: i64,
    /// The account signed in.
    pub account_id: i64,
    /// Hex SHA-256 of the cookie's secret.
    pub secret_hash: String,
    /// Which browser, for the list of sessions (its user agent, shortened).
    pub label: String,
    /// When it signed in.
    pub created_at: NaiveDateTime,
    /// When it was last used (noted at most once a minute).
    pub last_used_at: NaiveDateTime,
}

/// A new browser session.
#[derive(Debug, Insertable)]
#[diesel(table_name = browser_sessions)]
pub struct NewBrowserSession<'a> {
    /// The account signed in.
    pub account_id: i64,
    /// Hex SHA-256 of the cookie's secret.
    pub secret_hash: &'a str,
    /// Which browser.
    pub label: &'a str,
    /// Now.
    pub created_at: NaiveDateTime,
    /// Now.
    pub last_used_at: NaiveDateTime,
}

/// A game row: the challenge, then the game, with its cached position.
#[derive(Debug, Clone, Queryable, Selectable, Identifiable)]
#[diesel(table_name = games)]
pub struct Game {
    /// Id.
    pub id: i64,
    /// Kind (stored by name, `kefren`, …).
    #[diesel(deserialize_as = String)]
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
    #[diesel(deserialize_as = String)]
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
    #[diesel(deserialize_as = String)]
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
}

/// An account's notification preferences (absent: the defaults).
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = notification_settings, treat_none_as_null = true)]
pub struct NotificationSettingsRow {
    /// Account.
    pub account_id: i64,
    /// IANA time zone name.
    pub time_zone: String,
    /// How turn mail goes.
    #[diesel(deserialize_as = Stored<TurnMail>, serialize_as = Stored<TurnMail>)]
    pub turn_mail: TurnMail,
    /// Local hour of the digest.
    pub digest_hour: i32,
    /// Challenge mail (stored 1/0, as every switch below).
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub challenges: bool,
    /// Mail about answers to the account's challenges.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub challenge_replies: bool,
    /// Game-over mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub game_over: bool,
    /// Draw-offer mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub draw_offers: bool,
    /// Deadline reminders.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub reminders: bool,
    /// Local date of the last digest.
    pub last_digest_on: Option<String>,
    /// Last change.
    pub updated_at: NaiveDateTime,
    /// Confirmations of commands sent by mail.
    #[diesel(deserialize_as = Flag, serialize_as = Flag)]
    pub mail_confirmations: bool,
}

/// Vacation days of an account in one year.
#[derive(Debug, Clone, Queryable, Selectable, Insertable, AsChangeset)]
#[diesel(table_name = vacations, treat_none_as_null = true)]
pub struct VacationRow {
    /// Account.
    pub account_id: i64,
    /// Calendar year (UTC) the days count in.
    pub year: i32,
    /// Days taken that year.
    pub days_used: i32,
    /// End of the running vacation.
    pub until_at: Option<NaiveDateTime>,
}
