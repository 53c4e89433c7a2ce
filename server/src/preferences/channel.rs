//! The channels besides mail that carry the same categories (webhooks; web push fits beside
//! them), each with its own on/off switch per category. Mail keeps its switches as they are
//! (`notification_settings`); these live in `channel_switches`, one row per switch changed
//! from its default (on: a channel is opted into by adding an endpoint or a device).

use std::collections::HashSet;

use turnpost_shared::api::{ChannelCategories, ChannelCategoriesPatch};

use super::Category;
use crate::db::webhooks as q;
use crate::db::{DbConnection, DbError};

turnpost_shared::named_value! {
    noun: "notification channel";
    /// A channel other than mail.
    pub enum Channel {
        /// The account's webhooks.
        Webhooks = "webhooks",
        /// Web push to the account's browsers.
        Push = "push",
    }
}

impl Channel {
    /// The categories the channel carries: those of game events (reminders and mail
    /// confirmations are mail only).
    pub const CATEGORIES: [Category; 5] = [
        Category::Turn,
        Category::Challenges,
        Category::ChallengeReplies,
        Category::GameOver,
        Category::DrawOffers,
    ];
}

/// The switches of one channel for a set of accounts, read once.
#[derive(Debug, Clone, Default)]
pub struct ChannelSwitches {
    off: HashSet<(i64, Category)>,
}

impl ChannelSwitches {
    /// The switches of `channel` for `account_ids`.
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub fn load(
        conn: &mut DbConnection,
        channel: Channel,
        account_ids: &[i64],
    ) -> Result<Self, DbError> {
        let off = q::switched_off(conn, channel.as_str(), account_ids)?
            .into_iter()
            .filter_map(|(account, name)| name.parse().ok().map(|category| (account, category)))
            .collect();
        Ok(Self { off })
    }

    /// Whether `account` wants `category` on this channel.
    #[must_use]
    pub fn wants(&self, account: i64, category: Category) -> bool {
        !self.off.contains(&(account, category))
    }
}

/// Sets `account`'s switch of `category` on `channel`.
///
/// # Errors
/// [`DbError::Query`].
pub fn set_switch(
    conn: &mut DbConnection,
    account: i64,
    channel: Channel,
    category: Category,
    on: bool,
) -> Result<(), DbError> {
    q::set_switch(conn, account, channel.as_str(), category.as_str(), on)
}

/// `account`'s switches of `channel` as the API shows them.
///
/// # Errors
/// [`DbError::Query`].
pub fn view(
    conn: &mut DbConnection,
    account: i64,
    channel: Channel,
) -> Result<ChannelCategories, DbError> {
    let switches = ChannelSwitches::load(conn, channel, &[account])?;
    let on = |category| switches.wants(account, category);
    Ok(ChannelCategories {
        turn: on(Category::Turn),
        challenges: on(Category::Challenges),
        challenge_replies: on(Category::ChallengeReplies),
        game_over: on(Category::GameOver),
        draw_offers: on(Category::DrawOffers),
    })
}

/// Changes the switches of `channel` the patch names.
///
/// # Errors
/// [`DbError::Query`].
pub fn apply(
    conn: &mut DbConnection,
    account: i64,
    channel: Channel,
    patch: &ChannelCategoriesPatch,
) -> Result<(), DbError> {
    for (category, value) in [
        (Category::Turn, patch.turn),
        (Category::Challenges, patch.challenges),
        (Category::ChallengeReplies, patch.challenge_replies),
        (Category::GameOver, patch.game_over),
        (Category::DrawOffers, patch.draw_offers),
    ] {
        if let Some(on) = value {
            set_switch(conn, account, channel, category, on)?;
        }
    }
    Ok(())
}
