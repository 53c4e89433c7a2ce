//! Players' notification preferences, per-game mutes, and unsubscribe links (who gets which
//! mail is decided in [`crate::notify`]).

mod category;
mod preferences;
pub mod unsubscribe;

pub use category::Category;
pub use preferences::{show, update, Preferences, DEFAULT_DIGEST_HOUR};
