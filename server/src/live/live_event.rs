//! A logged game event as the streams carry it: what any spectator may see, who it is told to
//! (from `crate::games::audience`, as for mail) and who holds a seat in its game, read once for
//! every stream it goes to.

use bytes::Bytes;
use turnpost_shared::api::{MessageView, StreamEvent, StreamEventType};

use super::wire_text::{WireCache, WireFormat};

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
    /// Its bytes as the streams write them, made once a view and format.
    wire: WireCache,
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

    /// The event as `reader` reads it, in `format`: made once for all the streams that read
    /// it alike (a reader it tells nothing of their own sees what anybody sees).
    #[must_use]
    pub fn wire(&self, reader: Option<i64>, format: WireFormat) -> Bytes {
        let view = reader.filter(|reader| {
            self.told.iter().any(|(account, _)| account == reader)
                || self.messages.iter().any(|(account, _)| account == reader)
        });
        self.wire.get(format, view, || self.for_reader(view))
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
    let mut kept = Vec::with_capacity(rows.len());
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
        kept.push((row, now, happened));
    }
    // What the events name, read once for all of them: each move event's move, and which games
    // have messages at all (most have none, and their events need no look).
    let moved: Vec<(i64, i32)> = kept
        .iter()
        .filter(|(row, _, _)| row.kind == EventKind::Turn && row.ply > 0)
        .map(|(row, _, _)| (row.game_id, row.ply - 1))
        .collect();
    let read = BatchRead {
        moves: events::moves_at(conn, &moved)?,
        with_messages: if kept.is_empty() {
            Vec::new()
        } else {
            crate::db::messages::games_with_messages(conn, &game_ids)?
        },
    };
    let mut live = Vec::with_capacity(kept.len());
    for (row, now, happened) in kept {
        let at = games::event::as_at(now.clone(), row);
        match live_event(conn, &at, row, happened, &read) {
            Ok(event) => live.push(event),
            Err(DbError::Corrupt(error)) => {
                tracing::warn!(event = row.id, %error, "event left out of the streams");
            }
            Err(other) => return Err(other),
        }
    }
    Ok(live)
}

/// What a batch of events names, read once for the batch.
struct BatchRead {
    /// The moves before the batch's move events (their ply minus one).
    moves: Vec<crate::db::games::MoveRow>,
    /// The batch's games that have messages, ascending.
    with_messages: Vec<i64>,
}

/// One event, `at` being its game as it was then.
fn live_event(
    conn: &mut DbConnection,
    at: &GameWithSeats,
    row: &GameEventRow,
    happened: GameEvent,
    read: &BatchRead,
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
        let before = read
            .moves
            .iter()
            .find(|m| m.game_id == row.game_id && m.ply == row.ply - 1)
            .cloned();
        // Plies follow one another; were one missing, the move before is still the one told.
        let played = match before {
            Some(played) => Some(played),
            None => events::moves_before(conn, row.game_id, row.ply, 1)?.pop(),
        };
        if let Some(played) = played {
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
        messages: if read.with_messages.binary_search(&row.game_id).is_ok() {
            games::messages::of_event(conn, at, row)?
        } else {
            Vec::new()
        },
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
        wire: WireCache::default(),
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
