//! Game clocks: deadlines, Fischer banks and vacations. The sweeps (`crate::sweeps`) act on
//! the deadlines kept here.

mod deadline;
mod turn;
pub mod vacation;

pub use deadline::{
    bank_after_move, notices_already_due, spec_of, turn_seconds, DAY_SECONDS, NOTICE_24H,
    NOTICE_2H, NOTICE_CLAIMABLE,
};
pub use turn::{after_move, start, stop};
