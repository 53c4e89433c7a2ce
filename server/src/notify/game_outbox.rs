//! Where the mails of composed game events go: each queued as it is composed (one INSERT a
//! mail), or, for a batch of events composed in one transaction, held and queued together
//! when the batch is done — one multi-row INSERT instead of a round trip to the database per
//! turn card, which was most of a card's composing time once its reads were batched.

use std::cell::RefCell;

use super::facts;
use crate::db::{DbConnection, DbError};
use crate::mail::{self, ComposedMail, NewMail};
use crate::mail_context::MailContext;
use crate::notify::compose::Recipient;

/// The outbox of the game events being composed (see the module).
pub struct GameOutbox {
    /// `None`: queued at once; else the mails held so far, in the order composed.
    held: Option<RefCell<Vec<NewMail>>>,
}

impl GameOutbox {
    /// Every mail queued as it is composed.
    #[must_use]
    pub fn at_once() -> Self {
        Self { held: None }
    }

    /// Mails held until [`GameOutbox::queue_held`].
    #[must_use]
    pub fn held() -> Self {
        Self {
            held: Some(RefCell::new(Vec::new())),
        }
    }

    /// Queues `mail` for `to` (as [`facts::queue`] does), or holds it.
    ///
    /// # Errors
    /// Storage failures, when queued at once.
    pub fn queue(
        &self,
        conn: &mut DbConnection,
        ctx: &MailContext,
        to: &Recipient,
        mail: ComposedMail,
    ) -> Result<(), DbError> {
        match &self.held {
            None => facts::queue(conn, ctx, to, mail),
            Some(held) => {
                held.borrow_mut().push(NewMail {
                    to: to.email.clone(),
                    mail,
                });
                Ok(())
            }
        }
    }

    /// Queues every held mail, in the order composed; returns how many.
    ///
    /// # Errors
    /// Storage failures (the caller's transaction then rolls back the batch).
    pub fn queue_held(self, conn: &mut DbConnection, ctx: &MailContext) -> Result<usize, DbError> {
        let held = self.held.map(RefCell::into_inner).unwrap_or_default();
        if !held.is_empty() {
            mail::enqueue_all(conn, &ctx.message_id_domain, &held)?;
        }
        Ok(held.len())
    }
}
