//! A word with your move (issue 28): the message a player sends with a move, a resignation, a
//! draw offer or answer, or accepting a challenge. The action's service call cleans it first
//! ([`cleaned`]: a refused message does nothing) and stores it in the action's transaction
//! ([`record`]), so an action and its message happen together or not at all; an idempotent
//! retry returns before storing anything. Only the game's players read them ([`visible`]),
//! without the games and people they muted ([`mute_game`], [`mute_person`]); the turn cards
//! show those sent since the recipient last moved ([`since`]).

use turnpost_shared::api::{MessageAction, MessageMutes, MessageView};
use turnpost_shared::play::clean_message;

use super::{Actor, GameError, GameWithSeats};
use crate::db::messages::{self as q, NewMessage};
use crate::db::{self, accounts, DbConnection, DbError};

/// The message as it is stored, `None` for none (absent, or nothing left once cleaned).
///
/// # Errors
/// [`GameError::BadMessage`] for one too long.
pub fn cleaned(text: Option<&str>) -> Result<Option<String>, GameError> {
    match text {
        None => Ok(None),
        Some(text) => clean_message(text).map_err(|e| GameError::BadMessage(e.to_string())),
    }
}

/// Stores `text` (already [`cleaned`]) as sent by `seat`'s `account_id` with `action` at `ply`,
/// inside the action's transaction; nothing for no text.
///
/// # Errors
/// Storage failures.
pub fn record(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    (seat, account_id): (i32, i64),
    ply: i32,
    action: MessageAction,
    text: Option<&str>,
) -> Result<(), DbError> {
    let Some(body) = text else {
        return Ok(());
    };
    q::insert(
        conn,
        &NewMessage {
            game_id: loaded.game.id,
            seat,
            account_id,
            ply,
            action: action.as_str(),
            body,
            sent_at: db::now(),
        },
    )
}

/// The messages of the game `viewer` may read, oldest first: none unless `viewer` holds a seat
/// in it (spectators never read them), none of a game they muted, none of a person they muted.
///
/// # Errors
/// Storage failures.
pub fn visible(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    viewer: Option<i64>,
) -> Result<Vec<MessageView>, DbError> {
    let rows = q::of_game(conn, loaded.game.id)?;
    readable(conn, loaded, viewer, rows)
}

/// The message that came with the action logged as `event` (a move, a draw offer or its
/// answer, a resignation, an accept), as each seated account of `loaded` (the game as it was
/// at the event) may read it: spectators never, nor a player who muted the game or the sender.
/// An action carries at most one message, stored in the action's transaction: the one of a
/// fitting action at the event's ply (a move's: the ply before), sent within a moment of it.
/// A move answered at once by conditional moves is one event a few plies on: its message is
/// not matched, and shows on the game page and in the mail only.
///
/// # Errors
/// Storage failures.
pub fn of_event(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    event: &crate::db::events::GameEventRow,
) -> Result<Vec<(i64, MessageView)>, DbError> {
    use crate::db::events::EventKind;
    let fits: &[MessageAction] = match event.kind {
        EventKind::Turn => &[MessageAction::Move],
        EventKind::GameOver => &[
            MessageAction::Move,
            MessageAction::Resign,
            MessageAction::DrawAccept,
        ],
        EventKind::DrawOffered => &[MessageAction::DrawOffer],
        EventKind::DrawDeclined => &[MessageAction::DrawDecline],
        EventKind::Accepted | EventKind::Started => &[MessageAction::Accept],
        _ => return Ok(Vec::new()),
    };
    let moment = chrono::TimeDelta::seconds(2);
    let Some(found) = q::of_game(conn, loaded.game.id)?
        .into_iter()
        .filter(|(row, _)| {
            let Ok(action) = row.action.parse::<MessageAction>() else {
                return false;
            };
            // A move's message has the ply before it, so the event after the move is one
            // ply on; the other actions leave the ply as it was.
            let ply = if action == MessageAction::Move {
                event.ply - 1
            } else {
                event.ply
            };
            fits.contains(&action)
                && row.ply == ply
                && row.sent_at <= event.created_at + moment
                && row.sent_at >= event.created_at - moment
        })
        .max_by_key(|(row, _)| row.id)
    else {
        return Ok(Vec::new());
    };
    let mut told = Vec::new();
    for (_, account) in &loaded.seats {
        for view in readable(conn, loaded, Some(account.id), vec![found.clone()])? {
            told.push((account.id, view));
        }
    }
    Ok(told)
}

