//! A tournament's own mails (`crate::tournaments`): the announcement to invited players (its
//! `Reply-To:` a reply address naming the tournament and the invitee, so a reply `join`
//! enters them), the answer to such a reply (`crate::inbound`), the notice that it was
//! cancelled, and the final standings. A round's games send the usual game mails through the
//! game service. Queued in the caller's transaction; bots get none.

use std::fmt::Write as _;

use turnpost_shared::api::StandingView;

use crate::db::accounts::Account;
use crate::db::{self, inbound as answers, DbConnection, DbError};
use crate::mail::{self, ComposedMail};
use crate::mail_context::MailContext;
use crate::notify::recipient::{recipient, Delivery};
use crate::notify::time_words::{time_in_words, Reader};
use crate::preferences::{Category, Preferences};
use crate::reply_address::EntryHolder;

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
    /// When entries close (UTC); each mail says it in its reader's zone and words.
    pub entry_closes_at: chrono::NaiveDateTime,
    /// The maximum, when the tournament starts as soon as it is reached.
    pub starts_when_full_at: Option<u32>,
}

fn send_mail(
    conn: &mut DbConnection,
    ctx: &MailContext,
    to: &Account,
    mail: ComposedMail,
) -> Result<(), DbError> {
    if to.is_bot() {
        return Ok(());
    }
    mail::enqueue_to(conn, &ctx.message_id_domain, &to.email, mail)?;
    Ok(())
}

/// `to`'s reply address for tournament `id`: a reply to it may say `join` or `withdraw`.
fn entry_address(ctx: &MailContext, id: i64, to: &Account) -> String {
    ctx.reply.entry_address(&EntryHolder {
        tournament_id: id,
        account_id: to.id,
        generation: to.link_generation,
    })
}

fn link(ctx: &MailContext, id: i64) -> String {
    format!("{}/tournaments/{id}", ctx.public_url.trim_end_matches('/'))
}

/// Mails `invitee` that `organiser` invites them to the tournament, if their `challenges`
/// switch is on: an invitation is a challenge to play, so it follows that switch and carries
/// its one-click unsubscribe link (in the text and as `List-Unsubscribe`).
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
    let preferences = Preferences::load(conn, invitee.id)?;
    let decision = recipient(ctx, invitee, &preferences, false, Category::Challenges);
    if decision.delivery == Delivery::Skip {
        return Ok(());
    }
    let id = facts.id;
    let text = format!(
        "Hello {name},\n\n\
         {org} invites you to the tournament \"{title}\" (#{id}): {kind}, {format}, clock {clock}.\n\
         Entries close {closes}; round 1 starts then{full}, and the server mails you your games.\n\n\
         Join on the web:\n\n    {url}\n\n\
         or with the command line:\n\n    turnpost tournament join {id}\n\n\
         or reply to this mail with the word join (and later, to leave, withdraw).\n\n\
         -- \nturnpost\n{public}\nStop these mails: {unsubscribe}\n",
        name = invitee.name,
        unsubscribe = decision.unsubscribe_url,
        org = organiser.name,
        title = facts.name,
        kind = facts.kind,
        format = facts.format.replace('_', "-"),
        clock = facts.clock,
        closes = time_in_words(
            facts.entry_closes_at,
            db::now(),
            Reader::Zone(preferences.time_zone)
        ),
        full = facts
            .starts_when_full_at
            .map(|max| format!(" (or as soon as {max} players have entered)"))
            .unwrap_or_default(),
        url = link(ctx, id),
        public = ctx.public_url,
    );
    let subject = format!("Tournament invitation: {} (#{id})", facts.name);
    let mut mail = entry_mail(ctx, id, invitee, subject, text);
    mail.unsubscribe_url = Some(decision.unsubscribe_url);
    send_mail(conn, ctx, invitee, mail)
}

