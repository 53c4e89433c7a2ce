//! One inbound mail, read from its RFC 5322 bytes: who sent it, to which addresses, in reply to
//! which messages, whether a machine wrote it, and its text (the text/plain part, or the HTML
//! part turned into text; any charset and transfer encoding).
//!
//! Reading takes the header only: the body is decoded when [`InboundMessage::text`] is asked
//! for, which the handler does only once the reply key and the sender have passed, so a mail
//! that is not for a seat costs no body work at all. Each step is linear in the message's size,
//! which is at most [`MAX_MESSAGE_BYTES`]: the work per message is bounded.

use mail_parser::{Address, HeaderValue, MessageParser, PartType};
use sha2::{Digest as _, Sha256};

use super::html_text::html_body_text;

/// The largest message read: a reply with a move is a few kilobytes; anything far larger is
/// not a reply to a turn card.
pub const MAX_MESSAGE_BYTES: usize = 1024 * 1024;

/// Why a message is ignored without an answer: a machine wrote it, and answering could start a
/// mail loop (or feed a bounce back to its sender).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Automatic {
    /// `Auto-Submitted:` other than `no` (RFC 3834).
    AutoSubmitted,
    /// `Precedence: bulk`, `junk`, `list` or `auto_reply`.
    Precedence,
    /// `X-Autoreply` or `X-Autorespond`.
    AutoReplyHeader,
    /// An empty return path (`Return-Path: <>`): a bounce.
    Bounce,
}

/// What the handler needs of one inbound mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InboundMessage {
    /// Its identity for "handled once": the Message-ID, or a SHA-256 of the bytes without one.
    pub id: String,
    /// The `From` address, if there is exactly one: a message from several addresses (or with
    /// several `From` headers) has no one sender to check against the seat's player.
    pub from: Option<String>,
    /// Every address it was sent to (`To`, `Cc`, `Delivered-To`, `X-Original-To`), in order.
    pub recipients: Vec<String>,
    /// The Message-IDs it answers (`In-Reply-To`, then `References`), without angle brackets.
    pub in_reply_to: Vec<String>,
    /// The subject, if any.
    pub subject: Option<String>,
    /// Why no answer may be sent, if a machine wrote it.
    pub automatic: Option<Automatic>,
    /// The values of its `Authentication-Results` headers, top (the last server's) to bottom,
    /// as written: what the receiving servers found of its sender.
    pub authentication_results: Vec<String>,
    /// The whole message, for its body: decoded only when [`InboundMessage::text`] is called.
    raw: Vec<u8>,
}

/// Why bytes are not a message this server reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// Larger than [`MAX_MESSAGE_BYTES`].
    #[error("the message is larger than {} KiB", MAX_MESSAGE_BYTES / 1024)]
    TooLarge,
    /// Not RFC 5322 at all (no header).
    #[error("not an RFC 5322 message: expected header lines, a blank line and a body")]
    NotAMessage,
}

fn addresses(address: Option<&Address<'_>>) -> Vec<String> {
    address
        .map(|address| {
            address
                .iter()
                .filter_map(|addr| addr.address())
                .map(|a| a.trim().to_owned())
                .filter(|a| !a.is_empty())
                .collect()
        })
        .unwrap_or_default()
}

/// The one address of the one `From` header, if that is what the message has.
fn sole_sender(message: &mail_parser::Message<'_>) -> Option<String> {
    if message.header_values("From").count() != 1 {
        return None;
    }
    let mut senders = addresses(message.from()).into_iter();
    match (senders.next(), senders.next()) {
        (Some(sender), None) => Some(sender),
        _ => None,
    }
}

fn message_ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(id) => vec![id.to_string()],
        HeaderValue::TextList(ids) => ids.iter().map(ToString::to_string).collect(),
        _ => Vec::new(),
    }
}

/// A header's text, trimmed and lower case, if present.
fn header_text(message: &mail_parser::Message<'_>, name: &str) -> Option<String> {
    message
        .header_raw(name)
        .map(|raw| raw.trim().to_ascii_lowercase())
}

/// Addresses in a raw header (`Delivered-To`, `X-Original-To`): the text between angle
/// brackets, or the whole value.
fn raw_addresses(message: &mail_parser::Message<'_>, name: &str) -> Vec<String> {
    message
        .header_values(name)
        .filter_map(HeaderValue::as_text)
        .map(|value| {
            let value = value.trim();
            match (value.find('<'), value.rfind('>')) {
                (Some(open), Some(close)) if open < close => {
                    value.get(open + 1..close).unwrap_or(value).to_owned()
                }
                _ => value.to_owned(),
            }
        })
        .filter(|a| a.contains('@'))
        .collect()
}

