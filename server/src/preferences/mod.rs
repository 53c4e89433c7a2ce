//! Players' notification preferences, per-game mutes, and unsubscribe links (who gets which
//! mail is decided in [`crate::notify`]).

mod category;
mod channel;
mod error;
mod settings;
pub mod unsubscribe;

pub use category::Category;
pub use channel::{set_switch, Channel, ChannelSwitches};
pub use error::PreferenceError;
pub use settings::{show, update, Preferences, DEFAULT_DIGEST_HOUR};
