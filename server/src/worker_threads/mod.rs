//! The workers' threads and loops: the loop of a worker fed by the event log; one at the lowest scheduling priority for the mail composer, delivery
//! and the bots' search, and the catch-up thread at normal priority that works only while mail
//! has waited too long; the pause between two rounds of a worker's loop; and the listener that
//! carries commits between the processes of one PostgreSQL database.

pub mod bell_rounds;
pub mod commit_listener;
pub mod idle_priority;
pub mod overdue_catch_up;
pub mod pause;
