//! What happened in a game that mail reports, and the small row that records it in the
//! change's own transaction: the event, the few facts its mail names (who acted, which seat
//! left and how) and the game as it was then (position text, seat to move and its deadline,
//! result), so the mail shows that moment even when it is composed after later moves.
//! The game service records them; `crate::notify` turns each into its mail later.

use turnpost_shared::play::Departure;

use super::GameWithSeats;
use crate::db::events::{self as q, EventKind, GameEventRow, NewGameEvent};
use crate::db::{DbConnection, DbError};

/// A game event that causes mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameEvent {
    /// Account `by` made a challenge: the invited players hear of it.
    Challenged {
        /// The challenger.
        by: i64,
    },
    /// `by` accepted and others still have to: the challenger hears of it.
    Accepted {
        /// Who accepted.
        by: i64,
    },
    /// `by`'s accept started the game: every other player hears of it, the seat to move
    /// gets its turn card.
    Started {
        /// Whose accept started it.
        by: i64,
    },
    /// `by` declined: the other players hear of it.
    Declined {
        /// Who declined.
        by: i64,
    },
    /// The turn passed to the seat to move: its turn card.
    Turn,
    /// `by` offered a draw: the other seats still playing hear of it.
    DrawOffered {
        /// Who offered.
        by: i64,
    },
    /// `by` declined the draw offer: the other seats still playing hear of it (on the
    /// streams; no mail, the game simply goes on).
    DrawDeclined {
        /// Who declined.
        by: i64,
    },
    /// `seat` left a game that goes on (`how`); `turn_passed` when the turn passed to the
    /// next seat with it (that seat gets its turn card).
    Left {
        /// The seat that left.
        seat: i32,
        /// How it left.
        how: Departure,
        /// Whether the turn passed with it.
        turn_passed: bool,
    },
    /// `seat`'s player left (`how`) and the bot `bot` plays the seat on: the other players
    /// still playing hear of it.
    TakenOver {
        /// The seat whose player left.
        seat: i32,
        /// How the player left.
        how: Departure,
        /// The bot's account.
        bot: i64,
    },
    /// The game ended: every player gets the result.
    GameOver,
    /// An open challenge lapsed with a seat nobody took: its poster hears of it.
    Lapsed,
}

impl GameEvent {
    /// The stored kind.
    fn kind(self) -> EventKind {
        match self {
            Self::Challenged { .. } => EventKind::Challenged,
            Self::Accepted { .. } => EventKind::Accepted,
            Self::Started { .. } => EventKind::Started,
            Self::Declined { .. } => EventKind::Declined,
            Self::Turn => EventKind::Turn,
            Self::DrawOffered { .. } => EventKind::DrawOffered,
            Self::DrawDeclined { .. } => EventKind::DrawDeclined,
            Self::Left {
                turn_passed: false, ..
            } => EventKind::Left,
            Self::Left {
                turn_passed: true, ..
            } => EventKind::LeftTurnPassed,
            Self::TakenOver { .. } => EventKind::TakenOver,
            Self::GameOver => EventKind::GameOver,
            Self::Lapsed => EventKind::Lapsed,
        }
    }

    pub fn actor(self) -> Option<i64> {
        match self {
            Self::Challenged { by }
            | Self::Accepted { by }
            | Self::Started { by }
            | Self::Declined { by }
            | Self::DrawOffered { by }
            | Self::DrawDeclined { by }
            | Self::TakenOver { bot: by, .. } => Some(by),
            Self::Turn | Self::Left { .. } | Self::GameOver | Self::Lapsed => None,
        }
    }

