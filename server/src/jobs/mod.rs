//! Periodic jobs (reminders, timeouts) arrive with games; the mail worker is in
//! [`crate::mail::worker`]. Jobs run in every instance and must be single-flight through row or
//! advisory locks.
