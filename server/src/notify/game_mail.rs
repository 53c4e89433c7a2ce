//! The mail each game event causes: who hears of it, in which category, and which composer
//! writes it. Runs in the mail worker on the game as it was at the event.

use turnpost_shared::play::Departure;

use super::{facts, recipient, EventBatch};
use crate::db::accounts::Account;
use crate::db::{DbConnection, DbError};
use crate::games::GameEvent;
use crate::games::{self, GameWithSeats, ResultReason};
use crate::mail_context::MailContext;
use crate::notify::compose;
use crate::preferences::Category;

/// Queues the mail of `event` in the batch's outbox, `loaded` being the game as it was at the
/// event; what it reads comes from the batch's reads when the batch read it.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn compose_event(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    event: GameEvent,
) -> Result<(), DbError> {
    match event {
        GameEvent::Challenged { by } => {
            let by = actor(conn, loaded, by)?;
            challenged(conn, ctx, batch, loaded, &by)
        }
        GameEvent::Accepted { by } => {
            let by = actor(conn, loaded, by)?;
            accepted(conn, ctx, batch, loaded, &by)
        }
        GameEvent::Started { by } => {
            let by = actor(conn, loaded, by)?;
            started(conn, ctx, batch, loaded, &by)
        }
        GameEvent::Declined { by } => {
            let by = actor(conn, loaded, by)?;
            declined(conn, ctx, batch, loaded, &by)
        }
        GameEvent::Turn => your_turn(conn, ctx, batch, loaded),
        GameEvent::DrawOffered { by } => {
            let by = actor(conn, loaded, by)?;
            draw_offered(conn, ctx, batch, loaded, &by)
        }
        GameEvent::Left {
            seat,
            how,
            turn_passed,
        } => left(conn, ctx, batch, loaded, seat, how, turn_passed),
        GameEvent::TakenOver { seat, how, bot } => {
            let bot = actor(conn, loaded, bot)?;
            taken_over(conn, ctx, batch, loaded, seat, how, &bot)
        }
        GameEvent::GameOver => {
            game_over(conn, ctx, batch, loaded)?;
            // A tournament game's end may end its round: the sweeper pairs the next one now,
            // not at its next round (the ending has committed: its event is read after it).
            if crate::db::tournaments::of_game(conn, loaded.game.id)?.is_some() {
                ctx.round_over.notify_one();
            }
            Ok(())
        }
        GameEvent::Lapsed => lapsed(conn, ctx, batch, loaded),
    }
}

/// The account that acted: a player of the game (read with its seats), else (a bot playing a
/// seat on) read by id.
fn actor(conn: &mut DbConnection, loaded: &GameWithSeats, id: i64) -> Result<Account, DbError> {
    if let Some((_, account)) = loaded.seats.iter().find(|(_, a)| a.id == id) {
        return Ok(account.clone());
    }
    crate::db::accounts::by_id(conn, id)?
        .ok_or_else(|| DbError::Corrupt(format!("game event names account {id}, which is gone")))
}

/// A new challenge: one mail to each invited player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn challenged(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    by: &Account,
) -> Result<(), DbError> {
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    let expires_at = games::expires_at(&loaded.game).and_utc();
    for (_, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::Challenges) else {
            continue;
        };
        let changes = games::rating::changes_for(conn, loaded, account.id)?;
        let mail = compose::challenge(&facts::site(ctx), &to, &game, &by.name, expires_at, changes);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// A player accepted, and others still have to: one mail to the challenger.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn accepted(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    by: &Account,
) -> Result<(), DbError> {
    let Some((_, creator)) = loaded
        .seats
        .iter()
        .find(|(_, a)| a.id == loaded.game.created_by)
    else {
        return Ok(());
    };
    if creator.id == by.id {
        return Ok(());
    }
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    let Some(to) = recipient::player(ctx, loaded, creator, Category::ChallengeReplies) else {
        return Ok(());
    };
    let mail = compose::challenge_accepted(&facts::site(ctx), &to, &game, &by.name);
    batch.outbox.queue(conn, ctx, &to, mail)
}

