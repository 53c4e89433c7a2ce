//! A tournament's own mails (`crate::tournaments`): the announcement to invited players, the
//! notice that it was cancelled, and the final standings. A round's games send the usual game
//! mails through the game service. Queued in the caller's transaction; bots get none.

use std::fmt::Write as _;

use turnpost_shared::StandingView;

use crate::db::models::Account;
use crate::db::{DbConnection, DbError};
use crate::mail::{self, ComposedMail, NewMail};
use crate::mail_context::MailContext;

/// What every tournament mail names.
#[derive(Debug, Clone)]
pub struct TournamentFacts<'a> {
    /// The id.
    pub id: i64,
    /// The name.
    pub name: &'a str,
    /// The game kind (`kefren`).
    pub kind: &'a str,
    /// The format (`swiss`).
    pub format: &'a str,
    /// The games' clock.
    pub clock: &'a str,
    /// When entries close, UTC (`2026-12-01 18:00`).
    pub entry_closes: String,
}

fn send(
    conn: &mut DbConnection,
    ctx: &MailContext,
    to: &Account,
    subject: String,
    text: String,
) -> Result<(), DbError> {
    if to.is_bot() {
        return Ok(());
    }
    mail::enqueue(
        conn,
        &ctx.message_id_domain,
        &NewMail {
            to: to.email.clone(),
            mail: ComposedMail::plain(subject, text),
        },
    )?;
    Ok(())
}

fn link(ctx: &MailContext, id: i64) -> String {
    format!("{}/tournaments/{id}", ctx.public_url.trim_end_matches('/'))
}

/// Mails `invitee` that `organiser` invites them to the tournament.
///
/// # Errors
/// Storage failures.
pub fn announcement(
    conn: &mut DbConnection,
    ctx: &MailContext,
    facts: &TournamentFacts<'_>,
    organiser: &Account,
    invitee: &Account,
) -> Result<(), DbError> {
    let id = facts.id;
    let text = format!(
        "Hello {name},\n\n\
         {org} invites you to the tournament \"{title}\" (#{id}): {kind}, {format}, clock {clock}.\n\
         Entries close at {closes} UTC; round 1 starts then, and the server mails you your games.\n\n\
         Join on the web:\n\n    {url}\n\n\
         or with the command line:\n\n    turnpost tournament join {id}\n\n\
         -- \nturnpost\n{public}\n",
        name = invitee.name,
        org = organiser.name,
        title = facts.name,
        kind = facts.kind,
        format = facts.format.replace('_', "-"),
        clock = facts.clock,
        closes = facts.entry_closes,
        url = link(ctx, id),
        public = ctx.public_url,
    );
    send(
        conn,
        ctx,
        invitee,
        format!("Tournament invitation: {} (#{id})", facts.name),
        text,
    )
}

/// Mails each of `to` that the tournament was cancelled: `entered` entered by the close of
/// entries, fewer than `minimum`.
///
/// # Errors
/// Storage failures.
pub fn cancelled(
    conn: &mut DbConnection,
    ctx: &MailContext,
    facts: &TournamentFacts<'_>,
    to: &[Account],
    entered: usize,
    minimum: usize,
) -> Result<(), DbError> {
    for account in to {
        let text = format!(
            "Hello {name},\n\n\
             the tournament \"{title}\" (#{id}) is cancelled: {count} entered by the close of \
             entries, and it needs at least {minimum}.\n\n    {url}\n\n-- \nturnpost\n{public}\n",
            name = account.name,
            title = facts.name,
            id = facts.id,
            count = turnpost_shared::counted(entered, "player", "players"),
            url = link(ctx, facts.id),
            public = ctx.public_url,
        );
        send(
            conn,
            ctx,
            account,
            format!("Tournament cancelled: {} (#{})", facts.name, facts.id),
            text,
        )?;
    }
    Ok(())
}

/// Mails each of `to` the final standings of the tournament.
///
/// # Errors
/// Storage failures.
pub fn final_standings(
    conn: &mut DbConnection,
    ctx: &MailContext,
    facts: &TournamentFacts<'_>,
    to: &[Account],
    standings: &[StandingView],
) -> Result<(), DbError> {
    let mut table = String::from("Rank  Player            Points  Buchholz    S-B\n");
    for line in standings {
        let _ = writeln!(
            table,
            "{:>4}  {:<16}  {:>6}  {:>8}  {:>5}",
            line.rank, line.player, line.points, line.buchholz, line.sonneborn_berger
        );
    }
    for account in to {
        let text = format!(
            "Hello {name},\n\n\
             the tournament \"{title}\" (#{id}) has ended. The final standings:\n\n{table}\n\
             Ties are broken by Buchholz (the points of every opponent met), then by \
             Sonneborn-Berger (the result against each opponent times their points).\n\n\
             {url}\n\n-- \nturnpost\n{public}\n",
            name = account.name,
            title = facts.name,
            id = facts.id,
            url = link(ctx, facts.id),
            public = ctx.public_url,
        );
        send(
            conn,
            ctx,
            account,
            format!("Tournament over: {} (#{})", facts.name, facts.id),
            text,
        )?;
    }
    Ok(())
}
