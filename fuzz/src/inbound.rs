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
#[path = "../../server/src/inbound/reply_text.rs"]
mod reply_text;

use inbound_message::InboundMessage;
use mail_command::MailCommand;
use reply_address::ReplyAddressTemplate;
use reply_text::written_lines;

/// Any bytes as an inbound mail, the way the handler reads one: the message, what the player
/// wrote, each line as a command, each recipient against a reply address template. No panic;
/// the lines written are non-empty, trimmed and part of the message's text; a recipient's key
/// builds back to the same address.
pub fn check_inbound_message(data: &[u8]) {
    let Ok(message) = InboundMessage::read(data) else {
        return;
    };
    for line in written_lines(&message.text()) {
        assert!(!line.is_empty(), "an empty written line");
        assert_eq!(line.trim(), line, "a written line is not trimmed");
        let _ = MailCommand::parse(&line);
    }
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
}
