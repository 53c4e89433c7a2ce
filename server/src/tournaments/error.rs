//! What the tournament service refuses, and why.

use crate::db::DbError;
use crate::games::GameError;
use crate::pairing::PairingError;

/// A refusal or failure of the tournament service.
#[derive(Debug, thiserror::Error)]
pub enum TournamentError {
    /// No tournament has this id.
    #[error("there is no tournament {id}")]
    NotFound {
        /// The id asked for.
        id: i64,
    },
    /// The settings do not make a tournament (what is wrong, and what would do).
    #[error("{0}")]
    InvalidSettings(String),
    /// The games' settings are refused as a challenge would refuse them.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The entry window has closed (or the tournament is over).
    #[error("tournament {id} takes no more entries: {why}")]
    EntryClosed {
        /// The tournament.
        id: i64,
        /// Why.
        why: String,
    },
    /// As many players as allowed have entered.
    #[error("tournament {id} is full: {max} players have entered")]
    Full {
        /// The tournament.
        id: i64,
        /// Its maximum.
        max: u32,
    },
    /// The caller has entered already.
    #[error("you have entered tournament {id} already")]
    AlreadyEntered {
        /// The tournament.
        id: i64,
    },
    /// The caller is not (or no longer) an entrant.
    #[error("you are not playing in tournament {id}")]
    NotEntered {
        /// The tournament.
        id: i64,
    },
    /// Only the organiser may start the tournament early.
    #[error("only the organiser of tournament {id} may start it")]
    NotOrganiser {
        /// The tournament.
        id: i64,
    },
    /// Fewer players have entered than the tournament needs.
    #[error(
        "tournament {id} cannot start yet: {entered} entered, and it needs at least {minimum}"
    )]
    TooFewToStart {
        /// The tournament.
        id: i64,
        /// Players entered.
        entered: usize,
        /// The least it needs.
        minimum: usize,
    },
    /// A round asked for that has not been paired.
    #[error("tournament {id} has no round {round}: {}", paired_text(*.paired))]
    NoSuchRound {
        /// The tournament.
        id: i64,
        /// The round asked for.
        round: u32,
        /// Rounds paired so far.
        paired: u32,
    },
    /// Built-in bots play challenges, not tournaments.
    #[error("built-in bots do not enter tournaments")]
    BotEntrant,
    /// The pairing module refused a round (a bug, or a field it cannot pair).
    #[error("tournament {id}: round {round} cannot be paired: {source}")]
    Pairing {
        /// The tournament.
        id: i64,
        /// The round.
        round: u32,
        /// Why.
        source: PairingError,
    },
    /// Storage failed.
    #[error(transparent)]
    Storage(#[from] DbError),
}

fn paired_text(paired: u32) -> String {
    match paired {
        0 => "no round paired yet".to_owned(),
        1 => "round 1 paired only".to_owned(),
        n => format!("rounds 1 to {n} paired"),
    }
}

impl From<diesel::result::Error> for TournamentError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Storage(DbError::Query(error))
    }
}
