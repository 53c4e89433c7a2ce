//! Who acts on a game, as the channel that carried the request vouches for it.

use crate::db::games::GameSeat;

/// The one acting. Each variant names the account it acts for, and may narrow which seat it
/// may play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// An account authenticated by its API token, acting for whatever seat it holds.
    Account(i64),
    /// A built-in bot account, played by the server's bot worker (never by a request).
    Bot {
        /// The bot's account.
        account_id: i64,
    },
    /// A reply to a game mail whose reply key names this seat and whose sender is the seat's
    /// account's address (`crate::inbound`): it acts for that one seat only.
    MailSender {
        /// The seat's account.
        account_id: i64,
        /// The seat the reply key names.
        seat: i32,
    },
    /// A browser holding a seat's play-link cookie (checked by the web channel): it acts for
    /// that one seat only.
    PlayLink {
        /// The account holding the seat.
        account_id: i64,
        /// The seat.
        seat: i32,
    },
}

impl Actor {
    /// The account the actor acts for.
    #[must_use]
    pub fn account_id(&self) -> i64 {
        match self {
            Self::Account(id)
            | Self::Bot { account_id: id }
            | Self::MailSender { account_id: id, .. }
            | Self::PlayLink { account_id: id, .. } => *id,
        }
    }

    /// Whether the actor may act for `seat`: its holder, or the bot that plays it on for a
    /// player who left.
    #[must_use]
    pub fn may_act_for(&self, seat: &GameSeat) -> bool {
        match self {
            Self::Account(id) => seat.account_id == *id,
            Self::Bot { account_id } => {
                seat.account_id == *account_id || seat.played_by == Some(*account_id)
            }
            // Only the seat its reply key names, and only while its player holds it.
            Self::MailSender {
                account_id,
                seat: only,
            } => seat.account_id == *account_id && seat.seat == *only,
            // A play link is for one seat of its holder only.
            Self::PlayLink {
                account_id,
                seat: own,
            } => seat.account_id == *account_id && seat.seat == *own,
        }
    }
}
