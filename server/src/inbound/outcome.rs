//! What became of one inbound message, for the log, the metrics and `mail-in`'s answer.

/// What became of one inbound message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Not acted on and not answered; why, for the log.
    Ignored(&'static str),
    /// Handled before (same Message-ID): nothing done again.
    Duplicate,
    /// Its commands ran.
    Acted {
        /// The game.
        game_id: i64,
        /// Commands that took effect or were answered.
        done: usize,
        /// Whether a command was refused.
        refused: bool,
        /// Mails sent back.
        answers: i32,
    },
    /// A reply to a tournament's announcement was read: its `join` or `withdraw` ran, or was
    /// refused.
    Entry {
        /// The tournament.
        tournament_id: i64,
        /// Whether it was refused (closed, full, already in, not understood, …).
        refused: bool,
        /// Mails sent back.
        answers: i32,
    },
}
