//! A logged game event as the streams carry it: what any spectator may see, who it is told to
//! (from `crate::games::audience`, as for mail) and who holds a seat in its game, read once for
//! every stream it goes to.

use turnpost_shared::api::{MessageView, StreamEvent, StreamEventType};

use crate::db::events::{self, EventKind, GameEventRow, LogPosition};
use crate::db::{DbConnection, DbError};
use crate::games::{self, GameEvent, GameWithSeats};

/// One event of the log, ready for the streams.
#[derive(Debug, Clone)]
pub struct LiveEvent {
    /// Where it stands in the log.
    pub position: LogPosition,
    /// Its game.
    pub game_id: i64,
    /// The accounts holding a seat in the game at the event.
    pub seated: Vec<i64>,
    /// The accounts told of it, with what it is to each (a notification category's name).
    pub told: Vec<(i64, &'static str)>,
    /// The message that came with the action, for each seated account that may read it.
    pub messages: Vec<(i64, MessageView)>,
    /// What every reader sees (`for_you` and `messages` empty).
    pub shown: StreamEvent,
}

impl LiveEvent {
    /// The event as `reader` (signed in, or `None`) reads it.
    #[must_use]
    pub fn for_reader(&self, reader: Option<i64>) -> StreamEvent {
        let mut shown = self.shown.clone();
        shown.for_you = reader.and_then(|reader| {
            self.told
                .iter()
                .find(|(account, _)| *account == reader)
                .map(|(_, category)| (*category).to_owned())
        });
        if let Some(reader) = reader {
            shown.messages = self
                .messages
                .iter()
                .filter(|(account, _)| *account == reader)
                .map(|(_, message)| message.clone())
                .collect();
        }
        shown
    }
}

/// The stream type of a stored kind.
fn stream_type(kind: EventKind) -> StreamEventType {
    match kind {
        EventKind::Challenged => StreamEventType::Challenge,
        EventKind::Accepted => StreamEventType::Accepted,
        EventKind::Started => StreamEventType::Started,
        EventKind::Declined => StreamEventType::Declined,
        EventKind::Turn => StreamEventType::Move,
        EventKind::DrawOffered => StreamEventType::DrawOffer,
        EventKind::DrawDeclined => StreamEventType::DrawDeclined,
        EventKind::Left | EventKind::LeftTurnPassed | EventKind::TakenOver => StreamEventType::Left,
        EventKind::GameOver => StreamEventType::GameOver,
        EventKind::Lapsed => StreamEventType::Lapsed,
    }
}

/// The events `rows` (in log order) ready for the streams, those of games `wanted` asks for
/// (by game id and the accounts seated in it); an event whose game is gone or cannot be read
/// is left out (it is nobody's to see any more).
///
/// # Errors
/// Storage failures.
pub fn live_events(
    conn: &mut DbConnection,
    rows: &[GameEventRow],
    wanted: &dyn Fn(i64, &mut dyn Iterator<Item = i64>) -> bool,
) -> Result<Vec<LiveEvent>, DbError> {
    let mut game_ids: Vec<i64> = rows.iter().map(|row| row.game_id).collect();
    game_ids.sort_unstable();
    game_ids.dedup();
    let games = GameWithSeats::find_many(conn, &game_ids)?;
    let mut live = Vec::with_capacity(rows.len());
    for row in rows {
        let Some(now) = games.iter().find(|g| g.game.id == row.game_id) else {
            continue;
        };
        if !wanted(
            row.game_id,
            &mut now.seats.iter().map(|(_, account)| account.id),
        ) {
            continue;
        }
        let Ok(happened) = GameEvent::of_row(row) else {
            continue;
        };
        let at = games::event::as_at(now.clone(), row);
        match live_event(conn, &at, row, happened) {
            Ok(event) => live.push(event),
            Err(DbError::Corrupt(error)) => {
                tracing::warn!(event = row.id, %error, "event left out of the streams");
            }
            Err(other) => return Err(other),
        }
    }
    Ok(live)
}

/// One event, `at` being its game as it was then.
fn live_event(
    conn: &mut DbConnection,
    at: &GameWithSeats,
    row: &GameEventRow,
    happened: GameEvent,
) -> Result<LiveEvent, DbError> {
    let told = games::audience(at, happened)?
        .iter()
        .map(|told| (told.account.id, told.category.as_str()))
        .collect();
    let mut by = match happened.actor() {
        Some(id) => name_of(conn, at, id)?,
        None => None,
    };
    let (mut last_move, mut prepared) = (None, false);
    if row.kind == EventKind::Turn && row.ply > 0 {
        if let Some(played) = events::moves_before(conn, row.game_id, row.ply, 1)?.pop() {
            // A move's event names its mover (none for a pass the server played).
            if let Some(mover) = played.account_id {
                by = name_of(conn, at, mover)?;
            }
            last_move = Some(played.notation);
            prepared = played.prepared;
        }
    }
    let seat = match happened {
        GameEvent::Left { seat, .. } | GameEvent::TakenOver { seat, .. } => Some(seat),
        _ => None,
    };
    Ok(LiveEvent {
        position: row.position(),
        game_id: row.game_id,
        seated: at.seats.iter().map(|(_, account)| account.id).collect(),
        told,
        messages: games::messages::of_event(conn, at, row)?,
        shown: StreamEvent {
            id: row.id,
            event: stream_type(row.kind),
            game: row.game_id,
            kind: at.game.kind,
            ply: row.ply,
            status: row.status,
            to_move: row.to_move,
            to_move_name: row.to_move.map(|seat| at.playing_name(seat)),
            by,
            seat,
            last_move,
            prepared,
            result: row.result.as_ref().map(ToString::to_string),
            reason: row.result_reason,
            at: crate::db::rfc3339(row.created_at),
            for_you: None,
            messages: Vec::new(),
        },
    })
}

/// The name of account `id`: a player of the game, else (a bot playing a seat on) read.
fn name_of(
    conn: &mut DbConnection,
    at: &GameWithSeats,
    id: i64,
) -> Result<Option<String>, DbError> {
    Ok(match at.seats.iter().find(|(_, a)| a.id == id) {
        Some((_, account)) => Some(account.name.clone()),
        None => crate::db::accounts::by_id(conn, id)?.map(|a| a.name),
    })
}
