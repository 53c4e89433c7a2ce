//! The sources that feed the handler: one message on stdin (`turnpost-server mail-in`) and the
//! IMAP watcher (`TURNPOST_IMAP_URL`, a thread of `serve`). Both hand raw bytes to
//! [`handle`](super::handle); a database that cannot be reached leaves the message where it is
//! (exit 75 for the MTA to retry; left in the mailbox for the next look).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::{handle, Handled, HandlerSettings, ImapWatch, Outcome};
use crate::db::{DbError, Pool};
use crate::mail_context::MailContext;

/// `EX_TEMPFAIL` (sysexits.h): the MTA keeps the message and tries again later.
pub const EX_TEMPFAIL: u8 = 75;

/// Handles one message with a connection from `pool`.
///
/// # Errors
/// The database cannot be reached or failed: nothing was done.
pub fn handle_pooled(
    pool: &Pool,
    ctx: &MailContext,
    settings: &HandlerSettings,
    raw: &[u8],
) -> Result<Outcome, DbError> {
    let mut conn = pool.get()?;
    handle(&mut conn, ctx, settings, raw)
}

/// Watches `watch` until `stop` is set, handling each message (blocking: run it on a thread of
/// its own).
pub fn watch_mailbox(
    watch: &ImapWatch,
    pool: &Pool,
    ctx: &MailContext,
    settings: &HandlerSettings,
    stop: &Arc<AtomicBool>,
) {
    tracing::info!(mailbox = %watch.mailbox.describe(), "watching the IMAP mailbox for replies");
    let mut handler = |raw: &[u8]| match handle_pooled(pool, ctx, settings, raw) {
        Ok(_) => Handled::Done,
        Err(error) => {
            tracing::warn!(%error, "inbound mail left in the mailbox: the database failed");
            Handled::Later
        }
    };
    watch.run(&mut handler, stop);
}