/// The values of every `Authentication-Results` header, top to bottom, as written.
fn authentication_results(message: &mail_parser::Message<'_>, raw: &[u8]) -> Vec<String> {
    message
        .headers()
        .iter()
        .filter(|header| header.name().eq_ignore_ascii_case("Authentication-Results"))
        .filter_map(|header| {
            let start = usize::try_from(header.offset_start()).ok()?;
            let end = usize::try_from(header.offset_end()).ok()?;
            raw.get(start..end)
        })
        .map(|value| String::from_utf8_lossy(value).into_owned())
        .collect()
}

fn automatic(message: &mail_parser::Message<'_>) -> Option<Automatic> {
    if header_text(message, "Auto-Submitted")
        .is_some_and(|value| value.split(';').next().map(str::trim) != Some("no"))
    {
        return Some(Automatic::AutoSubmitted);
    }
    if header_text(message, "Precedence")
        .is_some_and(|value| matches!(value.as_str(), "bulk" | "junk" | "list" | "auto_reply"))
    {
        return Some(Automatic::Precedence);
    }
    if message.header_raw("X-Autoreply").is_some() || message.header_raw("X-Autorespond").is_some()
    {
        return Some(Automatic::AutoReplyHeader);
    }
    let bounce = message.header_raw("Return-Path").is_some_and(|raw| {
        let path: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
        path.is_empty() || path == "<>"
    });
    bounce.then_some(Automatic::Bounce)
}

/// The text/plain body; or, for a message with HTML only, its HTML without the quoted original
/// (`<blockquote>`, where mail programs put it) turned into text.
fn body_text(message: &mail_parser::Message<'_>) -> String {
    match message.text_part(0).map(|part| &part.body) {
        Some(PartType::Html(html)) => html_body_text(html),
        Some(_) => message
            .body_text(0)
            .map(|text| text.into_owned())
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// `text` with control characters other than line breaks and tabs as U+FFFD: a line is echoed
/// into the answer, which PostgreSQL cannot store with a NUL in it (the message would fail
/// for good, and hold up the mailbox), and which should not carry terminal escapes.
fn without_controls(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() && !matches!(c, '\n' | '\r' | '\t') {
                char::REPLACEMENT_CHARACTER
            } else {
                c
            }
        })
        .collect()
}

impl InboundMessage {
    /// Reads a message's header (the body is left for [`InboundMessage::text`]).
    ///
    /// # Errors
    /// [`ReadError::TooLarge`] past [`MAX_MESSAGE_BYTES`]; [`ReadError::NotAMessage`] for bytes
    /// with no header.
    pub fn read(raw: &[u8]) -> Result<Self, ReadError> {
        if raw.len() > MAX_MESSAGE_BYTES {
            return Err(ReadError::TooLarge);
        }
        let message = MessageParser::default()
            .parse_headers(raw)
            .filter(|m| !m.headers().is_empty())
            .ok_or(ReadError::NotAMessage)?;
        let id = match message
            .message_id()
            .map(str::trim)
            .filter(|id| !id.is_empty())
        {
            Some(id) => id.to_owned(),
            None => {
                let digest = Sha256::digest(raw);
                let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                format!("sha256:{hex}")
            }
        };
        let mut recipients = addresses(message.to());
        recipients.extend(addresses(message.cc()));
        recipients.extend(raw_addresses(&message, "Delivered-To"));
        recipients.extend(raw_addresses(&message, "X-Original-To"));
        let mut in_reply_to = message_ids(message.in_reply_to());
        in_reply_to.extend(message_ids(message.references()));
        Ok(Self {
            id,
            from: sole_sender(&message),
            recipients,
            in_reply_to,
            subject: message.subject().map(str::to_owned),
            automatic: automatic(&message),
            authentication_results: authentication_results(&message, raw),
            raw: raw.to_vec(),
        })
    }

    /// The body as text: the text/plain part, or the HTML part without its quoted original
    /// turned into text; control characters other than line breaks and tabs as U+FFFD.
    /// Decoded on each call, in time linear in the message's size.
    #[must_use]
    pub fn text(&self) -> String {
        MessageParser::default()
            .parse(&self.raw)
            .map(|message| without_controls(&body_text(&message)))
            .unwrap_or_default()
    }
}
