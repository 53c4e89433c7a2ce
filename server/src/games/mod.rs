//! The game service, the same for every channel (HTTP, the bot worker `crate::bots`, and
//! mail replies `crate::inbound`; web forms next): challenges ([`challenge::create`],
//! [`challenge::accept`], [`challenge::decline`]), open seats ([`open_seats::join`],
//! [`open_seats::leave`], [`open_seats::list`], [`open_seats::lapse`]),
//! [`rematch::rematch`], [`moving::play`], [`ending::resign`],
//! [`ending::draw`], [`ending::claim`], vacations ([`vacation`]) and the [`reads`]. Each
//! takes an [`Actor`] and answers a domain value or a [`GameError`]; none knows HTTP (the HTTP
//! layer maps `GameError` in `crate::http::error`).
//! Every write, the clock sweeps' and vacations' included, runs in one frame ([`frame`]): lock
//! the game, act, commit, then wake the mail worker for the outbox rows the action queued.
//!
//! The `moves` table is the truth; `games.position`, `status`, `ply` and `to_move` are a cache
//! derived from it by the engine and written in the same transaction as each move.

mod actor;
pub mod arranged;
mod audience;
pub mod challenge;
mod clock;
pub mod conditional;
pub mod dice;
pub mod ending;
mod error;
pub mod event;
mod forced;
pub mod frame;
pub mod length;
pub mod messages;
pub mod moving;
pub mod open_seats;
pub mod options;
mod played_move;
pub mod rating;
pub mod rating_update;
pub mod reads;
pub mod record;
pub mod rematch;
pub mod vacation;
pub mod view;

pub use actor::Actor;
pub use audience::{audience, Told};
pub use error::GameError;
// The game's states are shared vocabulary (the API shows them); re-exported for the service's
// callers.
pub use event::GameEvent;
pub use turnpost_shared::play::{BadGameResult, GameResult, GameStatus, ResultReason};

use chrono::NaiveDateTime;
use turnpost_shared::{AnyGame, Options, Status};

use crate::db::accounts::Account;
use crate::db::games::{self as q, Game, GameSeat, GameState, PlayerSettings};
use crate::db::{DbConnection, DbError};

/// How long a challenge waits for its players.
pub const CHALLENGE_DAYS: i64 = 7;
/// How many recent moves a game view shows.
pub const LAST_MOVES: i64 = 10;

/// A game with its seats and players.
#[derive(Debug, Clone)]
pub struct GameWithSeats {
    /// The row.
    pub game: Game,
    /// Seats in turn order with their players.
    pub seats: Vec<(GameSeat, Account)>,
    /// What the mails and clocks need to know of each player, read with the seats.
    pub players: Vec<PlayerSettings>,
    /// The bots playing seats on for players who left (`on-leave=bot`): (seat, bot account).
    pub stand_ins: Vec<(i32, Account)>,
    /// The seats a challenge was posted with open, taken or not (read for challenges only:
    /// a started game has none).
    pub posted_open: Vec<i32>,
}

impl GameWithSeats {
    /// Loads a game, locking its row when `lock` (inside a write transaction).
    ///
    /// # Errors
    /// [`GameError::NotFound`] if there is no such game; storage failures.
    pub fn load(conn: &mut DbConnection, game_id: i64, lock: bool) -> Result<Self, GameError> {
        Self::find(conn, game_id, lock)?.ok_or(GameError::NotFound { game_id })
    }

    /// Loads a game if it exists, locking its row when `lock` (inside a write transaction).
    ///
    /// # Errors
    /// Storage failures.
    pub fn find(
        conn: &mut DbConnection,
        game_id: i64,
        lock: bool,
    ) -> Result<Option<Self>, DbError> {
        let found = if lock {
            q::lock(conn, game_id)?
        } else {
            q::find(conn, game_id)?
        };
        let Some(game) = found else {
            return Ok(None);
        };
        let rows = q::seats_with_settings(conn, game_id)?;
        Self::assemble(conn, game, rows).map(Some)
    }

