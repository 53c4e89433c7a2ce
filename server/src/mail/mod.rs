//! Mail delivery only: the outbox and what sends it. Nothing is sent from a request handler:
//! the mail decided in `crate::notify` is queued with [`enqueue`] on the caller's connection,
//! inside the transaction that changes state; the [`worker`] delivers the row later through a
//! [`Transport`] (several sessions at once, each claiming rows with a lease, SMTP sessions over
//! `relay` or `.eml` files) and retries failures with exponential backoff up to a dead letter.
//! A queued mail is a [`ComposedMail`] (composed from plain data by `crate::notify::compose`)
//! with its HTML part, picture and unsubscribe link kept as [`StoredParts`]; the picture is
//! drawn ([`picture`]) when first delivered; [`operator`] lists and retries rows.

mod composed;
pub mod operator;
pub mod picture;
mod relay;
mod send_error;
mod smtp_data;
mod smtp_pipelining;
mod stored_parts;
pub mod transport;
pub mod worker;

pub use crate::config::OutboxSettings;
pub use composed::{ComposedMail, Drawing, InlineImage};
pub use send_error::SendError;
pub use stored_parts::StoredParts;
pub use transport::{Session, Transport};
pub use worker::{claimant_name, deliver_due, Delivery, OutboxWorker, CLAIM_BATCH};

pub use crate::db::outbox::MailLane;
use crate::db::outbox::NewOutboxMail;
use crate::db::{outbox, DbConnection, DbError};

/// One email to queue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMail {
    /// Recipient address (already validated).
    pub to: String,
    /// What it says.
    pub mail: ComposedMail,
}

/// Queues `mail` on the caller's connection, so it commits or rolls back with the caller's
/// transaction. Returns the new row's id. Each mail gets its own Message-ID
/// `<random@domain>`, kept across retries; its HTML part, picture and unsubscribe link are
/// stored with it ([`StoredParts`]).
///
/// # Errors
/// [`DbError::Query`] if the row cannot be written.
pub fn enqueue(
    conn: &mut DbConnection,
    message_id_domain: &str,
    mail: &NewMail,
) -> Result<i64, DbError> {
    enqueue_in(conn, message_id_domain, mail, MailLane::Game)
}

/// Queues `mail` for the address `to` as [`enqueue`] does.
///
/// # Errors
/// [`DbError::Query`] if the row cannot be written.
pub fn enqueue_to(
    conn: &mut DbConnection,
    message_id_domain: &str,
    to: &str,
    mail: ComposedMail,
) -> Result<i64, DbError> {
    let mail = NewMail {
        to: to.to_owned(),
        mail,
    };
    enqueue(conn, message_id_domain, &mail)
}

/// Builds `mail`'s outbox row as [`enqueue_in`] does in [`MailLane::Account`], writes it and deletes it
/// again in the caller's transaction ([`outbox::insert_and_discard`]): the same work, and
/// nothing sent.
///
/// # Errors
/// [`DbError::Query`].
pub fn enqueue_account_mail_and_discard(
    conn: &mut DbConnection,
    message_id_domain: &str,
    mail: &NewMail,
) -> Result<(), DbError> {
    let row = QueuedRow::of(message_id_domain, mail, StoredParts::of(&mail.mail))?;
    outbox::insert_and_discard(conn, &row.row(MailLane::Account))
}

/// Queues `mails` as [`enqueue`] does each, in their order, with as few statements as the
/// database allows ([`outbox::insert_all`]): a batch of composed events queues its turn cards
/// together.
///
/// # Errors
/// [`DbError::Query`] if the rows cannot be written (none is, once the caller's transaction
/// rolls back).
pub fn enqueue_all(
    conn: &mut DbConnection,
    message_id_domain: &str,
    mails: &[NewMail],
) -> Result<(), DbError> {
    let rows = mails
        .iter()
        .map(|mail| QueuedRow::of(message_id_domain, mail, StoredParts::of(&mail.mail)))
        .collect::<Result<Vec<_>, _>>()?;
    let new: Vec<NewOutboxMail<'_>> = rows.iter().map(|row| row.row(MailLane::Game)).collect();
    outbox::insert_all(conn, &new)
}

/// Queues `mail` as [`enqueue`] does, in `lane`: account mail (a sign-in code, a sign-up
/// notice) goes in [`MailLane::Account`], claimed before any game mail, so a backlog of turn
/// cards does not delay it.
///
/// # Errors
/// [`DbError::Query`] if the row cannot be written.
pub fn enqueue_in(
    conn: &mut DbConnection,
    message_id_domain: &str,
    mail: &NewMail,
    lane: MailLane,
) -> Result<i64, DbError> {
    let row = QueuedRow::of(message_id_domain, mail, StoredParts::of(&mail.mail))?;
    outbox::insert(conn, &row.row(lane))
}

/// What an outbox row holds beyond the mail itself: its new Message-ID, its parts as JSON and
/// when it was queued.
struct QueuedRow<'a> {
    mail: &'a NewMail,
    message_id: String,
    parts: Option<String>,
    now: chrono::NaiveDateTime,
}

impl<'a> QueuedRow<'a> {
    fn of(
        message_id_domain: &str,
        mail: &'a NewMail,
        parts: Option<StoredParts>,
    ) -> Result<Self, DbError> {
        let message_id = format!(
            "<{}@{}>",
            crate::secrets::random_string(24, crate::secrets::LOWER_ALNUM),
            message_id_domain
        );
        let parts = parts
            .map(|parts| parts.to_json())
            .transpose()
            .map_err(|e| DbError::Query(diesel::result::Error::SerializationError(Box::new(e))))?;
        Ok(Self {
            mail,
            message_id,
            parts,
            now: crate::db::now(),
        })
    }

    fn row(&self, lane: MailLane) -> NewOutboxMail<'_> {
        let content = &self.mail.mail;
        NewOutboxMail {
            message_id: &self.message_id,
            recipient: &self.mail.to,
            subject: &content.subject,
            body_text: &content.text,
            in_reply_to: content.thread.as_deref(),
            parts: self.parts.as_deref(),
            status: outbox::OutboxStatus::Pending,
            next_attempt_at: self.now,
            created_at: self.now,
            lane: lane.stored(),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let settings = OutboxSettings {
            max_attempts: 10,
            retry_base: Duration::from_secs(30),
            retry_max: Duration::from_secs(300),
            poll_interval: Duration::from_secs(1),
            sessions: 1,
            lease: Duration::from_secs(30),
        };
        assert_eq!(settings.backoff(1), Duration::from_secs(30));
        assert_eq!(settings.backoff(2), Duration::from_secs(60));
        assert_eq!(settings.backoff(3), Duration::from_secs(120));
        assert_eq!(settings.backoff(5), Duration::from_secs(300));
        assert_eq!(settings.backoff(99), Duration::from_secs(300));
    }
}
