//! Where mail goes: an SMTP relay (lettre over rustls) or `.eml` files in a directory.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::header::ContentType;
use lettre::message::{Mailbox, Message};
use lettre::Transport as _;

use crate::config::{redact_url, validate_smtp_url, ConfigError};
use crate::db::models::OutboxMail;

/// A mail transport.
#[derive(Clone)]
pub enum Transport {
    /// An SMTP relay.
    Smtp {
        /// The lettre transport.
        transport: lettre::SmtpTransport,
        /// The URL without its password, for logs.
        shown: String,
    },
    /// `.eml` files in this directory.
    Files(PathBuf),
}

impl std::fmt::Debug for Transport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// A failed delivery.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct SendError {
    /// Retrying cannot help (e.g. the stored address cannot be parsed).
    pub permanent: bool,
    /// What happened, without secrets.
    pub message: String,
}

impl Transport {
    /// An SMTP transport from an `SMTP_URL` (checked with [`validate_smtp_url`]).
    ///
    /// # Errors
    /// [`ConfigError::Smtp`] if the URL is refused or lettre cannot use it.
    pub fn smtp(url: &str, allow_plain: bool) -> Result<Self, ConfigError> {
        validate_smtp_url(url, allow_plain)?;
        let transport = lettre::SmtpTransport::from_url(url)
            .map_err(|e| ConfigError::Smtp(format!("{e} ({})", redact_url(url))))?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        Ok(Self::Smtp {
            transport,
            shown: redact_url(url),
        })
    }

    /// For the startup line.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Smtp { shown, .. } => format!("smtp ({shown})"),
            Self::Files(dir) => format!(".eml files in {}", dir.display()),
        }
    }

    /// Delivers one outbox row from `from`.
    ///
    /// # Errors
    /// [`SendError`]; `permanent` when retrying cannot help.
    pub fn send(&self, from: &Mailbox, mail: &OutboxMail) -> Result<(), SendError> {
        let message = build_message(from, mail)?;
        match self {
            Self::Smtp { transport, .. } => {
                transport.send(&message).map(|_| ()).map_err(|e| SendError {
                    permanent: false,
                    message: format!("SMTP: {e}"),
                })
            }
            Self::Files(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| SendError {
                    permanent: false,
                    message: format!("cannot create {}: {e}", dir.display()),
                })?;
                let path = dir.join(format!(
                    "{}-{:06}.eml",
                    mail.created_at.format("%Y%m%dT%H%M%S"),
                    mail.id
                ));
                // Written aside and renamed, so a reader never sees half a file.
                let partial = path.with_extension("eml.partial");
                std::fs::write(&partial, message.formatted())
                    .and_then(|()| std::fs::rename(&partial, &path))
                    .map_err(|e| SendError {
                        permanent: false,
                        message: format!("cannot write {}: {e}", path.display()),
                    })?;
                tracing::info!(path = %path.display(), "mail written to file");
                Ok(())
            }
        }
    }
}

fn build_message(from: &Mailbox, mail: &OutboxMail) -> Result<Message, SendError> {
    let permanent = |message: String| SendError {
        permanent: true,
        message,
    };
    let to: Mailbox = mail
        .recipient
        .parse()
        .map_err(|e| permanent(format!("bad recipient address: {e}")))?;
    let mut builder = Message::builder()
        .from(from.clone())
        .to(to)
        .subject(mail.subject.clone())
        .message_id(Some(mail.message_id.clone()))
        .date_now();
    if let Some(parent) = &mail.in_reply_to {
        builder = builder
            .in_reply_to(parent.clone())
            .references(parent.clone());
    }
    builder
        .header(ContentType::TEXT_PLAIN)
        .body(mail.body_text.clone())
        .map_err(|e| permanent(format!("cannot build the message: {e}")))
}
