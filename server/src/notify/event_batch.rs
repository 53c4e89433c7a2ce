//! Game events composed together: what their mails read, read once ([`BatchReads`]), and
//! where their mails go ([`GameOutbox`]).

use super::{BatchReads, GameOutbox};

/// One batch of game events being composed (one event alone is a batch that reads nothing
/// ahead and queues each mail at once).
pub struct EventBatch {
    /// What the batch read ahead for its mails.
    pub reads: BatchReads,
    /// Where its mails go.
    pub outbox: GameOutbox,
}

impl EventBatch {
    /// An event composed alone: every read and every mail goes to the database as it comes.
    #[must_use]
    pub fn single() -> Self {
        Self {
            reads: BatchReads::none(),
            outbox: GameOutbox::at_once(),
        }
    }
}
