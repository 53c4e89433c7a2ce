//! Reply addresses of game mails: the configured template ([`ReplyAddressTemplate`], e.g.
//! `games+%{key}@example.org`) and the signed key that names one seat, one game and the ply the
//! mail showed, or one tournament and one invited account ([`ReplyKeys`]). The mail decisions (`crate::notify`) write them and mail in
//! (`crate::inbound`) reads them, so they live below both.

mod key;
mod template;

pub use key::{
    load_secret, EntryHolder, EntryToken, KeyCheck, ReplyKeys, ReplyTarget, ReplyToken, SeatHolder,
    REPLY_KEY_NAME,
};
pub use template::{ReplyAddressTemplate, TemplateError};

use crate::config::{Config, ConfigError};

/// The reply-address template the configuration asks for: `TURNPOST_REPLY_ADDRESS`, or one
/// made from the sender address.
///
/// # Errors
/// [`ConfigError::Reply`] saying what is wrong with it.
pub fn reply_template(config: &Config) -> Result<ReplyAddressTemplate, ConfigError> {
    match &config.reply_address {
        Some(template) => ReplyAddressTemplate::parse(template),
        None => ReplyAddressTemplate::from_sender(&config.mail_from),
    }
    .map_err(|e| ConfigError::Reply(e.to_string()))
}