/// A mail whose replies enter or leave tournament `id` (its `Reply-To:` is the tournament's
/// reply address for `to`).
fn entry_mail(
    ctx: &MailContext,
    id: i64,
    to: &Account,
    subject: String,
    text: String,
) -> ComposedMail {
    let mut mail = ComposedMail::plain(subject, text);
    mail.reply_to = Some(entry_address(ctx, id, to));
    mail
}

/// What a reply to a tournament's announcement did, as its answer says it.
#[derive(Debug, Clone, Copy)]
pub struct EntryAnswer<'a> {
    /// The tournament.
    pub id: i64,
    /// Its name.
    pub name: &'a str,
    /// The reply's command line, as written.
    pub line: &'a str,
    /// What was done, or why not.
    pub outcome: Result<&'a str, &'a str>,
}

/// Answers `to`'s reply to a tournament's announcement (joined, withdrawn, or why not), unless
/// `to` has had `answers_per_hour` answers this past hour; answers how many mails were queued
/// (0 or 1). Its `Reply-To:` is the tournament's reply address again.
///
/// # Errors
/// Storage failures.
pub fn answer_entry_reply(
    conn: &mut DbConnection,
    ctx: &MailContext,
    answers_per_hour: u32,
    to: &Account,
    answer: &EntryAnswer<'_>,
) -> Result<i32, DbError> {
    if to.is_bot() {
        return Ok(0);
    }
    let since = db::now() - chrono::Duration::hours(1);
    if answers::answers_since(conn, to.id, since)? >= i64::from(answers_per_hour) {
        tracing::warn!(
            tournament = answer.id,
            account = to.id,
            "mail answers over the hourly limit: not answered"
        );
        return Ok(0);
    }
    let id = answer.id;
    let said = match answer.outcome {
        Ok(done) => format!("Done: {done}"),
        Err(why) => format!("Not done: {why}"),
    };
    let text = format!(
        "Hello {name},\n\n> {line}\n\n{said}\n\n\
         Reply to this mail with the word join to enter the tournament \"{title}\" (#{id}), or \
         withdraw to leave it.\n\n    {url}\n\n-- \nturnpost\n{public}\n",
        name = to.name,
        line = answer.line,
        title = answer.name,
        url = link(ctx, id),
        public = ctx.public_url,
    );
    let subject = format!("Re: Tournament invitation: {} (#{id})", answer.name);
    let mut mail = entry_mail(ctx, id, to, subject, text);
    mail.auto_replied = true;
    send_mail(conn, ctx, to, mail)?;
    Ok(1)
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
    let news = format!(
        "the tournament \"{title}\" (#{id}) is cancelled: {count} entered by the close of \
         entries, and it needs at least {minimum}.",
        title = facts.name,
        id = facts.id,
        count = turnpost_shared::render::counted(entered, "player", "players"),
    );
    tell_each(conn, ctx, facts, to, "Tournament cancelled", &news)
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
    let news = format!(
        "the tournament \"{title}\" (#{id}) has ended. The final standings:\n\n{table}\n\
         Ties are broken by Buchholz (the points of every opponent met), then by \
         Sonneborn-Berger (the result against each opponent times their points).",
        title = facts.name,
        id = facts.id,
    );
    tell_each(conn, ctx, facts, to, "Tournament over", &news)
}

/// Mails each of `to` the tournament's `news` (a sentence after "Hello name,"), with the
/// tournament's link; the subject is `what` and the tournament.
fn tell_each(
    conn: &mut DbConnection,
    ctx: &MailContext,
    facts: &TournamentFacts<'_>,
    to: &[Account],
    what: &str,
    news: &str,
) -> Result<(), DbError> {
    for account in to {
        let text = format!(
            "Hello {name},\n\n{news}\n\n    {url}\n\n-- \nturnpost\n{public}\n",
            name = account.name,
            url = link(ctx, facts.id),
            public = ctx.public_url,
        );
        let subject = format!("{what}: {} (#{})", facts.name, facts.id);
        send_mail(conn, ctx, account, ComposedMail::plain(subject, text))?;
    }
    Ok(())
}
