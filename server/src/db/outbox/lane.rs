//! The lane of a queued mail (`mail_outbox.lane`): account mail is claimed before game mail,
//! so a backlog of turn cards never delays a sign-in code.

/// Which queue a mail waits in; a claim empties the lower-numbered lane first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MailLane {
    /// Sign-in codes and sign-up notices: a person is waiting for them right now.
    Account,
    /// Everything about games (turn cards, reminders, digests, answers to replies).
    Game,
}

impl MailLane {
    /// The stored number (the claim orders by it, ascending).
    #[must_use]
    pub fn stored(self) -> i32 {
        match self {
            Self::Account => 0,
            Self::Game => 1,
        }
    }
}
