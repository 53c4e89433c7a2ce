//! The shell's side of the command line, made from its whole definition ([`crate::cli::Cli`]):
//! completion scripts, the man page, and the legal moves the scripts complete.

mod complete_moves;
mod completions;

pub use complete_moves::{run as complete_moves, NAME as COMPLETE_MOVES};
pub use completions::{man, run as completions};