    /// Writes `state` to the game's row and takes it into this copy.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub fn save(&mut self, conn: &mut DbConnection, state: GameState) -> Result<(), DbError> {
        q::save(conn, self.game.id, &state)?;
        self.game.apply(state);
        Ok(())
    }

    /// [`save`](Self::save), then records `event` in the game's log, in the caller's
    /// transaction: every change that others are told of is written with its telling.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub fn save_and_record(
        &mut self,
        conn: &mut DbConnection,
        state: GameState,
        event: event::GameEvent,
    ) -> Result<(), DbError> {
        self.save(conn, state)?;
        event::record(conn, self, event)
    }

    /// Loads several games (not locked) with two queries for all of them; unknown ids are
    /// left out.
    ///
    /// # Errors
    /// Storage failures.
    pub fn find_many(conn: &mut DbConnection, game_ids: &[i64]) -> Result<Vec<Self>, DbError> {
        if game_ids.is_empty() {
            return Ok(Vec::new());
        }
        let games = q::find_many(conn, game_ids)?;
        let mut rows = q::seats_with_settings_of(conn, game_ids)?;
        let mut found = Vec::with_capacity(games.len());
        for game in games {
            let (own, rest) = rows
                .into_iter()
                .partition(|(seat, _, _)| seat.game_id == game.id);
            rows = rest;
            found.push(Self::assemble(conn, game, own)?);
        }
        Ok(found)
    }

    /// A game with its seat rows (in turn order); reads the bots playing seats on.
    fn assemble(
        conn: &mut DbConnection,
        game: Game,
        rows: Vec<(GameSeat, Account, PlayerSettings)>,
    ) -> Result<Self, DbError> {
        let mut seats = Vec::new();
        let mut players = Vec::new();
        let mut stand_ins = Vec::new();
        for (seat, account, settings) in rows {
            if let Some(bot) = seat.played_by {
                if let Some(bot) = crate::db::accounts::by_id(conn, bot)? {
                    stand_ins.push((seat.seat, bot));
                }
            }
            seats.push((seat, account));
            players.push(settings);
        }
        let posted_open = if game.status == GameStatus::Invited {
            crate::db::open_seats::posted(conn, game.id)?
        } else {
            Vec::new()
        };
        Ok(Self {
            game,
            seats,
            players,
            stand_ins,
            posted_open,
        })
    }

    /// The open seats nobody took yet, ascending.
    #[must_use]
    pub fn vacant_seats(&self) -> Vec<i32> {
        self.posted_open
            .iter()
            .copied()
            .filter(|open| self.seats.iter().all(|(seat, _)| seat.seat != *open))
            .collect()
    }

    /// The settings of the player with `account_id` (defaults if unknown).
    #[must_use]
    pub fn settings_of(&self, account_id: i64) -> PlayerSettings {
        self.players
            .iter()
            .find(|p| p.account_id == account_id)
            .cloned()
            .unwrap_or(PlayerSettings {
                account_id,
                ..PlayerSettings::default()
            })
    }

    /// The seat `account_id` holds, if any.
    #[must_use]
    pub fn seat_of(&self, account_id: i64) -> Option<i32> {
        self.seats
            .iter()
            .find(|(seat, _)| seat.account_id == account_id)
            .map(|(seat, _)| seat.seat)
    }

    /// The player at `seat`.
    #[must_use]
    pub fn player_at(&self, seat: i32) -> Option<&Account> {
        self.seats
            .iter()
            .find(|(s, _)| s.seat == seat)
            .map(|(_, account)| account)
    }

    /// The bot playing `seat` on for the player who left it, if one does (`on-leave=bot`).
    #[must_use]
    pub fn stand_in(&self, seat: i32) -> Option<&Account> {
        self.stand_ins
            .iter()
            .find(|(s, _)| *s == seat)
            .map(|(_, bot)| bot)
    }

    /// Who plays `seat` now, for people: `bob`, or `bot-3 (for bob)` once a bot took it over.
    #[must_use]
    pub fn playing_name(&self, seat: i32) -> String {
        let player = self
            .player_at(seat)
            .map_or_else(|| format!("seat {seat}"), |a| a.name.clone());
        match self.stand_in(seat) {
            Some(bot) => format!("{} (for {player})", bot.name),
            None => player,
        }
    }

    /// The seats whose players have left (first to leave first): the seats off the board and
    /// the seats bots play on.
    ///
    /// # Errors
    /// [`DbError::Corrupt`] for an unreadable stored position.
    pub fn players_left(&self) -> Result<Vec<i32>, DbError> {
        let removed = engine(&self.game)?.departed();
        Ok(
            view::left_in_order(&removed, self.seats.iter().map(|(s, _)| s))
                .into_iter()
                .map(seat_number)
                .collect(),
        )
    }

    /// Refuses a seat that has left the game, and a seat a bot plays on for anyone but that
    /// bot (the player who left cannot come back).
    ///
    /// # Errors
    /// [`GameError::LeftGame`]; [`DbError::Corrupt`] for an unreadable stored position.
    pub fn require_playing(&self, seat: i32, actor: &Actor) -> Result<(), GameError> {
        let stood_in = self
            .stand_in(seat)
            .is_some_and(|bot| bot.id != actor.account_id());
        if stood_in || self.departed()?.contains(&seat) {
            Err(GameError::LeftGame {
                game_id: self.game.id,
                seat,
            })
        } else {
            Ok(())
        }
    }

    /// The seats that have left the board (first to leave first), from its cached position;
    /// seats bots play on are still on it.
    ///
    /// # Errors
    /// [`DbError::Corrupt`] for an unreadable stored position.
    pub fn departed(&self) -> Result<Vec<i32>, DbError> {
        Ok(engine(&self.game)?
            .departed()
            .into_iter()
            .map(seat_number)
            .collect())
    }

    /// The seat `actor` acts for (a bot: also a seat it plays on for a player who left), and
    /// the account holding it.
    ///
    /// # Errors
    /// [`GameError::NotYourGame`].
    pub fn require_seat(&self, actor: &Actor) -> Result<(i32, &Account), GameError> {
        self.seats
            .iter()
            .find(|(seat, _)| actor.may_act_for(seat))
            .map(|(seat, account)| (seat.seat, account))
            .ok_or(GameError::NotYourGame {
                game_id: self.game.id,
            })
    }
}

