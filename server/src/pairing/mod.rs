//! Tournament pairing and standings, pure: no database, no I/O, no clock. The tournament
//! service stores entrants, games and byes and asks this module for each round's pairing
//! ([`pair_round`]) and for the standings ([`standings`]). The rules and the choices where the
//! issue left room are in `RULES.md` beside this file.

mod berger;
mod colour;
mod entrant;
mod error;
mod format;
mod history;
mod lookahead;
mod pair_round;
mod points;
mod ranking;
mod record;
mod round_pairing;
mod standings;
mod swiss;
mod tables;
mod tournament_game;

pub use entrant::Entrant;
pub use error::PairingError;
pub use format::{round_count, Format, TABLE_SEATS};
pub use pair_round::pair_round;
pub use points::{HalfPoints, QuarterPoints};
pub use record::check_record;
pub use round_pairing::Pairing;
pub use standings::{standings, Standing};
pub use tournament_game::{points_per_game, TournamentGame};

#[cfg(test)]
mod properties;
