//! Games the server arranges for players (tournament rounds, `crate::tournaments`): made
//! already started, every seat accepted, with no challenge step. Each is still the usual game:
//! the same row, clocks, turn card and start mail as a challenge that every player accepted.

use std::collections::BTreeMap;

use turnpost_shared::api::OptionValue;
use turnpost_shared::play::{ClockSpec, TimeoutMode};
use turnpost_shared::{AnyGame, GameKind};

use super::{options, GameError, GameStatus, GameWithSeats};
use crate::db::games as q;
use crate::db::games::{GameSeat, NewGame};
use crate::db::{self, accounts, DbConnection, DbError};

/// The settings of the games to arrange, checked.
#[derive(Debug, Clone)]
pub struct Arrangement {
    /// The kind.
    pub kind: GameKind,
    /// The options as given (a table's seat count is set per game).
    pub options: BTreeMap<String, OptionValue>,
    /// The clock, canonical (`3d`).
    pub clock: String,
    /// What happens when a seat runs out of time.
    pub timeout: TimeoutMode,
}

/// Reads a clock as a challenge does (`None`: the default).
///
/// # Errors
/// [`GameError::InvalidClock`].
pub fn clock_text(clock: Option<&str>) -> Result<String, GameError> {
    Ok(match clock {
        None => ClockSpec::default(),
        Some(text) => text
            .parse::<ClockSpec>()
            .map_err(|e| GameError::InvalidClock(e.to_string()))?,
    }
    .to_string())
}

/// The start position a game of `seats` players with these settings would have, as a
/// challenge checks it.
///
/// # Errors
/// [`GameError::InvalidOptions`] naming the key.
pub fn start_position(arrangement: &Arrangement, seats: usize) -> Result<AnyGame, GameError> {
    options::start_position(arrangement.kind, &arrangement.options, seats)
}

/// Creates a started game for `players` (account ids, in seat order) inside the caller's
/// write transaction; the caller wakes the mail worker once it commits. The first seat's
/// player counts as the one who started it (the others get the start mail, the seat to move
/// its turn card).
///
/// # Errors
/// [`GameError::InvalidOptions`], [`GameError::SeatCount`] when the options do not fit the
/// number of players; [`GameError::UnknownPlayer`] for an account that does not exist;
/// storage failures.
pub fn create_started(
    conn: &mut DbConnection,
    arrangement: &Arrangement,
    players: &[i64],
) -> Result<i64, GameError> {
    let start = start_position(arrangement, players.len())?;
    if usize::from(start.seat_count()) != players.len() {
        return Err(GameError::SeatCount(format!(
            "{} has {} seats, but {} players were arranged",
            start.kind(),
            start.seat_count(),
            players.len()
        )));
    }
    let Some(&first) = players.first() else {
        return Err(GameError::SeatCount("a game needs players".to_owned()));
    };
    let by = accounts::by_id(conn, first)?.ok_or(GameError::UnknownPlayer {
        name: format!("account {first}"),
    })?;
    let options_text = start.options().to_string();
    // Tournaments seat people only: rated unless an option of the kind says otherwise.
    let rated = super::rating::decide(start.kind(), &start.options(), None, false)?;
    let position = start.position_text();
    let now = db::now();
    let game = q::insert(
        conn,
        &NewGame {
            kind: arrangement.kind,
            options: &options_text,
            clock: Some(arrangement.clock.as_str()),
            timeout_mode: arrangement.timeout,
            on_leave: turnpost_shared::play::OnLeave::default(),
            rated,
            status: GameStatus::Invited,
            ply: 0,
            position: &position,
            created_by: by.id,
            created_at: now,
            last_activity_at: now,
        },
    )?;
    let mut seats = Vec::with_capacity(players.len());
    for (i, account_id) in players.iter().enumerate() {
        let seat = i32::try_from(i + 1)
            .map_err(|_| DbError::Corrupt(format!("seat {} out of range", i + 1)))?;
        seats.push(GameSeat {
            game_id: game.id,
            seat,
            account_id: *account_id,
            accepted_at: Some(now),
            bank_seconds: None,
            played_by: None,
            left_ply: None,
        });
    }
    q::insert_seats(conn, &seats)?;
    let mut loaded = GameWithSeats::load(conn, game.id, true)?;
    super::challenge::start_game(conn, &mut loaded, &by, now)?;
    Ok(game.id)
}