    /// The event a stored row records.
    ///
    /// # Errors
    /// [`DbError::Corrupt`] for a row missing a fact its kind needs.
    pub fn of_row(row: &GameEventRow) -> Result<Self, DbError> {
        let corrupt = || DbError::Corrupt(format!("game event {}: kind `{}`", row.id, row.kind));
        let by = || row.actor_id.ok_or_else(corrupt);
        let seat = || row.seat.ok_or_else(corrupt);
        let how = || {
            row.departure
                .as_deref()
                .and_then(|how| how.parse().ok())
                .ok_or_else(corrupt)
        };
        Ok(match row.kind {
            EventKind::Challenged => Self::Challenged { by: by()? },
            EventKind::Accepted => Self::Accepted { by: by()? },
            EventKind::Started => Self::Started { by: by()? },
            EventKind::Declined => Self::Declined { by: by()? },
            EventKind::Turn => Self::Turn,
            EventKind::DrawOffered => Self::DrawOffered { by: by()? },
            EventKind::DrawDeclined => Self::DrawDeclined { by: by()? },
            EventKind::Left | EventKind::LeftTurnPassed => Self::Left {
                seat: seat()?,
                how: how()?,
                turn_passed: row.kind == EventKind::LeftTurnPassed,
            },
            EventKind::TakenOver => Self::TakenOver {
                seat: seat()?,
                how: how()?,
                bot: by()?,
            },
            EventKind::GameOver => Self::GameOver,
            EventKind::Lapsed => Self::Lapsed,
        })
    }
}

/// Records `event` of `loaded` (as it is now, inside the change's transaction) for the mail
/// worker, and logs it for operators.
///
/// # Errors
/// Storage failures.
pub fn record(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    event: GameEvent,
) -> Result<(), DbError> {
    q::insert(conn, &to_record(loaded, event))
}

/// The row that records `event` of `loaded` as it is now, for a caller that writes it with the
/// rest of its change in one statement (a move); logs it for operators as [`record`] does.
#[must_use]
pub fn to_record(loaded: &GameWithSeats, event: GameEvent) -> NewGameEvent<'_> {
    let game = &loaded.game;
    log_event(loaded, event);
    let (seat, departure) = match event {
        GameEvent::Left { seat, how, .. } | GameEvent::TakenOver { seat, how, .. } => {
            (Some(seat), Some(how.word()))
        }
        _ => (None, None),
    };
    NewGameEvent {
        game_id: game.id,
        kind: event.kind(),
        ply: game.ply,
        actor_id: event.actor(),
        seat,
        departure,
        status: game.status,
        to_move: game.to_move,
        deadline_at: game.deadline_at,
        result: game.result.as_ref(),
        result_reason: game.result_reason,
        position: &game.position,
        created_at: crate::db::now(),
    }
}

/// `loaded` (read now) as it was at the event `row` records: what the mails show.
pub fn as_at(mut loaded: GameWithSeats, row: &GameEventRow) -> GameWithSeats {
    let game = &mut loaded.game;
    game.ply = row.ply;
    game.status = row.status;
    game.to_move = row.to_move;
    game.deadline_at = row.deadline_at;
    game.result.clone_from(&row.result);
    game.result_reason = row.result_reason;
    game.position.clone_from(&row.position);
    loaded
}

/// One info line per game event, for operators: the game, its kind, how many moves, whose turn
/// and the result; never an address or a secret. Turn cards are not logged (one per move).
fn log_event(loaded: &GameWithSeats, event: GameEvent) {
    let what = match event {
        GameEvent::Challenged { .. } => "challenge made",
        GameEvent::Accepted { .. } => "challenge accepted",
        GameEvent::Started { .. } => "game started",
        GameEvent::Declined { .. } => "challenge declined",
        GameEvent::DrawOffered { .. } => "draw offered",
        GameEvent::DrawDeclined { .. } => "draw declined",
        GameEvent::Left { .. } => "seat left; the game goes on",
        GameEvent::TakenOver { .. } => "seat left; a bot plays it on",
        GameEvent::GameOver => "game over",
        GameEvent::Lapsed => "open challenge lapsed",
        GameEvent::Turn => return,
    };
    let game = &loaded.game;
    tracing::info!(
        game = game.id,
        kind = %game.kind,
        moves = game.ply,
        // Plain values (absent when none), never Rust's debug text (issue 49).
        to_move = game.to_move,
        result = game.result.as_ref().map(ToString::to_string).as_deref(),
        "{what}"
    );
}
