//! Every mail decided in one place: who gets which mail, when, and what it says; then queued
//! in the outbox for `crate::mail` to deliver.
//!
//! - Game events: the game service records a small [`crate::games::GameEvent`] row in the
//!   transaction of each change; the [`Composer`] loop turns each event into its outbox rows in
//!   one transaction ([`compose_waiting`], [`compose_next`]), showing the game as it was at the
//!   event, and wakes delivery.
//! - Clock mail (reminders, claim notices, digests): composed in the sweep's transaction
//!   ([`reminder`], [`claimable`], [`digest`]).
//! - Answers to players' mail replies and their hourly limit: [`answer_reply`], in the reply's
//!   transaction (`crate::inbound`).
//! - Account mail (sign-in codes, sign-up attempts): [`sign_in_code`], [`sign_up_attempt`], in
//!   the account operation's transaction (`crate::accounts`).
//!
//! Every player mail goes through one recipient decision ([`recipient`]: preferences, mutes,
//! digest, time zone); what a mail says is a pure function in [`compose`].

mod account_mail;
mod batch_reads;
mod clock_mail;
pub mod compose;
mod composer;
mod composing;
mod event_batch;
mod facts;
mod game_mail;
mod game_outbox;
mod recipient;
mod reply_answer;
mod time_words;
pub mod tournament_mail;

pub use account_mail::{sign_in_code, sign_in_decoy, sign_up_attempt};
pub use batch_reads::BatchReads;
pub use clock_mail::{claimable, digest, reminder};
pub use composer::{Composer, COMPOSE_BATCH};
pub use composing::{compose_next, compose_overdue, compose_waiting};
pub use event_batch::EventBatch;
pub use facts::{game_facts, queue, site};
pub use game_outbox::GameOutbox;
pub use recipient::{addressee, player_decision, recipient, reply_address, Decision, Delivery};
pub use reply_answer::{answer_reply, ReplyRun};
pub use time_words::{rfc3339_in_words, time_in_words, Reader};