/// Everyone accepted: one mail to each player except the one whose accept started it; the
/// seat to move gets its turn card.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn started(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    by: &Account,
) -> Result<(), DbError> {
    let to_move = loaded.game.to_move;
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    for (seat, account) in &loaded.seats {
        if account.id == by.id && Some(seat.seat) != to_move {
            continue;
        }
        let category = if Some(seat.seat) == to_move {
            Category::Turn
        } else {
            Category::ChallengeReplies
        };
        let Some(to) = recipient::player(ctx, loaded, account, category) else {
            continue;
        };
        let mail = compose::game_started(&facts::site(ctx), &to, &game);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// A player declined: one mail to each other player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn declined(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    by: &Account,
) -> Result<(), DbError> {
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    for (_, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::ChallengeReplies) else {
            continue;
        };
        let mail = compose::challenge_declined(&facts::site(ctx), &to, &game, &by.name);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// An open challenge lapsed with a seat nobody took: one mail to its poster.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn lapsed(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
) -> Result<(), DbError> {
    let Some((_, poster)) = loaded
        .seats
        .iter()
        .find(|(_, a)| a.id == loaded.game.created_by)
    else {
        return Ok(());
    };
    let Some(to) = recipient::player(ctx, loaded, poster, Category::ChallengeReplies) else {
        return Ok(());
    };
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    let mail = compose::challenge_lapsed(&facts::site(ctx), &to, &game);
    batch.outbox.queue(conn, ctx, &to, mail)
}

/// The turn passed to the seat now to move: its turn card, to its player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn your_turn(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
) -> Result<(), DbError> {
    let Some(seat) = loaded.game.to_move else {
        return Ok(());
    };
    // A bot plays the seat on for its player who left: nobody is mailed.
    if loaded.stand_in(seat).is_some() {
        return Ok(());
    }
    let Some(account) = loaded.player_at(seat) else {
        return Ok(());
    };
    let Some(to) = recipient::player(ctx, loaded, account, Category::Turn) else {
        return Ok(());
    };
    let game = facts::game_facts_read(conn, &batch.reads, loaded, Some(seat))?;
    let dropped = batch
        .reads
        .dropped_at(conn, loaded.game.id, seat, loaded.game.ply)?;
    let mail = match dropped {
        Some(played) => compose::your_turn_after_drop(&facts::site(ctx), &to, &game, &played),
        None => compose::your_turn(&facts::site(ctx), &to, &game),
    };
    batch.outbox.queue(conn, ctx, &to, mail)
}

/// `by` offered a draw: one mail to each other seat still playing.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn draw_offered(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    by: &Account,
) -> Result<(), DbError> {
    // Players who left the game have no say in a draw (a bot playing a seat on answers for
    // it through the bot worker).
    let departed = loaded.players_left()?;
    for (seat, account) in &loaded.seats {
        if account.id == by.id || departed.contains(&seat.seat) {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::DrawOffers) else {
            continue;
        };
        let game = facts::game_facts_read(conn, &batch.reads, loaded, Some(seat.seat))?;
        let mail = compose::draw_offered(&facts::site(ctx), &to, &game, &by.name);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// Seat `left` left a game that goes on (`how`): the seat now to move gets its turn card when
/// the turn passed to it, and every other seat still playing one mail saying who left and who
/// is to move (the category of game-over mail: a player's part in the game ended).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn left(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    left: i32,
    how: Departure,
    turn_passed: bool,
) -> Result<(), DbError> {
    let departed = loaded.players_left()?;
    let to_move = loaded.game.to_move;
    if turn_passed {
        your_turn(conn, ctx, batch, loaded)?;
    }
    let who = loaded
        .player_at(left)
        .map_or_else(String::new, |a| a.name.clone());
    let next = to_move.map_or_else(String::new, |seat| loaded.playing_name(seat));
    for (seat, account) in &loaded.seats {
        if seat.seat == left
            || departed.contains(&seat.seat)
            || (turn_passed && Some(seat.seat) == to_move)
        {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        let game = facts::game_facts_read(conn, &batch.reads, loaded, Some(seat.seat))?;
        let mail = compose::left_game(&facts::site(ctx), &to, &game, &who, how, &next);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// `left`'s player left (`how`) and `bot` plays the seat on: every other player still
/// playing gets one mail ("anna left game #42; bot-3 plays on for them"), in the category of
/// game-over mail like any departure. Nobody's turn changed, so no turn card.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn taken_over(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
    left: i32,
    how: Departure,
    bot: &Account,
) -> Result<(), DbError> {
    let departed = loaded.players_left()?;
    let who = loaded
        .player_at(left)
        .map_or_else(String::new, |a| a.name.clone());
    for (seat, account) in &loaded.seats {
        if departed.contains(&seat.seat) || account.is_bot() {
            continue;
        }
        let Some(to) = recipient::player(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        let game = facts::game_facts_read(conn, &batch.reads, loaded, Some(seat.seat))?;
        let mail = compose::bot_took_over(&facts::site(ctx), &to, &game, &who, how, &bot.name);
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// The game ended: one mail to each player (the one whose action ended it included, so every
/// player's mailbox has the result).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
fn game_over(
    conn: &mut DbConnection,
    ctx: &MailContext,
    batch: &EventBatch,
    loaded: &GameWithSeats,
) -> Result<(), DbError> {
    let game = facts::game_facts_read(conn, &batch.reads, loaded, None)?;
    // A loss on time names who ran out: the last seat to leave (games of three or more seats
    // record departures), else the seat the result leaves out.
    let last_left = game
        .position
        .departed()
        .last()
        .map(|seat| games::seat_number(*seat));
    let late = loaded
        .game
        .result
        .as_ref()
        .filter(|_| loaded.game.result_reason == Some(ResultReason::Timeout))
        .and_then(|result| {
            loaded.seats.iter().find(|(seat, _)| match last_left {
                Some(left) => seat.seat == left,
                None => !result.is_winner(seat.seat),
            })
        })
        .map(|(_, account)| account.name.clone());
    for (seat, account) in &loaded.seats {
        let Some(to) = recipient::player(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        // The messages that came with the end (a resignation's, a draw's) reach the others.
        let mut game = game.clone();
        game.messages = games::messages::since(conn, loaded, account.id, seat.seat)?;
        let mail = match &late {
            Some(late) => compose::ended_on_time(&facts::site(ctx), &to, &game, late),
            None => compose::game_over(&facts::site(ctx), &to, &game),
        };
        batch.outbox.queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}
