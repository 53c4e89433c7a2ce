//! Tournaments on the server (issue 27): round-robin, Swiss and Chinese Checkers table
//! tournaments. An organiser creates one ([`create`]); players enter while its entry window is
//! open ([`join`], [`withdraw`]); the sweeps ([`advance_due`]) start it when the window closes,
//! pair each later round once every game of the round has ended, and finish it after the last.
//! The pairing and the standings come from the pure `crate::pairing` module; every game is a
//! usual game, created started through the game service (`games::arranged`).

mod create;
mod entry;
mod error;
mod field;
mod locked;
mod rounds;
mod settings;
mod start_now;
mod view;

pub use create::{
    create, invitee_keys, MAX_ENTRY_DAYS, MAX_INVITES, MAX_NAME_CHARS, MAX_PLAYERS, MAX_ROUNDS,
};
pub use entry::{join, withdraw};
pub use error::TournamentError;
pub use rounds::{advance, advance_due, Step, BATCH_GAMES};
pub use start_now::start_now;
pub use view::{list, show, TournamentAnswer, LISTED_GAMES, LIST_LIMIT};
