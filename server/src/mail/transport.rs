//! Where mail goes: an SMTP relay (lettre's SMTP client over rustls, one reused connection per
//! worker session, see [`super::relay`]) or `.eml` files in a directory.

use std::path::PathBuf;
use std::time::Duration;

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox, Message, MultiPart, SinglePart};

use super::relay::{RelaySession, SmtpRelay};
use super::send_error::SendError;
use super::StoredParts;
use crate::config::{redact_url, validate_smtp_url, ConfigError};
use crate::db::outbox::OutboxMail;

/// How long the relay may take to answer one command.
const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// A mail transport.
#[derive(Clone)]
pub enum Transport {
    /// An SMTP relay.
    Smtp {
        /// Where and how to reach it.
        relay: SmtpRelay,
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

/// What one worker session keeps between mails: its open SMTP connection.
#[derive(Default)]
pub struct Session {
    relay: RelaySession,
}

/// A session's connection unused this long is closed once the session finds nothing to send.
const CLOSE_AFTER_IDLE: Duration = Duration::from_secs(1);

impl Session {
    /// A session with nothing open yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The session found nothing to send: closes its connection if it has been unused for a
    /// second (kept while mail keeps coming, so a busy queue reuses it).
    pub fn idle(&mut self) {
        self.relay.close_if_idle(CLOSE_AFTER_IDLE);
    }
}

impl Transport {
    /// An SMTP transport from an `SMTP_URL` (checked with [`validate_smtp_url`]).
    ///
    /// # Errors
    /// [`ConfigError::Smtp`] if the URL is refused or cannot be used.
    pub fn smtp(url: &str, allow_plain: bool) -> Result<Self, ConfigError> {
        validate_smtp_url(url, allow_plain)?;
        Ok(Self::Smtp {
            relay: SmtpRelay::from_url(url, SMTP_TIMEOUT)?,
            shown: redact_url(url),
        })
    }

    /// Reaches the relay as for sending, sending nothing (`turnpost-server check`); for
    /// `.eml` files, says where they go.
    ///
    /// # Errors
    /// [`SendError`] naming the SMTP step that failed.
    pub fn check(&self) -> Result<String, SendError> {
        match self {
            Self::Smtp { relay, shown } => relay.check().map(|done| format!("{shown}: {done}")),
            Self::Files(dir) => Ok(format!(
                "no smtp_url: mail is written as .eml files under {}",
                dir.display()
            )),
        }
    }

    /// For the startup line.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            Self::Smtp { shown, .. } => format!("smtp ({shown})"),
            Self::Files(dir) => format!(".eml files in {}", dir.display()),
        }
    }

    /// Delivers one outbox row from `from`, over `session`'s connection when it has one.
    ///
    /// # Errors
    /// [`SendError`]; `permanent` when retrying cannot help.
    pub fn send(
        &self,
        session: &mut Session,
        from: &Mailbox,
        mail: &OutboxMail,
    ) -> Result<(), SendError> {
        let message = build_message(from, mail)?;
        self.deliver(session, mail, &message)
    }

    /// Delivers one outbox row as [`Transport::send`] does, its parts already read from the
    /// row and its picture, when drawn, as `png` (the worker reads and draws them once, and
    /// stores them only should the attempt fail).
    ///
    /// # Errors
    /// [`SendError`]; `permanent` when retrying cannot help.
    pub fn send_with_parts(
        &self,
        session: &mut Session,
        from: &Mailbox,
        mail: &OutboxMail,
        parts: &StoredParts,
        png: Option<&[u8]>,
    ) -> Result<(), SendError> {
        let message = message_with_parts(from, mail, parts, png)?;
        self.deliver(session, mail, &message)
    }

