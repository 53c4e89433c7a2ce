//! Who is told of a game event, and as what: the one answer every channel asks (the mail
//! composer, the streams, and later push and webhooks), so that "who hears of a draw offer" is
//! decided once. A channel then applies its own switches: mail follows each person's
//! preferences and mutes (`crate::notify`), a stream shows an account everything of its games.
//!
//! What a person may see follows from the role: a player sees their game whole (the messages
//! sent with actions included); anyone else who watches sees what spectators see.

use crate::db::accounts::Account;
use crate::db::DbError;
use crate::games::{GameEvent, GameWithSeats};
use crate::preferences::Category;

/// One person told of an event.
#[derive(Debug, Clone, Copy)]
pub struct Told<'a> {
    /// The player.
    pub account: &'a Account,
    /// Their seat in the game.
    pub seat: i32,
    /// What the event is to them (the kind of mail it would be).
    pub category: Category,
}

/// Everyone told of `event`, `loaded` being the game as it was at the event, each once, in
/// seat order (a turn that passed to a seat with a departure first: that is the urgent news).
///
/// # Errors
/// [`DbError::Corrupt`] for an unreadable stored position (departures are read from it).
pub fn audience(loaded: &GameWithSeats, event: GameEvent) -> Result<Vec<Told<'_>>, DbError> {
    let creator = loaded.game.created_by;
    let to_move = loaded.game.to_move;
    let every = |category: Category, keep: &dyn Fn(i32, &Account) -> bool| -> Vec<Told<'_>> {
        loaded
            .seats
            .iter()
            .filter(|(seat, account)| keep(seat.seat, account))
            .map(|(seat, account)| Told {
                account,
                seat: seat.seat,
                category,
            })
            .collect()
    };
    Ok(match event {
        GameEvent::Challenged { by } => every(Category::Challenges, &|_, a| a.id != by),
        GameEvent::Accepted { by } => every(Category::ChallengeReplies, &|_, a| {
            a.id == creator && a.id != by
        }),
        GameEvent::Declined { by } => every(Category::ChallengeReplies, &|_, a| a.id != by),
        GameEvent::Lapsed => every(Category::ChallengeReplies, &|_, a| a.id == creator),
        GameEvent::Started { by } => loaded
            .seats
            .iter()
            .filter(|(seat, account)| account.id != by || Some(seat.seat) == to_move)
            .map(|(seat, account)| Told {
                account,
                seat: seat.seat,
                category: if Some(seat.seat) == to_move {
                    Category::Turn
                } else {
                    Category::ChallengeReplies
                },
            })
            .collect(),
        GameEvent::Turn => turn(loaded).into_iter().collect(),
        GameEvent::DrawOffered { by } | GameEvent::DrawDeclined { by } => {
            // Players who left the game have no say in a draw (a bot playing a seat on
            // answers for it through the bot worker).
            let departed = loaded.players_left()?;
            every(Category::DrawOffers, &|seat, a| {
                a.id != by && !departed.contains(&seat)
            })
        }
        GameEvent::Left {
            seat: left,
            turn_passed,
            ..
        } => {
            // The seat the turn passed to hears it as its turn; the others still playing
            // hear of the departure (a player's part in the game ended: game-over mail).
            let departed = loaded.players_left()?;
            let mut told: Vec<Told<'_>> = if turn_passed {
                turn(loaded).into_iter().collect()
            } else {
                Vec::new()
            };
            told.extend(every(Category::GameOver, &|seat, _| {
                seat != left && !departed.contains(&seat) && !(turn_passed && Some(seat) == to_move)
            }));
            told
        }
        GameEvent::TakenOver { .. } => {
            let departed = loaded.players_left()?;
            every(Category::GameOver, &|seat, a| {
                !departed.contains(&seat) && !a.is_bot()
            })
        }
        GameEvent::GameOver => every(Category::GameOver, &|_, _| true),
    })
}

/// The seat now to move, told it is its turn, unless a bot plays it on for its player who left.
fn turn(loaded: &GameWithSeats) -> Option<Told<'_>> {
    let seat = loaded.game.to_move?;
    if loaded.stand_in(seat).is_some() {
        return None;
    }
    Some(Told {
        account: loaded.player_at(seat)?,
        seat,
        category: Category::Turn,
    })
}
