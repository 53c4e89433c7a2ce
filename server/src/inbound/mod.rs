//! Mail in: replies to game mails read into commands. This part is pure (bytes in, values out):
//! reading a message ([`InboundMessage`]), trimming a reply to what the player wrote
//! ([`written_lines`]), reading each line as a command ([`MailCommand`]), and the reply
//! addresses that carry a seat's key ([`ReplyAddressTemplate`]); and the IMAP mailbox watcher
//! that feeds a handler ([`ImapWatch`]). The [`handle`]r checks a reply (key AND sender) and
//! runs its commands through the game service (with `TURNPOST_INBOUND_REQUIRE_AUTH=dmarc`
//! only when a trusted `Authentication-Results` header vouches for the sender,
//! [`SenderAuth`]); a reply to a tournament's announcement runs its `join` or `withdraw`
//! ([`EntryCommand`]) through the tournament service; [`feed`] wires `mail-in` and IMAP to it;
//! [`settings`] reads what mail in needs from the configuration; [`deliver`] is what an MTA's
//! hand-over (`mail-in`, LMTP) runs: handle, then count.

mod delivery;
mod entry_command;
mod entry_reply;
pub mod feed;
mod handler;
mod html_text;
mod imap_mailbox;
mod inbound_message;
mod mail_command;
mod outcome;
mod reply_message;
mod reply_text;
mod sender_auth;
pub mod settings;

pub use delivery::{deliver, outcome_label, recipient_known};
pub use entry_command::EntryCommand;
pub use handler::{handle, handle_for, HandlerSettings};
pub use imap_mailbox::{Handled, ImapError, ImapMailbox, ImapUrlError, ImapWatch};
pub use inbound_message::{Automatic, InboundMessage, ReadError, MAX_MESSAGE_BYTES};
pub use mail_command::MailCommand;
pub use outcome::Outcome;
// Reply addresses are written by the mail decisions too; they live below both.
pub use crate::reply_address::{
    load_secret, EntryHolder, EntryToken, KeyCheck, ReplyAddressTemplate, ReplyKeys, ReplyTarget,
    ReplyToken, SeatHolder, TemplateError, REPLY_KEY_NAME,
};
pub use reply_message::{split as split_reply, ReplyParts};
pub use reply_text::written_lines;
pub use sender_auth::{AuthenticationResults, MethodResult, SenderAuth};
