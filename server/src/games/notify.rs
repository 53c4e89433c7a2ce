//! The mails game events cause, queued in the event's own transaction: exactly one outbox row
//! per recipient per event. Plain text for now (issue 8 makes them turn cards).

use crate::accounts::MailContext;
use crate::db::models::Account;
use crate::db::{DbConnection, DbError};
use crate::mail::{self, NewMail};
use crate::notifications::{decide, Category, Delivery, Preferences, Recipient};

use super::Loaded;

/// How `category` mail about `loaded` reaches the player `to`, from the preferences read with
/// the game's seats (no query per recipient).
#[must_use]
pub fn recipient_in(
    ctx: &MailContext,
    loaded: &Loaded,
    to: &Account,
    category: Category,
) -> Recipient {
    let settings = loaded.settings_of(to.id);
    let preferences = settings
        .preferences
        .as_ref()
        .map(Preferences::from_row)
        .unwrap_or_default();
    decide(ctx, to, &preferences, settings.muted, category)
}

/// Queues one mail unless the recipient's preferences say otherwise.
fn queue(
    conn: &mut DbConnection,
    ctx: &MailContext,
    (to, category, loaded): (&Account, Category, &Loaded),
    subject: String,
    body: String,
) -> Result<(), DbError> {
    if recipient_in(ctx, loaded, to, category).delivery != Delivery::Now {
        return Ok(());
    }
    mail::enqueue(
        conn,
        &ctx.message_id_domain,
        &NewMail {
            to: to.email.clone(),
            subject,
            body,
            in_reply_to: None,
        },
    )?;
    Ok(())
}

fn link(ctx: &MailContext, loaded: &Loaded) -> String {
    format!(
        "{}/v1/games/{}",
        ctx.public_url.trim_end_matches('/'),
        loaded.game.id
    )
}

fn players(loaded: &Loaded) -> String {
    loaded
        .seats
        .iter()
        .map(|(seat, account)| format!("seat {}: {}", seat.seat, account.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A new challenge: one mail to each invited player.
///
/// # Errors
/// [`DbError::Query`].
pub fn challenged(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    for (seat, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        queue(
            conn,
            ctx,
            (account, Category::Challenges, loaded),
            format!(
                "{} challenges you to {} (game {})",
                by.name, loaded.game.kind, loaded.game.id
            ),
            format!(
                "{} challenges you to a game of {} ({}).\nYou would play seat {}.\nPlayers: {}\n\n\
                 Accept: POST {link}/accept\nDecline: POST {link}/decline\n\
                 The challenge lapses after {} days.\n",
                by.name,
                loaded.game.kind,
                loaded.game.options,
                seat.seat,
                players(loaded),
                super::CHALLENGE_DAYS,
                link = link(ctx, loaded),
            ),
        )?;
    }
    Ok(())
}

/// A player accepted, and others still have to: one mail to the challenger.
///
/// # Errors
/// [`DbError::Query`].
pub fn accepted(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
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
    queue(
        conn,
        ctx,
        (creator, Category::ChallengeReplies, loaded),
        format!("{} accepted game {}", by.name, loaded.game.id),
        format!(
            "{} accepted your challenge to {} (game {}). Waiting for the other players.\n{}\n",
            by.name,
            loaded.game.kind,
            loaded.game.id,
            link(ctx, loaded)
        ),
    )
}

/// Everyone accepted: one mail to each player except the one whose accept started it; the
/// seat to move is told it is their turn.
///
/// # Errors
/// [`DbError::Query`].
pub fn started(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    let to_move = loaded.game.to_move;
    for (seat, account) in &loaded.seats {
        if account.id == by.id && Some(seat.seat) != to_move {
            continue;
        }
        let (subject, line) = if Some(seat.seat) == to_move {
            (
                format!(
                    "Your turn in game {} ({})",
                    loaded.game.id, loaded.game.kind
                ),
                "Everyone accepted; you move first.".to_owned(),
            )
        } else {
            (
                format!("Game {} ({}) has started", loaded.game.id, loaded.game.kind),
                "Everyone accepted; the game has started.".to_owned(),
            )
        };
        queue(
            conn,
            ctx,
            (
                account,
                if Some(seat.seat) == to_move {
                    Category::Turn
                } else {
                    Category::ChallengeReplies
                },
                loaded,
            ),
            subject,
            format!(
                "{line}\nPlayers: {}\n{}\n",
                players(loaded),
                link(ctx, loaded)
            ),
        )?;
    }
    Ok(())
}

/// A player declined: one mail to each other player.
///
/// # Errors
/// [`DbError::Query`].
pub fn declined(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    by: &Account,
) -> Result<(), DbError> {
    for (_, account) in &loaded.seats {
        if account.id == by.id {
            continue;
        }
        queue(
            conn,
            ctx,
            (account, Category::ChallengeReplies, loaded),
            format!("{} declined game {}", by.name, loaded.game.id),
            format!(
                "{} declined the challenge to {} (game {}); it is cancelled.\n",
                by.name, loaded.game.kind, loaded.game.id
            ),
        )?;
    }
    Ok(())
}

/// The turn passed to the seat now to move: one mail to its player.
///
/// # Errors
/// [`DbError::Query`].
pub fn your_turn(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    last_moves: &str,
) -> Result<(), DbError> {
    let Some(seat) = loaded.game.to_move else {
        return Ok(());
    };
    let Some(account) = loaded.player_at(seat) else {
        return Ok(());
    };
    queue(
        conn,
        ctx,
        (account, Category::Turn, loaded),
        format!(
            "Your turn in game {} ({})",
            loaded.game.id, loaded.game.kind
        ),
        format!(
            "Played: {last_moves}\nIt is your turn (seat {seat}, move {}).\nPosition: {}\n{}\n",
            loaded.game.ply + 1,
            loaded.game.position,
            link(ctx, loaded)
        ),
    )
}

/// The game ended: one mail to each player (the one whose action ended it included, so every
/// player's mailbox has the result).
///
/// # Errors
/// [`DbError::Query`].
pub fn game_over(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
) -> Result<(), DbError> {
    let result = loaded.game.result.clone().unwrap_or_default();
    let reason = loaded.game.result_reason.clone().unwrap_or_default();
    for (_, account) in &loaded.seats {
        queue(
            conn,
            ctx,
            (account, Category::GameOver, loaded),
            format!(
                "Game {} ({}) is over: {result}",
                loaded.game.id, loaded.game.kind
            ),
            format!(
                "Game {} is over after {} moves: {result} ({reason}).\nPlayers: {}\n{}/record\n",
                loaded.game.id,
                loaded.game.ply,
                players(loaded),
                link(ctx, loaded)
            ),
        )?;
    }
    Ok(())
}
