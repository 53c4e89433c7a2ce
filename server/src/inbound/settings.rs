//! What mail in reads from the configuration: the template of reply addresses, the IMAP
//! mailbox to watch, and what the handler asks of a reply. Here, not in `crate::config`, so the configuration names no module above
//! it.

use std::time::Duration;

use super::{HandlerSettings, ImapMailbox, ImapWatch, SenderAuth};
use crate::config::{Config, ConfigError, InboundAuth};
use crate::reply_address::reply_template;

/// Checks what [`reply_template`] (the reply-address template) and [`imap_watch`] read (with [`Config::validate`] at
/// start-up).
///
/// # Errors
/// [`ConfigError::Reply`] or [`ConfigError::Imap`] saying what is wrong.
pub fn check(config: &Config) -> Result<(), ConfigError> {
    reply_template(config)?;
    imap_watch(config)?;
    handler_settings(config)?;
    Ok(())
}

/// What the handler asks of a reply and how often it answers.
///
/// # Errors
/// [`ConfigError::InboundAuth`] for `TURNPOST_INBOUND_REQUIRE_AUTH=dmarc` without an authserv-id.
pub fn handler_settings(config: &Config) -> Result<HandlerSettings, ConfigError> {
    let sender_auth = match config.inbound_require_auth {
        InboundAuth::None => SenderAuth::None,
        InboundAuth::Dmarc => {
            let authserv_id = config
                .inbound_authserv_id
                .as_deref()
                .map(str::trim)
                .filter(|id| !id.is_empty() && !id.contains(char::is_whitespace))
                .ok_or_else(|| {
                    ConfigError::InboundAuth(
                        "TURNPOST_INBOUND_REQUIRE_AUTH=dmarc needs TURNPOST_INBOUND_AUTHSERV_ID: \
                         the authserv-id of the receiving mail server whose \
                         Authentication-Results headers are trusted (one word, e.g. \
                         mx.example.org)"
                            .to_owned(),
                    )
                })?;
            SenderAuth::Dmarc {
                authserv_id: authserv_id.to_owned(),
            }
        }
    };
    Ok(HandlerSettings {
        answers_per_hour: config.mail_answers_per_hour,
        sender_auth,
        bot_games_cap: crate::games::challenge::BotGamesCap(config.bot_games_per_account),
    })
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

    #[test]
    fn dmarc_needs_a_trusted_authserv_id() {
        let mut config = Config::for_tests(PathBuf::from("/data"));
        assert_eq!(
            handler_settings(&config).map(|s| s.sender_auth).ok(),
            Some(SenderAuth::None)
        );
        config.inbound_require_auth = InboundAuth::Dmarc;
        for missing in [None, Some(""), Some("two words")] {
            config.inbound_authserv_id = missing.map(str::to_owned);
            let error = check(&config)
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(error.contains("TURNPOST_INBOUND_AUTHSERV_ID"), "{error}");
        }
        config.inbound_authserv_id = Some(" mx.example.org ".into());
        assert_eq!(
            handler_settings(&config).map(|s| s.sender_auth).ok(),
            Some(SenderAuth::Dmarc {
                authserv_id: "mx.example.org".into()
            })
        );
        assert_eq!("DMARC".parse::<InboundAuth>(), Ok(InboundAuth::Dmarc));
        assert!("spf".parse::<InboundAuth>().is_err());
    }
}
