//! What mail in reads from the configuration: the template of reply addresses and the IMAP
//! mailbox to watch. Here, not in `crate::config`, so the configuration names no module above
//! it.

use std::time::Duration;

use super::{ImapMailbox, ImapWatch};
use crate::config::{Config, ConfigError};
use crate::reply_address::reply_template;

/// Checks what [`reply_template`] (the reply-address template) and [`imap_watch`] read (with [`Config::validate`] at
/// start-up).
///
/// # Errors
/// [`ConfigError::Reply`] or [`ConfigError::Imap`] saying what is wrong.
pub fn check(config: &Config) -> Result<(), ConfigError> {
    reply_template(config)?;
    imap_watch(config)?;
    Ok(())
}

/// The IMAP watcher `TURNPOST_IMAP_URL` asks for, if any.
///
/// # Errors
/// [`ConfigError::Imap`] for an unusable URL.
pub fn imap_watch(config: &Config) -> Result<Option<ImapWatch>, ConfigError> {
    let Some(url) = &config.imap_url else {
        return Ok(None);
    };
    let mailbox = ImapMailbox::parse(url, config.imap_allow_plain)
        .map_err(|e| ConfigError::Imap(e.to_string()))?;
    Ok(Some(ImapWatch {
        mailbox,
        poll: Duration::from_millis(config.imap_poll_ms.max(10)),
        done_folder: config
            .imap_done_folder
            .clone()
            .filter(|folder| !folder.trim().is_empty()),
    }))
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    #[test]
    fn reply_addresses_and_imap_mailboxes() {
        let mut config = Config::for_tests(PathBuf::from("/data"));
        config.mail_from = "turnpost <games@example.org>".into();
        assert_eq!(
            reply_template(&config).map(|t| t.to_string()).ok(),
            Some("games+%{key}@example.org".to_owned())
        );
        config.reply_address = Some("play-%{key}@club.example".into());
        assert!(check(&config).is_ok());
        config.reply_address = Some("play@club.example".into());
        let error = check(&config)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("TURNPOST_REPLY_ADDRESS") && error.contains("%{key}"),
            "{error}"
        );
        config.reply_address = None;
        assert!(matches!(imap_watch(&config), Ok(None)));
        config.imap_url = Some("imap://u:hunter2@imap.example.org/INBOX".into());
        let error = check(&config)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("imaps://") && !error.contains("hunter2"),
            "{error}"
        );
        config.imap_url = Some("imaps://u:p@imap.example.org/Games".into());
        config.imap_done_folder = Some("Done".into());
        let watch = imap_watch(&config).ok().flatten();
        assert_eq!(
            watch.as_ref().and_then(|w| w.done_folder.as_deref()),
            Some("Done")
        );
    }
}
