//! Who acts on a game, as the channel that carried the request vouches for it.

use crate::db::models::GameSeat;

/// The one acting. Each variant names the account it acts for, and may narrow which seat it
/// may play (a verified mail sender answering for one seat would be a further variant).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// An account authenticated by its API token, acting for whatever seat it holds.
    Account(i64),
    /// A built-in bot account, played by the server's bot worker (never by a request).
    Bot {
        /// The bot's account.
        account_id: i64,
    },
}

impl Actor {
    /// The account the actor acts for.
    #[must_use]
    pub fn account_id(&self) -> i64 {
        match self {
            Self::Account(id) | Self::Bot { account_id: id } => *id,
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
        }
    }
}
