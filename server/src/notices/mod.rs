//! Mail decided in one place: game events → recipients (preferences, mutes, digest, time zone)
//! → composers ([`crate::mail::compose`]) → outbox.
//!
//! The game service records a small [`GameEvent`] row in the transaction of each change
//! ([`record`]); the mail worker turns each event into its outbox rows in one transaction
//! ([`compose_next`]), showing the game as it was at the event. The clock sweeps' mail
//! (reminders, claim notices, digests) is composed in the sweep's transaction through the same
//! recipient decision ([`recipient`]).

mod clock_mail;
mod composing;
mod event;
mod facts;
mod game_mail;
mod recipient;

pub use clock_mail::{claimable, digest, reminder};
pub use composing::{compose_next, compose_waiting};
pub use event::{record, GameEvent};
pub use recipient::{recipient, Decision, Delivery};
