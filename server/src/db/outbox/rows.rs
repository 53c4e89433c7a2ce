//! The rows of `mail_outbox`: one queued mail, and a new one to insert.

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::status::OutboxStatus;
use crate::db::schema::mail_outbox;

/// An outbox row.
#[derive(Debug, Clone, Queryable, QueryableByName, Selectable, Identifiable)]
#[diesel(table_name = mail_outbox)]
pub struct OutboxMail {
    /// Id.
    pub id: i64,
    /// `<…@domain>`, stable across retries.
    pub message_id: String,
    /// Recipient address.
    pub recipient: String,
    /// Subject.
    pub subject: String,
    /// Plain-text body.
    pub body_text: String,
    /// Message-ID this mail answers (threads).
    pub in_reply_to: Option<String>,
    /// Pending, sent or dead.
    pub status: OutboxStatus,
    /// Delivery attempts so far.
    pub attempts: i32,
    /// Not before.
    pub next_attempt_at: NaiveDateTime,
    /// Claimed by a worker until then (renewed while it sends).
    pub lease_until: Option<NaiveDateTime>,
    /// Last failure.
    pub last_error: Option<String>,
    /// Creation time.
    pub created_at: NaiveDateTime,
    /// Delivery time.
    pub sent_at: Option<NaiveDateTime>,
    /// The rest of the message as JSON ([`crate::mail::StoredParts`]): HTML part, inline
    /// picture, unsubscribe link. None: a plain-text mail.
    pub parts: Option<String>,
    /// The worker holding the lease (host, process, random tag), while one does.
    pub claimed_by: Option<String>,
    /// [`MailLane::stored`] of the mail's lane (claims take the lower lane first).
    ///
    /// [`MailLane::stored`]: super::MailLane::stored
    pub lane: i32,
}

/// A new outbox row.
/// `None` is bound as NULL (the columns' default): one statement text, kept prepared.
#[derive(Debug, Insertable)]
#[diesel(table_name = mail_outbox, treat_none_as_default_value = false)]
pub struct NewOutboxMail<'a> {
    /// Message-ID.
    pub message_id: &'a str,
    /// Recipient.
    pub recipient: &'a str,
    /// Subject.
    pub subject: &'a str,
    /// Body.
    pub body_text: &'a str,
    /// Threading.
    pub in_reply_to: Option<&'a str>,
    /// HTML part, picture and unsubscribe link as JSON.
    pub parts: Option<&'a str>,
    /// Pending.
    pub status: OutboxStatus,
    /// Now.
    pub next_attempt_at: NaiveDateTime,
    /// Now.
    pub created_at: NaiveDateTime,
    /// [`MailLane::stored`] of the mail's lane.
    ///
    /// [`MailLane::stored`]: super::MailLane::stored
    pub lane: i32,
}
