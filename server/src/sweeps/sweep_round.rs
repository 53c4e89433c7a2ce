//! What the sweeps that send mail work with.

use chrono::NaiveDateTime;

use crate::mail_context::MailContext;

/// One round of the mail-sending sweeps: the time it sweeps as of, and the context the mails
/// it queues are written with.
#[derive(Clone, Copy)]
pub struct SweepRound<'a> {
    /// For the mails the round queues.
    pub mail: &'a MailContext,
    /// The round's time: what is due by then is acted on.
    pub now: NaiveDateTime,
}
