//! Who acts on a game, as the channel that carried the request vouches for it.

/// The one acting: today an account authenticated by its API token. A verified mail sender
/// (an account answering for one seat) or a built-in bot are further variants; each names the
/// account it acts for, and may narrow which seat it may play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// An account, acting for whatever seat it holds.
    Account(i64),
}

impl Actor {
    /// The account the actor acts for.
    #[must_use]
    pub fn account_id(&self) -> i64 {
        match self {
            Self::Account(id) => *id,
        }
    }

    /// Whether the actor may act for `seat`, held by `holder`.
    #[must_use]
    pub fn may_act_for(&self, holder: i64, _seat: i32) -> bool {
        self.account_id() == holder
    }
}
