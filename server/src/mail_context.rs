//! [`MailContext`]: what every operation that queues mail needs (links, Message-ID domain, the
//! keys of unsubscribe links and reply addresses, the wake of the mail workers). Its own module,
//! low in the crate, so the game service, accounts, the mail decisions (`notify`) and the
//! workers all take it without depending on each other.

use std::sync::Arc;

use tokio::sync::Notify;

/// What mail-writing operations need to know.
#[derive(Debug, Clone)]
pub struct MailContext {
    /// Domain of Message-IDs.
    pub message_id_domain: String,
    /// Public base URL, for links.
    pub public_url: String,
    /// Wakes the mail composer after commit (`crate::notify::Composer`), which composes waiting
    /// game events and then wakes delivery.
    pub wake: Arc<Notify>,
    /// Signs unsubscribe links (shared by every server process, see
    /// `preferences::unsubscribe`).
    pub link_key: Arc<[u8]>,
    /// Makes the reply addresses of game mails (`Reply-To:`), see `inbound`.
    pub reply: crate::reply_address::ReplyKeys,
}
