//! The mails game events cause, queued in the event's own transaction: exactly one outbox row
//! per recipient per event. What each mail says is composed by [`crate::mail::compose`] from
//! plain data gathered here.

use chrono::{DateTime, Utc};
use turnpost_shared::{Departure, Seat};

use super::{GameStatus, Loaded, ResultReason, LAST_MOVES};
use crate::accounts::MailContext;
use crate::db::games as q;
use crate::db::models::{Account, MoveRow};
use crate::db::{DbConnection, DbError};
use crate::mail::compose::{self, GameFacts, PlayedMove, Player, Recipient, Site};
use crate::mail::{self, ComposedMail, NewMail};
use crate::notifications::{decide, Category, Decision, Delivery, Preferences};

// --- Who gets which mail, and the clock the mails show.

/// Whether and how `category` mail about `loaded` reaches `to`, from the preferences and mute
/// read with the game's seats (no query per recipient).
#[must_use]
pub fn decision_in(
    ctx: &MailContext,
    loaded: &Loaded,
    to: &Account,
    category: Category,
) -> Decision {
    let settings = loaded.settings_of(to.id);
    let preferences = settings
        .preferences
        .as_ref()
        .map(Preferences::from_row)
        .unwrap_or_default();
    decide(ctx, to, &preferences, settings.muted, category)
}

/// The addressee of `category` mail about `loaded` for `to`, or `None` when `to` does not want
/// it now (switched off, muted, or turn mail gathered in the digest).
#[must_use]
pub fn recipient(
    ctx: &MailContext,
    loaded: &Loaded,
    to: &Account,
    category: Category,
) -> Option<Recipient> {
    let decision = decision_in(ctx, loaded, to, category);
    (decision.delivery == Delivery::Now).then(|| Recipient {
        reply_to: reply_address(ctx, loaded, to),
        play_url: play_url(ctx, loaded, to),
        ..addressee(&decision)
    })
}

/// `to`'s reply address for `loaded` as it stands (its seat, the ply it shows), if `to` holds
/// a seat of it.
#[must_use]
pub fn reply_address(ctx: &MailContext, loaded: &Loaded, to: &Account) -> Option<String> {
    let seat = loaded.seat_of(to.id)?;
    Some(
        ctx.reply
            .address(loaded.game.id, seat, to.id, loaded.game.ply),
    )
}

/// `to`'s play link for their seat in `loaded`, while the game is being played.
#[must_use]
pub fn play_url(ctx: &MailContext, loaded: &Loaded, to: &Account) -> Option<String> {
    let seat = loaded.seat_of(to.id)?;
    (loaded.game.status == GameStatus::Active && !to.is_bot()).then(|| {
        crate::play_link::link(
            &ctx.public_url,
            &ctx.link_key,
            loaded.game.id,
            seat,
            to.id,
            to.link_generation,
        )
    })
}

/// A decision to send, as the composers address it.
#[must_use]
pub fn addressee(decision: &Decision) -> Recipient {
    Recipient {
        name: decision.account.name.clone(),
        email: decision.account.email.clone(),
        time_zone: decision.time_zone,
        unsubscribe_url: Some(decision.unsubscribe_url.clone()),
        reply_to: None,
        play_url: None,
    }
}

/// When the seat to move in `loaded` runs out of time.
#[must_use]
pub fn deadline(loaded: &Loaded) -> Option<DateTime<Utc>> {
    if loaded.game.status == GameStatus::Active {
        loaded.game.deadline_at.map(|d| d.and_utc())
    } else {
        None
    }
}

// --- Shared with sweeps (reminders, timeouts, digests), which compose and queue the same way.

/// Where links point and which domain names ids.
#[must_use]
pub fn site(ctx: &MailContext) -> Site {
    Site {
        public_url: ctx.public_url.clone(),
        domain: ctx.message_id_domain.clone(),
    }
}

/// Queues `mail` for `to` on the caller's connection (inside the event's transaction).
///
/// # Errors
/// Storage failures.
pub fn queue(
    conn: &mut DbConnection,
    ctx: &MailContext,
    to: &Recipient,
    mail: ComposedMail,
) -> Result<(), DbError> {
    mail::enqueue(
        conn,
        &ctx.message_id_domain,
        &NewMail {
            to: to.email.clone(),
            mail,
        },
    )?;
    Ok(())
}