/// The stored options of a game.
///
/// # Errors
/// [`DbError::Corrupt`] if the stored text is not readable (a bug).
pub fn stored_options(game: &Game) -> Result<Options, DbError> {
    Options::from_pairs(game.options.split_whitespace())
        .map_err(|e| DbError::Corrupt(format!("game {}: stored options: {e}", game.id)))
}

/// The game's start position with its full stored options (a drawn dice seed too), from which
/// the server replays earlier positions; a challenge whose dice are not drawn starts without
/// a roll.
///
/// # Errors
/// [`DbError::Corrupt`] if the stored options are not readable (a bug).
pub fn start_engine(game: &Game) -> Result<AnyGame, DbError> {
    let options = stored_options(game)?;
    let start = if dice::undrawn(game, &options) {
        AnyGame::new_seed_withheld(game.kind, &options)
    } else {
        AnyGame::new(game.kind, &options)
    };
    start.map_err(|e| DbError::Corrupt(format!("game {}: stored options: {e}", game.id)))
}

/// The engine position of a game, from its cached position text.
///
/// # Errors
/// [`DbError::Corrupt`] if the stored position is not readable (a bug).
pub fn engine(game: &Game) -> Result<AnyGame, DbError> {
    let options = stored_options(game)?;
    if dice::undrawn(game, &options) {
        // A challenge's dice are drawn when it starts: its start position has no roll yet.
        return AnyGame::new_seed_withheld(game.kind, &options)
            .map_err(|e| DbError::Corrupt(format!("game {}: stored options: {e}", game.id)));
    }
    AnyGame::from_position_text(&options, &game.position)
        .map_err(|e| DbError::Corrupt(format!("game {}: stored position: {e}", game.id)))
}

/// The position of a game as its players know it: from its cached position text, with the
/// dice seed withheld while the game runs (only the roll of the turn in progress is known).
/// What a bot thinks with (invariant 7).
///
/// # Errors
/// [`DbError::Corrupt`] if the stored options or position are not readable (a bug).
pub fn player_view(game: &Game) -> Result<AnyGame, DbError> {
    let options = stored_options(game)?;
    if dice::undrawn(game, &options) {
        return engine(game);
    }
    AnyGame::from_position_text_seed_withheld(&dice::shown_options(game, &options), &game.position)
        .map_err(|e| DbError::Corrupt(format!("game {}: stored position: {e}", game.id)))
}

/// The seat number as stored.
#[must_use]
pub fn seat_number(seat: turnpost_shared::Seat) -> i32 {
    i32::from(seat.number())
}

/// The status, result and seat to move that an engine status means for a started game.
#[must_use]
pub fn status_columns(status: &Status) -> (GameStatus, Option<GameResult>, Option<i32>) {
    match status {
        Status::Ongoing { to_move } => (GameStatus::Active, None, Some(seat_number(*to_move))),
        over => (GameStatus::Finished, GameResult::of_status(over), None),
    }
}

/// The status to show: an invited game past its expiry is cancelled, even before a write
/// records it (challenges expire lazily, see [`challenge`]).
#[must_use]
pub fn shown_status(game: &Game, now: NaiveDateTime) -> GameStatus {
    if game.status == GameStatus::Invited && expires_at(game) <= now {
        GameStatus::Cancelled
    } else {
        game.status
    }
}

/// When a challenge lapses: [`CHALLENGE_DAYS`] after it was made.
#[must_use]
pub fn expires_at(game: &Game) -> NaiveDateTime {
    game.created_at + chrono::Duration::days(CHALLENGE_DAYS)
}

/// The creation time before which a challenge made has expired by `now`.
#[must_use]
pub fn expired_before(now: NaiveDateTime) -> NaiveDateTime {
    now - chrono::Duration::days(CHALLENGE_DAYS)
}
