//! Who gets which mail: notification preferences, per-game mutes, and unsubscribe links.

mod category;
mod preferences;
mod recipient;
pub mod unsubscribe;

pub use category::Category;
pub use preferences::{show, update, Preferences, DEFAULT_DIGEST_HOUR};
pub use recipient::{decide, recipient, Decision, Delivery};
