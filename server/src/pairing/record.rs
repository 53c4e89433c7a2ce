//! Checks that the games and byes handed to pairing and standings make sense together.

use super::error::PairingError;
use super::tournament_game::TournamentGame;

/// Checks every game and bye against `entrants` (the number of entrants): rounds from 1,
/// entrant indices in range, nobody seated twice at one game, one placing per seat.
/// [`super::standings::standings`] skips what this refuses; call it first to report bad input.
/// # Errors
/// [`PairingError::RoundZero`], [`PairingError::UnknownEntrant`], [`PairingError::SeatedTwice`]
/// or [`PairingError::PlacingsDoNotMatchSeats`] for the first bad game or bye.
pub fn check_record(
    entrants: usize,
    games: &[TournamentGame],
    byes: &[(u32, usize)],
) -> Result<(), PairingError> {
    for game in games {
        check_game(entrants, game)?;
    }
    for &(round, entrant) in byes {
        if round == 0 {
            return Err(PairingError::RoundZero);
        }
        if entrant >= entrants {
            return Err(PairingError::UnknownEntrant {
                round,
                entrant,
                entrants,
            });
        }
    }
    Ok(())
}

/// [`check_record`] for one game.
/// # Errors
/// As [`check_record`].
pub(super) fn check_game(entrants: usize, game: &TournamentGame) -> Result<(), PairingError> {
    let round = game.round;
    if round == 0 {
        return Err(PairingError::RoundZero);
    }
    for (seat, &entrant) in game.seats.iter().enumerate() {
        if entrant >= entrants {
            return Err(PairingError::UnknownEntrant {
                round,
                entrant,
                entrants,
            });
        }
        if game.seats[..seat].contains(&entrant) {
            return Err(PairingError::SeatedTwice { round, entrant });
        }
    }
    if let Some(placings) = &game.placings {
        if placings.len() != game.seats.len() {
            return Err(PairingError::PlacingsDoNotMatchSeats {
                round,
                seats: game.seats.len(),
                placings: placings.len(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u32, seats: &[usize], placings: Option<&[u32]>) -> TournamentGame {
        TournamentGame {
            round,
            seats: seats.to_vec(),
            placings: placings.map(<[u32]>::to_vec),
        }
    }

    #[test]
    fn bad_games_and_byes_are_named() {
        assert_eq!(
            check_record(3, &[game(1, &[0, 1], Some(&[1, 2]))], &[(1, 2)]),
            Ok(())
        );
        assert_eq!(
            check_record(3, &[game(2, &[0, 3], None)], &[]),
            Err(PairingError::UnknownEntrant {
                round: 2,
                entrant: 3,
                entrants: 3
            })
        );
        assert_eq!(
            check_record(3, &[game(1, &[1, 1], None)], &[]),
            Err(PairingError::SeatedTwice {
                round: 1,
                entrant: 1
            })
        );
        assert_eq!(
            check_record(3, &[game(1, &[0, 1], Some(&[1]))], &[]),
            Err(PairingError::PlacingsDoNotMatchSeats {
                round: 1,
                seats: 2,
                placings: 1
            })
        );
        assert_eq!(
            check_record(3, &[game(0, &[0, 1], None)], &[]),
            Err(PairingError::RoundZero)
        );
        assert_eq!(
            check_record(3, &[], &[(4, 5)]),
            Err(PairingError::UnknownEntrant {
                round: 4,
                entrant: 5,
                entrants: 3
            })
        );
        let message = check_record(3, &[game(2, &[0, 3], None)], &[])
            .err()
            .map(|error| error.to_string());
        assert_eq!(
            message.as_deref(),
            Some("round 2 names entrant 3, but there are only 3 entrants")
        );
    }
}
