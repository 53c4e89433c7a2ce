//! A message an MTA hands over — `mail-in` on a pipe, or LMTP in `serve` — handled and counted
//! the one same way: through [`handle_for`](super::handler::handle_for) (key AND sender checked,
//! exactly once by Message-ID), then counted in the database, where every serving process's
//! `/metrics` reads it (a `mail-in` process is never scraped). And the check LMTP makes at
//! RCPT: whether an address is a reply key of ours at all, so an MTA bounces the rest at once.

use super::handler::handle_for;
use super::{HandlerSettings, KeyCheck, Outcome, ReplyTarget};
use crate::db::{accounts, DbConnection, DbError};
use crate::games::GameWithSeats;
use crate::mail_context::MailContext;

/// Handles `raw`, delivered to `envelope` when the MTA says (LMTP), and counts it.
///
/// # Errors
/// Storage failures only: nothing was done, the MTA should offer the message again.
pub fn deliver(
    conn: &mut DbConnection,
    ctx: &MailContext,
    settings: &HandlerSettings,
    raw: &[u8],
    envelope: Option<&str>,
) -> Result<Outcome, DbError> {
    let outcome = handle_for(conn, ctx, settings, raw, envelope)?;
    // Counted after the fact (the message is handled whatever becomes of the count): a lost
    // count must not make the MTA deliver the reply again.
    if let Err(error) = crate::db::mail_in_deliveries::count(conn, outcome_label(&outcome)) {
        tracing::warn!(%error, "the delivery was not counted for the metrics");
    }
    Ok(outcome)
}

/// The `outcome` label of a delivery in `turnpost_mail_in_deliveries_total`.
#[must_use]
pub fn outcome_label(outcome: &Outcome) -> &'static str {
    match outcome {
        Outcome::Acted { .. } => "acted",
        Outcome::Entry { .. } => "entry",
        Outcome::Ignored(_) => "ignored",
        Outcome::Duplicate => "duplicate",
    }
}

/// Whether `address` is one of our reply addresses whose key is genuine: it names a seat with
/// a player (or an invited account) and its key is that player's, current or outdated (an
/// outdated one is answered with the board, so it is taken too). A key of a seat whose player
/// changed their tokens is no longer ours.
///
/// # Errors
/// Storage failures (the MTA should ask again later).
pub fn recipient_known(
    conn: &mut DbConnection,
    ctx: &MailContext,
    address: &str,
) -> Result<bool, DbError> {
    match ctx.reply.target_in(address) {
        None => Ok(false),
        Some(ReplyTarget::Game(token)) => {
            let Some(loaded) = GameWithSeats::find(conn, token.game_id, false)? else {
                return Ok(false);
            };
            let Some(account) = loaded.player_at(token.seat) else {
                return Ok(false);
            };
            Ok(ctx.reply.check(&token, account.id, account.link_generation) != KeyCheck::Wrong)
        }
        Some(ReplyTarget::Tournament(token)) => Ok(accounts::by_id(conn, token.account_id)?
            .is_some_and(|account| ctx.reply.check_entry(&token, account.link_generation))),
    }
}
