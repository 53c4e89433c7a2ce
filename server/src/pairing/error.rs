//! Why a round cannot be paired: each names what was expected and where.

/// A refusal of [`super::pair_round::pair_round`] or [`super::record::check_record`].
#[derive(Clone, Debug, thiserror::Error, PartialEq, Eq)]
pub enum PairingError {
    /// The round is 0 or past the tournament's last round.
    #[error("round {round} does not exist: this tournament has rounds 1 to {rounds}")]
    RoundOutOfRange { round: u32, rounds: u32 },
    /// Fewer players than the format can pair (still playing, for Swiss and table rounds).
    #[error("a {format} round needs at least {needed} players, but {playing} are playing")]
    TooFewPlayers {
        format: &'static str,
        needed: usize,
        playing: usize,
    },
    /// A table tournament's table size outside 3..=6.
    #[error("a table tournament seats 3 to 6 players a table, not {seats}")]
    SeatsOutOfRange { seats: u8 },
    /// A game or bye names an entrant index past the end of the entrants.
    #[error("round {round} names entrant {entrant}, but there are only {entrants} entrants")]
    UnknownEntrant {
        round: u32,
        entrant: usize,
        entrants: usize,
    },
    /// A game seats one entrant twice.
    #[error("a game of round {round} seats entrant {entrant} twice")]
    SeatedTwice { round: u32, entrant: usize },
    /// A game's placings are not one per seat.
    #[error("a game of round {round} has {seats} seats but {placings} placings")]
    PlacingsDoNotMatchSeats {
        round: u32,
        seats: usize,
        placings: usize,
    },
    /// A game of a two-player format that does not have two seats.
    #[error("a game of round {round} has {seats} seats, but a {format} game has 2")]
    NotTwoSeats {
        round: u32,
        seats: usize,
        format: &'static str,
    },
    /// A game or bye with round 0 (rounds are 1-based).
    #[error("a game or bye has round 0, but rounds count from 1")]
    RoundZero,
    /// Swiss and table rounds pair by the results so far, so every earlier game must have ended.
    #[error("round {round} cannot be paired yet: a game of round {running} is still running")]
    EarlierRoundRunning { round: u32, running: u32 },
}