/// Of the game's message `rows`, those `viewer` may read (as [`visible`]).
fn readable(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    viewer: Option<i64>,
    rows: Vec<(q::MessageRow, String)>,
) -> Result<Vec<MessageView>, DbError> {
    let Some(viewer) = viewer.filter(|v| loaded.seat_of(*v).is_some()) else {
        return Ok(Vec::new());
    };
    if rows.is_empty() || q::game_muted(conn, viewer, loaded.game.id)? {
        return Ok(Vec::new());
    }
    let muted: Vec<i64> = q::muted_people(conn, viewer)?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    Ok(rows
        .into_iter()
        .filter(|(row, _)| !muted.contains(&row.account_id))
        .filter_map(|(row, player)| {
            Some(MessageView {
                ply: u32::try_from(row.ply).ok()?,
                seat: u8::try_from(row.seat).ok()?,
                player,
                action: row.action.parse::<MessageAction>().ok()?,
                text: row.body,
                sent_at: db::rfc3339(row.sent_at),
            })
        })
        .collect())
}

/// What a turn card (or another mail of the game) to `recipient` at `seat` shows: the other
/// players' messages the recipient may read, sent since the seat last chose a move at its turn
/// (conditional answers the server played for it do not count; all of them before its first
/// move), up to the game's ply.
///
/// # Errors
/// Storage failures.
pub fn since(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    recipient: i64,
    seat: i32,
) -> Result<Vec<MessageView>, DbError> {
    // Most cards have no message to show: the game's messages are read first, and the moves
    // and the recipient's mutes only when another seat wrote one up to this ply.
    let messages = q::of_game(conn, loaded.game.id)?;
    if !messages
        .iter()
        .any(|(m, _)| m.seat != seat && m.ply <= loaded.game.ply)
    {
        return Ok(Vec::new());
    }
    let rows = crate::db::games::moves(conn, loaded.game.id)?;
    // The seat's last move chosen at its turn: a move played in the same instant as the one
    // before it was the server's (a conditional answer in the opponent's move's transaction),
    // and the player saw no card for it, so the messages since then still count as new.
    let last_own = rows
        .iter()
        .enumerate()
        .filter(|(_, m)| m.seat == seat && m.account_id.is_some() && m.ply < loaded.game.ply)
        .filter(|(at, m)| {
            at.checked_sub(1)
                .and_then(|before| rows.get(before))
                .is_none_or(|before| before.played_at != m.played_at)
        })
        .map(|(_, m)| m.ply)
        .max();
    Ok(readable(conn, loaded, Some(recipient), messages)?
        .into_iter()
        .filter(|m| {
            i64::from(m.seat) != i64::from(seat)
                && last_own.is_none_or(|own| i64::from(m.ply) > i64::from(own))
                && i64::from(m.ply) <= i64::from(loaded.game.ply)
        })
        .collect())
}

/// What `account_id` has muted now.
///
/// # Errors
/// Storage failures.
pub fn mutes(conn: &mut DbConnection, account_id: i64) -> Result<MessageMutes, DbError> {
    Ok(MessageMutes {
        games: q::muted_games(conn, account_id)?,
        players: q::muted_people(conn, account_id)?
            .into_iter()
            .map(|(_, name)| name)
            .collect(),
    })
}

/// Mutes (`on`) or unmutes the messages of game `game_id` for `actor`, a player of it.
///
/// # Errors
/// [`GameError::NotFound`], [`GameError::NotYourGame`]; storage failures.
pub fn mute_game(
    conn: &mut DbConnection,
    actor: &Actor,
    game_id: i64,
    on: bool,
) -> Result<MessageMutes, GameError> {
    crate::db::transaction::write_with(conn, |conn| {
        let loaded = GameWithSeats::load(conn, game_id, false)?;
        let me = actor.account_id();
        if loaded.seat_of(me).is_none() {
            return Err(GameError::NotYourGame { game_id });
        }
        q::set_game_mute(conn, me, game_id, on)?;
        Ok(mutes(conn, me)?)
    })
}

/// Mutes (`on`) or unmutes the messages of the player called `name` for `actor`, in every game.
///
/// # Errors
/// [`GameError::UnknownPlayer`] (also for oneself: there is nothing to mute); storage failures.
pub fn mute_person(
    conn: &mut DbConnection,
    actor: &Actor,
    name: &str,
    on: bool,
) -> Result<MessageMutes, GameError> {
    crate::db::transaction::write_with(conn, |conn| {
        let me = actor.account_id();
        let found = accounts::by_name_key(conn, &name.trim().to_lowercase())?
            .filter(|account| account.id != me);
        let Some(person) = found else {
            return Err(GameError::UnknownPlayer {
                name: name.trim().to_owned(),
            });
        };
        q::set_person_mute(conn, me, person.id, on)?;
        Ok(mutes(conn, me)?)
    })
}
