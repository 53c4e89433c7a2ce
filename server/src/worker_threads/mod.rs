//! The workers' threads: one at the lowest scheduling priority for the mail composer, delivery
//! and the bots' search, and the catch-up thread at normal priority that works only while mail
//! has waited too long; and the pause between two rounds of a worker's loop.

pub mod idle_priority;
pub mod overdue_catch_up;
pub mod pause;
