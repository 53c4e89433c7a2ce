//! The game as mails show it ([`GameFacts`]), where their links point, and queueing a composed
//! mail: what every composer call in [`crate::notify`] shares.

use chrono::{DateTime, Utc};
use turnpost_shared::Seat;

use super::BatchReads;
use crate::db::games::MoveRow;
use crate::db::{DbConnection, DbError};
use crate::games::{self, GameStatus, GameWithSeats};
use crate::mail::{self, ComposedMail};
use crate::mail_context::MailContext;
use crate::notify::compose::{GameFacts, PlayedMove, Player, Recipient, Site};
use crate::ratings::RatingKind;

/// When the seat to move in `loaded` runs out of time.
fn deadline(loaded: &GameWithSeats) -> Option<DateTime<Utc>> {
    if loaded.game.status == GameStatus::Active {
        loaded.game.deadline_at.map(|d| d.and_utc())
    } else {
        None
    }
}

/// Where links point and which domain names ids.
#[must_use]
pub fn site(ctx: &MailContext) -> Site {
    Site {
        public_url: ctx.public_url.clone(),
        domain: ctx.message_id_domain.clone(),
    }
}

/// Queues `mail` for `to` on the caller's connection (inside the event's or the sweep's
/// transaction). Its board picture is queued as SVG and drawn once by the session that first
/// delivers it, outside any transaction: drawing takes milliseconds of CPU, and on SQLite a
/// write transaction holds the one write lock every move needs.
///
/// # Errors
/// Storage failures.
pub fn queue(
    conn: &mut DbConnection,
    ctx: &MailContext,
    to: &Recipient,
    mail: ComposedMail,
) -> Result<(), DbError> {
    mail::enqueue_to(conn, &ctx.message_id_domain, &to.email, mail)?;
    Ok(())
}

fn played(row: &MoveRow) -> PlayedMove {
    PlayedMove {
        ply: u32::try_from(row.ply).unwrap_or(0),
        seat: u8::try_from(row.seat).unwrap_or(0),
        notation: row.notation.clone(),
        automatic: row.account_id.is_none(),
        prepared: row.prepared,
    }
}

/// The moves to report: those since `seat` last moved, or (no seat) the last player's move
/// with the automatic passes after it.
fn reported(rows: &[MoveRow], seat: Option<i32>) -> Vec<PlayedMove> {
    let start = match seat {
        Some(seat) => rows
            .iter()
            .rposition(|m| m.seat == seat)
            .map_or(0, |i| i + 1),
        None => rows
            .iter()
            .rposition(|m| m.account_id.is_some())
            .unwrap_or(0),
    };
    rows.get(start..)
        .unwrap_or_default()
        .iter()
        .map(played)
        .collect()
}

/// The game as its mails show it at its ply, with the moves reported to `for_seat` (those
/// since it last moved; `None`: the last player's move), the other players' messages to the
/// seat's player since then (`None`: none) and the deadline of the seat to move.
/// `loaded` may be the game as it was at an event (`event::as_at`): the moves read are those
/// played before its ply.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn game_facts(
    conn: &mut DbConnection,
    loaded: &GameWithSeats,
    for_seat: Option<i32>,
) -> Result<GameFacts, DbError> {
    game_facts_read(conn, &BatchReads::none(), loaded, for_seat)
}

/// [`game_facts`], with what a batch of events read (`reads`) instead of asking again.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn game_facts_read(
    conn: &mut DbConnection,
    reads: &BatchReads,
    loaded: &GameWithSeats,
    for_seat: Option<i32>,
) -> Result<GameFacts, DbError> {
    let rows = if loaded.game.ply > 0 {
        reads.moves_before(conn, loaded.game.id, loaded.game.ply)?
    } else {
        Vec::new()
    };
    let game = &loaded.game;
    let position = games::engine(game)?;
    let kind = RatingKind::of_game(game.kind, loaded.seats.len());
    let now = crate::db::now();
    let ratings = if game.rated {
        let accounts: Vec<i64> = loaded.seats.iter().map(|(_, a)| a.id).collect();
        reads.ratings(conn, &accounts, kind, now)?
    } else {
        Vec::new()
    };
    let mut players = Vec::with_capacity(loaded.seats.len());
    for (at, (seat, account)) in loaded.seats.iter().enumerate() {
        let number = u8::try_from(seat.seat).unwrap_or(0);
        let rating = ratings
            .get(at)
            .map(|rating| games::rating::seat_rating(*rating).to_string());
        players.push(Player {
            seat: number,
            seat_name: Seat::new(number)
                .map_or_else(|| format!("seat {number}"), |s| position.seat_name(s)),
            name: match loaded.stand_in(seat.seat) {
                Some(_) => loaded.playing_name(seat.seat),
                None => account.name.clone(),
            },
            rating,
        });
    }
    Ok(GameFacts {
        id: game.id,
        options: games::dice::shown_options(game, &games::stored_options(game)?).to_string(),
        players,
        ply: u32::try_from(game.ply).unwrap_or(0),
        last_moves: reported(&rows, for_seat),
        result: game.result.clone(),
        result_reason: game.result_reason,
        deadline: deadline(loaded),
        position,
        messages: match for_seat.and_then(|seat| loaded.player_at(seat).map(|a| (seat, a.id))) {
            Some(_) if reads.no_messages(game.id) => Vec::new(),
            Some((seat, account)) => games::messages::since(conn, loaded, account, seat)?,
            None => Vec::new(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(ply: i32, seat: i32, human: bool) -> MoveRow {
        MoveRow {
            game_id: 1,
            ply,
            seat,
            account_id: human.then_some(7),
            notation: format!("m{ply}"),
            played_at: chrono::DateTime::UNIX_EPOCH.naive_utc(),
            prepared: false,
        }
    }

    #[test]
    fn reported_moves_are_those_since_the_seat_last_moved() {
        let rows = [
            row(0, 1, true),
            row(1, 2, true),
            row(2, 3, false),
            row(3, 1, true),
            row(4, 2, true),
        ];
        let plies = |moves: Vec<PlayedMove>| moves.iter().map(|m| m.ply).collect::<Vec<_>>();
        assert_eq!(
            plies(reported(&rows, Some(3))),
            [3, 4],
            "a pass is not a move of its own"
        );
        assert_eq!(plies(reported(&rows, Some(1))), [4]);
        assert_eq!(plies(reported(&rows, None)), [4]);
        assert_eq!(plies(reported(&rows[..3], None)), [1, 2]);
        assert_eq!(plies(reported(&rows[..1], Some(2))), [0]);
    }
}
