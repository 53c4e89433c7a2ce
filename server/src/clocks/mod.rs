//! Game clocks: deadlines, Fischer banks and vacations. The sweeps (`crate::sweeps`) act on
//! the deadlines kept here.

mod deadline;
mod sent_reminders;
mod turn;
pub mod vacation;

pub use deadline::{bank_after_move, notices_already_due, spec_of, turn_seconds, DAY_SECONDS};
pub use sent_reminders::{ClockNotices, UnknownClockNotices};
pub use turn::{after_move, fresh_seat_clock, start, stop};
