//! Mail straight in over LMTP (RFC 2033): `serve` listens on `TURNPOST_LMTP_LISTEN`, and an MTA
//! delivers replies with `lmtp:inet:host:port` — no process per mail, no local user. Each
//! recipient is checked at RCPT (not a reply key of ours: 550 5.1.1, bounced by the MTA at
//! once) and answered after DATA on its own (RFC 2033, 4.2): handled through the same path as
//! `mail-in` ([`crate::inbound::deliver`]: sender checks, exactly once by Message-ID, counted
//! in the database), or 451 4.3.0 when our side failed, so the MTA retries.
//!
//! [`Session`] is the protocol without I/O; [`run`] is the listener around it.

mod data;
mod line;
mod listener;
mod reply;
mod session;

pub use data::{Body, MessageBuffer};
pub use line::{read_line, LineRead};
pub use listener::{run, Lmtp, MAX_CONNECTIONS};
pub use reply::Reply;
pub use session::{delivered, trouble, Action, Limits, Received, Session, Verdict};