fn played(row: &MoveRow) -> PlayedMove {
    PlayedMove {
        ply: u32::try_from(row.ply).unwrap_or(0),
        seat: u8::try_from(row.seat).unwrap_or(0),
        notation: row.notation.clone(),
        automatic: row.account_id.is_none(),
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

/// The game as its mails show it, with the moves reported to `for_seat` (those since it last
/// moved; `None`: the last player's move), and the deadline of the seat to move.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn game_facts(
    conn: &mut DbConnection,
    loaded: &Loaded,
    for_seat: Option<i32>,
) -> Result<GameFacts, DbError> {
    let rows = if loaded.game.ply > 0 {
        q::last_moves(conn, loaded.game.id, LAST_MOVES)?
    } else {
        Vec::new()
    };
    facts_with_moves(loaded, for_seat, &rows)
}

/// [`game_facts`] with the game's last moves (up to [`LAST_MOVES`], oldest first) already read.
///
/// # Errors
/// [`DbError::Corrupt`] for an unreadable stored position.
pub fn facts_with_moves(
    loaded: &Loaded,
    for_seat: Option<i32>,
    rows: &[MoveRow],
) -> Result<GameFacts, DbError> {
    let game = &loaded.game;
    let position = super::engine(game)?;
    let players = loaded
        .seats
        .iter()
        .map(|(seat, account)| {
            let number = u8::try_from(seat.seat).unwrap_or(0);
            Player {
                seat: number,
                seat_name: Seat::new(number)
                    .map_or_else(|| format!("seat {number}"), |s| position.seat_name(s)),
                name: match loaded.stand_in(seat.seat) {
                    Some(_) => loaded.playing_name(seat.seat),
                    None => account.name.clone(),
                },
            }
        })
        .collect();
    Ok(GameFacts {
        id: game.id,
        options: super::dice::shown_options(game, &super::stored_options(game)?).to_string(),
        players,
        ply: u32::try_from(game.ply).unwrap_or(0),
        last_moves: reported(rows, for_seat),
        result: game.result.clone(),
        result_reason: game.result_reason,
        deadline: deadline(loaded),
        position,
    })
}

/// A new challenge: one mail to each invited player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn challenged(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "challenge made");
    let game = game_facts(conn, loaded, None)?;
    let expires_at = super::expires_at(&loaded.game).and_utc();
    for (_, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        let Some(to) = recipient(ctx, loaded, account, Category::Challenges) else {
            continue;
        };
        let mail = compose::challenge(&site(ctx), &to, &game, &by.name, expires_at);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// A player accepted, and others still have to: one mail to the challenger.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn accepted(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "challenge accepted");
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
    let game = game_facts(conn, loaded, None)?;
    let Some(to) = recipient(ctx, loaded, creator, Category::ChallengeReplies) else {
        return Ok(());
    };
    let mail = compose::challenge_accepted(&site(ctx), &to, &game, &by.name);
    queue(conn, ctx, &to, mail)
}

/// Everyone accepted: one mail to each player except the one whose accept started it; the
/// seat to move gets its turn card.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn started(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "game started");
    let to_move = loaded.game.to_move;
    let game = game_facts(conn, loaded, None)?;
    for (seat, account) in &loaded.seats {
        if account.id == by.id && Some(seat.seat) != to_move {
            continue;
        }
        let category = if Some(seat.seat) == to_move {
            Category::Turn
        } else {
            Category::ChallengeReplies
        };
        let Some(to) = recipient(ctx, loaded, account, category) else {
            continue;
        };
        let mail = compose::game_started(&site(ctx), &to, &game);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// A player declined: one mail to each other player.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn declined(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "challenge declined");
    let game = game_facts(conn, loaded, None)?;
    for (_, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        let Some(to) = recipient(ctx, loaded, account, Category::ChallengeReplies) else {
            continue;
        };
        let mail = compose::challenge_declined(&site(ctx), &to, &game, &by.name);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// The turn passed to the seat now to move: its turn card, to its player. `last_moves` are the
/// game's last moves when the caller already read them (a move does, for its answer).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn your_turn(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    last_moves: Option<&[MoveRow]>,
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
    let Some(to) = recipient(ctx, loaded, account, Category::Turn) else {
        return Ok(());
    };
    let game = match last_moves {
        Some(rows) => facts_with_moves(loaded, Some(seat), rows)?,
        None => game_facts(conn, loaded, Some(seat))?,
    };
    let mail = compose::your_turn(&site(ctx), &to, &game);
    queue(conn, ctx, &to, mail)
}

/// `by` offered a draw: one mail to each other seat still playing.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn draw_offered(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "draw offered");
    // Players who left the game have no say in a draw (a bot playing a seat on answers for
    // it through the bot worker).
    let departed = loaded.players_left()?;
    for (seat, account) in &loaded.seats {
        if account.id == by.id || departed.contains(&seat.seat) {
            continue;
        }
        let Some(to) = recipient(ctx, loaded, account, Category::DrawOffers) else {
            continue;
        };
        let game = game_facts(conn, loaded, Some(seat.seat))?;
        let mail = compose::draw_offered(&site(ctx), &to, &game, &by.name);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// Seat `left` left a game that goes on (`how`): the seat now to move gets its turn card when
/// the turn passed to it, and every other seat still playing one mail saying who left and who
/// is to move (the category of game-over mail: a player's part in the game ended).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn left(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    left: i32,
    how: Departure,
    turn_passed: bool,
) -> Result<(), DbError> {
    log_event(loaded, "seat left; the game goes on");
    let departed = loaded.players_left()?;
    let to_move = loaded.game.to_move;
    if turn_passed {
        your_turn(conn, ctx, loaded, None)?;
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
        let Some(to) = recipient(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        let game = game_facts(conn, loaded, Some(seat.seat))?;
        let mail = compose::left_game(&site(ctx), &to, &game, &who, how, &next);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// `left`'s player left (`how`) and `bot` plays the seat on: every other player still
/// playing gets one mail ("anna left game #42; bot-3 plays on for them"), in the category of
/// game-over mail like any departure. Nobody's turn changed, so no turn card.
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn taken_over(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    left: i32,
    how: Departure,
    bot: &Account,
) -> Result<(), DbError> {
    log_event(loaded, "seat left; a bot plays it on");
    let departed = loaded.players_left()?;
    let who = loaded
        .player_at(left)
        .map_or_else(String::new, |a| a.name.clone());
    for (seat, account) in &loaded.seats {
        if departed.contains(&seat.seat) || account.is_bot() {
            continue;
        }
        let Some(to) = recipient(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        let game = game_facts(conn, loaded, Some(seat.seat))?;
        let mail = compose::bot_took_over(&site(ctx), &to, &game, &who, how, &bot.name);
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// The game ended: one mail to each player (the one whose action ended it included, so every
/// player's mailbox has the result).
///
/// # Errors
/// Storage failures; [`DbError::Corrupt`] for an unreadable stored position.
pub fn game_over(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
) -> Result<(), DbError> {
    log_event(loaded, "game over");
    let game = game_facts(conn, loaded, None)?;
    // A loss on time names who ran out: the last seat to leave (games of three or more seats
    // record departures), else the seat the result leaves out.
    let last_left = game
        .position
        .departed()
        .last()
        .map(|seat| super::seat_number(*seat));
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
    for (_, account) in &loaded.seats {
        let Some(to) = recipient(ctx, loaded, account, Category::GameOver) else {
            continue;
        };
        let mail = match &late {
            Some(late) => compose::ended_on_time(&site(ctx), &to, &game, late),
            None => compose::game_over(&site(ctx), &to, &game),
        };
        queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// One info line per game event, for operators: the game, its kind, how many moves, whose turn
/// and the result; never an address or a secret.
fn log_event(loaded: &Loaded, what: &str) {
    let game = &loaded.game;
    tracing::info!(
        game = game.id,
        kind = %game.kind,
        moves = game.ply,
        to_move = ?game.to_move,
        result = ?game.result.as_ref().map(ToString::to_string),
        "{what}"
    );
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
