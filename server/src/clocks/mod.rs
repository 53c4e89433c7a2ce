//! Game clocks: deadlines, Fischer banks and vacations. The sweeps (`crate::sweeps`) act on
//! the deadlines kept here.

mod deadline;

pub use deadline::{bank_after_move, notices_already_due, spec_of, turn_seconds, DAY_SECONDS};
// The reminders a clock has sent are a column of the game row (`db`).
pub use crate::db::{ClockNotices, UnknownClockNotices};
