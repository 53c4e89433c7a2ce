//! The mails the sweeps send: reminders, claim notices and digests, each through the
//! recipient's preferences.

use chrono::NaiveDateTime;

use crate::accounts::MailContext;
use crate::db::models::{Account, Game};
use crate::db::{accounts, DbConnection, DbError};
use crate::games::{notify, Loaded};
use crate::mail::{self, NewMail};
use crate::notifications::{recipient, Category, Delivery};

fn game_link(ctx: &MailContext, game_id: i64) -> String {
    format!(
        "{}/v1/games/{game_id}",
        ctx.public_url.trim_end_matches('/')
    )
}

fn send(
    conn: &mut DbConnection,
    ctx: &MailContext,
    to: &Account,
    subject: String,
    body: String,
) -> Result<(), DbError> {
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

/// Reminds the seat to move of its deadline.
///
/// # Errors
/// [`DbError::Query`].
pub fn reminder(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let (Some(seat), Some(deadline)) = (loaded.game.to_move, loaded.game.deadline_at) else {
        return Ok(());
    };
    let Some(account) = loaded.player_at(seat) else {
        return Ok(());
    };
    let to = notify::recipient_in(ctx, loaded, account, Category::Reminders);
    if to.delivery != Delivery::Now {
        return Ok(());
    }
    let hours = ((deadline - now).num_minutes().max(0) + 59) / 60;
    let local = deadline.and_utc().with_timezone(&to.time_zone);
    send(
        conn,
        ctx,
        account,
        format!("Reminder: {hours} h left in game {}", loaded.game.id),
        format!(
            "Your move in game {} ({}) is due by {} ({hours} h from now).\n\
             Play: turnpost move {} --ply {} <move>\n{}\n",
            loaded.game.id,
            loaded.game.kind,
            local.format("%Y-%m-%d %H:%M %Z"),
            loaded.game.id,
            loaded.game.ply,
            game_link(ctx, loaded.game.id)
        ),
    )
}

/// Tells the seats not to move that the seat to move ran out of time and the win may be
/// claimed.
///
/// # Errors
/// [`DbError::Query`].
pub fn claimable(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
) -> Result<(), DbError> {
    let Some(late) = loaded.game.to_move else {
        return Ok(());
    };
    let late_name = loaded
        .player_at(late)
        .map_or_else(|| format!("seat {late}"), |a| a.name.clone());
    for (seat, account) in &loaded.seats {
        if seat.seat == late {
            continue;
        }
        let to = notify::recipient_in(ctx, loaded, account, Category::Reminders);
        if to.delivery != Delivery::Now {
            continue;
        }
        send(
            conn,
            ctx,
            account,
            format!("{late_name} ran out of time in game {}", loaded.game.id),
            format!(
                "{late_name} ran out of time in game {} ({}). You may claim the win:\n\
                 turnpost claim {}\n(Until someone claims, {late_name} may still move.)\n{}\n",
                loaded.game.id,
                loaded.game.kind,
                loaded.game.id,
                game_link(ctx, loaded.game.id)
            ),
        )?;
    }
    Ok(())
}

/// The daily digest for `account_id` listing `waiting` (most urgent first). Returns whether a
/// mail was queued.
///
/// # Errors
/// [`DbError::Query`].
pub fn digest(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account_id: i64,
    waiting: &[Game],
) -> Result<bool, DbError> {
    let Some(account) = accounts::by_id(conn, account_id)? else {
        return Ok(false);
    };
    let to = recipient(conn, ctx, &account, None, Category::Turn)?;
    if to.delivery != Delivery::Digest {
        return Ok(false);
    }
    let mut body = format!(
        "{} game{} waiting for your move, most urgent first:\n\n",
        waiting.len(),
        if waiting.len() == 1 { " is" } else { "s are" }
    );
    for game in waiting {
        let due = game.deadline_at.map_or_else(
            || "no deadline".to_owned(),
            |d| {
                d.and_utc()
                    .with_timezone(&to.time_zone)
                    .format("due %Y-%m-%d %H:%M %Z")
                    .to_string()
            },
        );
        body.push_str(&format!(
            "- game {} ({}), move {}, {due}\n  turnpost move {} --ply {} <move>\n",
            game.id,
            game.kind,
            game.ply + 1,
            game.id,
            game.ply
        ));
    }
    send(
        conn,
        ctx,
        &account,
        format!(
            "Your turn in {} game{}",
            waiting.len(),
            if waiting.len() == 1 { "" } else { "s" }
        ),
        body,
    )?;
    Ok(true)
}
