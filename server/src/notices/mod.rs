//! Mail decided in one place: game events → recipients (preferences, mutes, digest, time zone)
//! → composers ([`crate::mail::compose`]) → outbox.
//!
//! The game service records a small [`GameEvent`] row in the transaction of each change
//! ([`record`]); the mail worker turns each event into its outbox rows in one transaction
//! ([`compose_next`]), showing the game as it was at the event. The clock sweeps' mail
//! (reminders, claim notices, digests) is composed in the sweep's transaction through the same
//! recipient decision ([`recipient`]); so are the answers to players' mail
//! (`inbound::handler`, not game events), with [`player_decision`] and [`game_facts`].

mod clock_mail;
mod composing;
mod event;
mod facts;
mod game_mail;
mod recipient;

pub use clock_mail::{claimable, digest, reminder};
pub use composing::{compose_next, compose_waiting};
pub use event::{record, to_record, GameEvent};
pub use facts::{game_facts, queue, site};
pub use recipient::{addressee, player_decision, recipient, reply_address, Decision, Delivery};