    fn deliver(
        &self,
        session: &mut Session,
        mail: &OutboxMail,
        message: &Message,
    ) -> Result<(), SendError> {
        match self {
            Self::Smtp { relay, .. } => {
                session
                    .relay
                    .send(relay, message.envelope(), &message.formatted())
            }
            Self::Files(dir) => {
                crate::private_files::create_dir(dir).map_err(|e| SendError {
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
                crate::private_files::write_new(&partial, &message.formatted())
                    .and_then(|()| std::fs::rename(&partial, &path))
                    .map_err(|e| SendError {
                        permanent: false,
                        message: format!("cannot write {}: {e}", path.display()),
                    })?;
                tracing::info!(
                    to = %mail.recipient,
                    subject = %loggable_subject(&mail.subject),
                    path = %path.display(),
                    "mail written to file"
                );
                Ok(())
            }
        }
    }
}

/// A subject fit for the log: a sign-in code ("Your turnpost code: K7QX2MRD") never goes to the
/// log, whose lines may travel further than the mail files; the file named beside it holds it.
fn loggable_subject(subject: &str) -> String {
    match subject.split_once("code: ") {
        Some((before, _code)) => format!("{before}code: (see the file)"),
        None => subject.to_string(),
    }
}

/// Builds the full message of an outbox row: the same bytes' worth of content at every attempt
/// (only `Date` and the MIME boundaries differ).
///
/// A row with an HTML part becomes `multipart/alternative` (text, then `multipart/related`
/// with the HTML and its inline PNG); a plain row stays a single `text/plain` part.
///
/// # Errors
/// A permanent [`SendError`] if the stored address or picture is unusable.
pub fn build_message(from: &Mailbox, mail: &OutboxMail) -> Result<Message, SendError> {
    let parts = match &mail.parts {
        Some(json) => StoredParts::from_json(json).map_err(|e| SendError {
            permanent: true,
            message: format!("stored mail parts: {e}"),
        })?,
        None => StoredParts::default(),
    };
    message_with_parts(from, mail, &parts, None)
}

/// The message of `mail` with its `parts` already read; `png`, when given, is its picture
/// (else the stored one, or the SVG drawn now).
///
/// # Errors
/// [`SendError`], `permanent`: an address or a stored part that cannot make a message.
pub fn message_with_parts(
    from: &Mailbox,
    mail: &OutboxMail,
    parts: &StoredParts,
    png: Option<&[u8]>,
) -> Result<Message, SendError> {
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
    if let Some(reply_to) = &parts.reply_to {
        let address: Mailbox = reply_to
            .parse()
            .map_err(|e| permanent(format!("bad reply address: {e}")))?;
        builder = builder.reply_to(address);
    }
    // Every mail is automatic (RFC 3834): autoresponders must not answer it.
    let auto = if parts.auto_replied {
        "auto-replied"
    } else {
        "auto-generated"
    };
    builder = builder.raw_header(raw_header("Auto-Submitted", auto.to_owned())?);
    if let Some(url) = &parts.list_unsubscribe {
        builder = builder
            .raw_header(raw_header("List-Unsubscribe", format!("<{url}>"))?)
            .raw_header(raw_header(
                "List-Unsubscribe-Post",
                "List-Unsubscribe=One-Click".to_owned(),
            )?);
    }
    let built = match &parts.html {
        None => builder
            .header(ContentType::TEXT_PLAIN)
            .body(mail.body_text.clone()),
        Some(html) => {
            let html_part = SinglePart::html(html.clone());
            let image = match png {
                Some(png) => Some(png.to_vec()),
                None => picture_bytes(parts)?,
            };
            let rich = match (image, &parts.image_cid) {
                (Some(bytes), Some(cid)) => {
                    let png_type = ContentType::parse("image/png")
                        .map_err(|e| permanent(format!("content type: {e}")))?;
                    MultiPart::related().singlepart(html_part).singlepart(
                        Attachment::new_inline_with_name(cid.clone(), "board.png".to_owned())
                            .body(bytes, png_type),
                    )
                }
                _ => MultiPart::related().singlepart(html_part),
            };
            builder.multipart(
                MultiPart::alternative()
                    .singlepart(SinglePart::plain(mail.body_text.clone()))
                    .multipart(rich),
            )
        }
    };
    built.map_err(|e| permanent(format!("cannot build the message: {e}")))
}

/// The PNG of a row: as stored, or drawn now from its source when the row was never claimed by a
/// worker (which stores it). A drawing that fails leaves the mail without its picture.
fn picture_bytes(parts: &StoredParts) -> Result<Option<Vec<u8>>, SendError> {
    let stored = parts.image_bytes().map_err(|e| SendError {
        permanent: true,
        message: format!("stored picture: {e}"),
    })?;
    if stored.is_some() {
        return Ok(stored);
    }
    Ok(parts.rasterise().and_then(|drawn| {
        drawn
            .map_err(|error| tracing::warn!(%error, "board picture failed; sent without it"))
            .ok()
            .map(|png| png.bytes)
    }))
}

fn raw_header(name: &str, value: String) -> Result<HeaderValue, SendError> {
    let name = HeaderName::new_from_ascii(name.to_owned()).map_err(|e| SendError {
        permanent: true,
        message: format!("header {name}: {e}"),
    })?;
    Ok(HeaderValue::new(name, value))
}
