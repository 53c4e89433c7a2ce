//! The mails the sweeps send: reminders, claim notices and digests, each through the
//! recipient's preferences.

use chrono::NaiveDateTime;

use crate::accounts::MailContext;
use crate::db::models::Game;
use crate::db::{accounts, DbConnection, DbError};
use crate::games::{notify, Loaded};
use crate::mail::compose;
use crate::notifications::{recipient, Category, Delivery};

/// Reminds the seat to move of its deadline.
///
/// # Errors
/// Storage failures.
pub fn reminder(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
    now: NaiveDateTime,
) -> Result<(), DbError> {
    let Some(seat) = loaded.game.to_move else {
        return Ok(());
    };
    // A bot plays the seat on for its player who left: nobody to remind.
    if loaded.stand_in(seat).is_some() {
        return Ok(());
    }
    let Some(account) = loaded.player_at(seat) else {
        return Ok(());
    };
    let Some(to) = notify::recipient(ctx, loaded, account, Category::Reminders) else {
        return Ok(());
    };
    let game = notify::game_facts(conn, loaded, Some(seat))?;
    let mail = compose::reminder(&notify::site(ctx), &to, &game, now.and_utc());
    notify::queue(conn, ctx, &to, mail)
}

/// Tells the seats not to move that the seat to move ran out of time and the win may be
/// claimed.
///
/// # Errors
/// Storage failures.
pub fn claimable(
    conn: &mut DbConnection,
    ctx: &MailContext,
    loaded: &Loaded,
) -> Result<(), DbError> {
    let Some(late) = loaded.game.to_move else {
        return Ok(());
    };
    let late_name = loaded.playing_name(late);
    let command = format!("turnpost claim {}", loaded.game.id);
    // Players who left the game may not claim.
    let departed = loaded.players_left()?;
    for (seat, account) in &loaded.seats {
        if seat.seat == late || departed.contains(&seat.seat) {
            continue;
        }
        let Some(to) = notify::recipient(ctx, loaded, account, Category::Reminders) else {
            continue;
        };
        let game = notify::game_facts(conn, loaded, Some(seat.seat))?;
        let mail = compose::may_claim_on_time(&notify::site(ctx), &to, &game, &late_name, &command);
        notify::queue(conn, ctx, &to, mail)?;
    }
    Ok(())
}

/// The daily digest for `account_id` listing `waiting` (most urgent first). Returns whether a
/// mail was queued.
///
/// # Errors
/// Storage failures.
pub fn digest(
    conn: &mut DbConnection,
    ctx: &MailContext,
    account_id: i64,
    waiting: &[Game],
) -> Result<bool, DbError> {
    let Some(account) = accounts::by_id(conn, account_id)? else {
        return Ok(false);
    };
    let decision = recipient(conn, ctx, &account, None, Category::Turn)?;
    if decision.delivery != Delivery::Digest {
        return Ok(false);
    }
    let mut games = Vec::with_capacity(waiting.len());
    for game in waiting {
        let Some(loaded) = Loaded::find(conn, game.id, false)? else {
            continue;
        };
        let seat = loaded.seat_of(account_id);
        games.push(notify::game_facts(conn, &loaded, seat)?);
    }
    let to = notify::addressee(&decision);
    let mail = compose::digest(&notify::site(ctx), &to, &games);
    notify::queue(conn, ctx, &to, mail)?;
    Ok(true)
}
