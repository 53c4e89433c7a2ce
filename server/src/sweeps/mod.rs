//! Periodic work on clocks, run in every server process and single-flight through locks:
//! reminders before deadlines, losses on time, claim notices, daily digests, and moving
//! tournaments on (`crate::tournaments`). Each round
//! runs in the game frame (`games::frame`): one transaction, and the mail worker woken once
//! after it commits.

mod digest;
mod due_games;
mod reminders;
mod round_ends;
mod single_flight;
mod sweep_round;
mod timeouts;
mod worker;

pub use digest::send_digests;
pub use reminders::send_reminders;
pub use round_ends::{RoundEnds, ROUND_ENDS_CONSUMER};
pub use sweep_round::SweepRound;
pub use timeouts::{announce_claims, end_timed_out};
pub use worker::{sweep_once, SweepReport, SweepWorker};
