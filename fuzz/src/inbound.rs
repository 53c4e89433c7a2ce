//! The server's inbound mail reader, built here from its own source files: they depend only on
//! `mail-parser` and `sha2`, so the fuzz build need not compile the whole server (a database,
//! web and TLS stack) for them.

// The server uses more of these modules than the fuzz target does.
#![allow(dead_code, reason = "the server uses parts the fuzz target does not")]

#[path = "../../server/src/inbound/html_text.rs"]
mod html_text;
#[path = "../../server/src/inbound/inbound_message.rs"]
mod inbound_message;
#[path = "../../server/src/inbound/mail_command.rs"]
mod mail_command;
#[path = "../../server/src/reply_address/template.rs"]
mod reply_address;
#[path = "../../server/src/inbound/reply_message.rs"]
mod reply_message;
#[path = "../../server/src/inbound/reply_text.rs"]
mod reply_text;
#[path = "../../server/src/inbound/sender_auth.rs"]
mod sender_auth;

use inbound_message::InboundMessage;
use mail_command::MailCommand;
use reply_address::ReplyAddressTemplate;
use reply_text::written_lines;
use sender_auth::{AuthenticationResults, SenderAuth};

/// Any bytes as an inbound mail, the way the handler reads one: the message, what the player
/// wrote, each line as a command, the lines split into commands and the message sent with the
/// action (then cleaned as every channel cleans one), each recipient against a reply address
/// template. No panic; the lines written are non-empty, trimmed and part of the message's text;
/// the split keeps every line once, in order; a cleaned message has no control character but
/// line breaks and at most 500 characters; a recipient's key
/// builds back to the same address; each `Authentication-Results` header read names its
/// authserv-id, and the DMARC check of the sender answers.
pub fn check_inbound_message(data: &[u8]) {
    let Ok(message) = InboundMessage::read(data) else {
        return;
    };
    let lines = written_lines(&message.text());
    for line in &lines {
        assert!(!line.is_empty(), "an empty written line");
        assert_eq!(line.trim(), line, "a written line is not trimmed");
        let _ = MailCommand::parse(line);
    }
    check_reply_parts(&lines);
    let Ok(template) = ReplyAddressTemplate::parse("games+%{key}@example.org") else {
        panic!("the fixed template is valid");
    };
    for address in message.recipients.iter().chain(message.from.iter()) {
        if let Some(key) = template.key_in(address) {
            assert!(
                template
                    .address_for(&key)
                    .eq_ignore_ascii_case(address.trim()),
                "{address:?} → key {key:?} does not build back"
            );
        }
        let _ = template.is_ours(address);
    }
    for value in &message.authentication_results {
        if let Some(header) = AuthenticationResults::parse(value) {
            assert!(
                !header.authserv_id.is_empty(),
                "{value:?} read without an authserv-id"
            );
        }
    }
    if let Some(from) = &message.from {
        let _ = SenderAuth::Dmarc {
            authserv_id: "mx.example.org".to_owned(),
        }
        .passes(&message.authentication_results, from);
    }
}

/// The split of a reply's lines into commands and the message: nothing lost, nothing made up.
fn check_reply_parts(lines: &[String]) {
    let parts = reply_message::split(lines);
    let message_lines: Vec<&str> = parts
        .message
        .as_deref()
        .map(|m| m.split('\n').collect())
        .unwrap_or_default();
    assert_eq!(
        parts.commands.len() + message_lines.len(),
        lines.len(),
        "the split lost or made up lines"
    );
    match parts.carrier {
        Some(at) => assert!(at < parts.commands.len(), "the carrier is not a command"),
        None => assert!(parts.message.is_none(), "a message without an action"),
    }
    let (mut commands, mut words) = (parts.commands.iter(), message_lines.iter());
    let (mut next_command, mut next_word) = (commands.next(), words.next());
    for line in lines {
        if next_command.is_some_and(|c| c == line) {
            next_command = commands.next();
        } else if next_word.is_some_and(|w| w == line) {
            next_word = words.next();
        } else {
            panic!("{line:?} is out of order in the split");
        }
    }
    if let Some(text) = &parts.message {
        if let Ok(Some(cleaned)) = turnpost_shared::play::clean_message(text) {
            assert!(
                cleaned.chars().count() <= turnpost_shared::play::MAX_MESSAGE_CHARS,
                "a cleaned message is too long"
            );
            assert!(
                cleaned.chars().all(|c| c == '\n' || !c.is_control()),
                "{cleaned:?} keeps a control character"
            );
            assert_eq!(cleaned.trim(), cleaned, "a cleaned message is not trimmed");
        }
    }
}
