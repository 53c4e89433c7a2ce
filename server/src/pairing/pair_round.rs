//! Pairs one round in any format: checks the input, then hands over to the format's rules.

use super::berger::berger_round;
use super::entrant::Entrant;
use super::error::PairingError;
use super::format::{round_count, Format, TABLE_SEATS};
use super::history::History;
use super::record::check_record;
use super::round_pairing::Pairing;
use super::swiss::pair_swiss;
use super::tables::pair_tables;
use super::tournament_game::TournamentGame;

/// The pairing of `round` (1-based), given every game so far (earlier rounds all ended) and
/// the byes given so far `(round, entrant)`. Round-robin ignores results: it is the Berger
/// table's round for entrants in index order (a withdrawn entrant is still paired; the server
/// scores those games as forfeits; with an odd count one entrant sits out unscored and
/// `bye` stays None). Swiss and Tables leave out entrants whose `left_before_round <= round`
/// and read only games and byes of earlier rounds.
/// # Errors
/// [`PairingError::SeatsOutOfRange`] for a table size outside 3..=6;
/// [`PairingError::TooFewPlayers`] with fewer than two entrants (round-robin), two playing
/// (Swiss) or three playing (tables); [`PairingError::RoundOutOfRange`] for round 0 or past
/// [`round_count`]; the errors of [`check_record`] for a bad game or bye;
/// [`PairingError::NotTwoSeats`] for a Swiss game without two seats;
/// [`PairingError::EarlierRoundRunning`] when a Swiss or table game of an earlier round has not
/// ended.
pub fn pair_round(
    format: &Format,
    entrants: &[Entrant],
    games: &[TournamentGame],
    byes: &[(u32, usize)],
    round: u32,
) -> Result<Pairing, PairingError> {
    if let Format::Tables { seats, .. } = format {
        if !TABLE_SEATS.contains(seats) {
            return Err(PairingError::SeatsOutOfRange { seats: *seats });
        }
    }
    let playing = match format {
        Format::RoundRobin { .. } => entrants.len(),
        Format::Swiss { .. } | Format::Tables { .. } => entrants
            .iter()
            .filter(|entrant| entrant.plays_in(round))
            .count(),
    };
    let needed = format.fewest_players();
    if playing < needed {
        return Err(PairingError::TooFewPlayers {
            format: format.name(),
            needed,
            playing,
        });
    }
    let rounds = round_count(format, entrants.len());
    if round == 0 || round > rounds {
        return Err(PairingError::RoundOutOfRange { round, rounds });
    }
    check_record(entrants.len(), games, byes)?;
    if let Format::Swiss { .. } = format {
        if let Some(game) = games.iter().find(|game| game.seats.len() != 2) {
            return Err(PairingError::NotTwoSeats {
                round: game.round,
                seats: game.seats.len(),
                format: format.name(),
            });
        }
    }
    match format {
        Format::RoundRobin { double } => Ok(Pairing {
            games: berger_round(entrants.len(), *double, round)
                .into_iter()
                .map(|(white, black)| vec![white, black])
                .collect(),
            bye: None,
        }),
        Format::Swiss { rounds } => {
            let history = earlier_rounds(entrants, games, byes, round)?;
            Ok(pair_swiss(entrants, &history, round, *rounds))
        }
        Format::Tables { seats, .. } => {
            let history = earlier_rounds(entrants, games, byes, round)?;
            Ok(pair_tables(entrants, &history, *seats, round))
        }
    }
}

/// The record before `round`, refused while a game of an earlier round still runs.
fn earlier_rounds(
    entrants: &[Entrant],
    games: &[TournamentGame],
    byes: &[(u32, usize)],
    round: u32,
) -> Result<History, PairingError> {
    if let Some(running) = games
        .iter()
        .filter(|game| game.round < round && !game.ended())
        .map(|game| game.round)
        .min()
    {
        return Err(PairingError::EarlierRoundRunning { round, running });
    }
    Ok(History::before(entrants.len(), games, byes, round))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeded(count: usize) -> Vec<Entrant> {
        (0..count)
            .map(|i| Entrant::playing(2000.0 - 100.0 * i as f64))
            .collect()
    }

    fn ended(round: u32, seats: [usize; 2], placings: [u32; 2]) -> TournamentGame {
        TournamentGame {
            round,
            seats: seats.to_vec(),
            placings: Some(placings.to_vec()),
        }
    }

    #[test]
    fn swiss_round_one_pairs_top_half_against_bottom_half_with_alternating_colours() {
        let swiss = Format::Swiss { rounds: 3 };
        let pairing = pair_round(&swiss, &seeded(8), &[], &[], 1);
        assert_eq!(
            pairing,
            Ok(Pairing {
                games: vec![vec![0, 4], vec![5, 1], vec![2, 6], vec![7, 3]],
                bye: None,
            })
        );
        let odd = pair_round(&swiss, &seeded(9), &[], &[], 1);
        assert_eq!(
            odd,
            Ok(Pairing {
                games: vec![vec![0, 4], vec![5, 1], vec![2, 6], vec![7, 3]],
                bye: Some(8),
            })
        );
    }

    /// Round 1: 0 beats 4, 5 beats 1, 2 draws 6, 3 (black) beats 7. Score groups: {0, 3, 5} on
    /// 1 point, {2, 6} on ½, {1, 4, 7} on 0. 0 meets 3 (the bottom half of its group, and their
    /// colours fit: 0 is due black, 3 white), 5 floats down to 2, 6 to 1, and 4 meets 7.
    /// Colours: 5 and 2 both had white; 5 is ranked higher and gets its black. 6 and 1 both had
    /// black; 6 gets white.
    #[test]
    fn swiss_round_two_pairs_score_groups_and_alternates_colours() {
        let games = [
            ended(1, [0, 4], [1, 2]),
            ended(1, [5, 1], [1, 2]),
            ended(1, [2, 6], [1, 1]),
            ended(1, [7, 3], [2, 1]),
        ];
        let pairing = pair_round(&Format::Swiss { rounds: 3 }, &seeded(8), &games, &[], 2);
        assert_eq!(
            pairing,
            Ok(Pairing {
                games: vec![vec![3, 0], vec![2, 5], vec![6, 1], vec![4, 7]],
                bye: None,
            })
        );
    }

    #[test]
    fn swiss_leaves_out_who_has_left_and_gives_the_bye_to_the_lowest_without_one() {
        let mut entrants = seeded(4);
        entrants[1].left_before_round = Some(2);
        let games = [ended(1, [0, 2], [1, 2]), ended(1, [3, 1], [1, 2])];
        // 0 and 3 have a point, 2 has none and no bye: 2 sits out; 0 and 3 meet.
        let pairing = pair_round(&Format::Swiss { rounds: 3 }, &entrants, &games, &[], 2);
        assert_eq!(pairing.map(|p| (p.bye, p.games.len())), Ok((Some(2), 1)));
        // Round 3: 2 has had the bye, so the lowest of the others (on points) sits out.
        let games = [
            ended(1, [0, 2], [1, 2]),
            ended(1, [3, 1], [1, 2]),
            ended(2, [3, 0], [1, 2]),
        ];
        let pairing = pair_round(
            &Format::Swiss { rounds: 3 },
            &entrants,
            &games,
            &[(2, 2)],
            3,
        );
        // Points: 3 → 2, 0 → 1, 2 → 1 (the bye). 0 and 2 tie; 2 has had its bye: 0 sits out.
        assert_eq!(pairing.map(|p| p.bye), Ok(Some(0)));
    }

    #[test]
    fn round_robin_pairs_everyone_even_after_leaving() {
        let mut entrants = seeded(4);
        entrants[3].left_before_round = Some(1);
        let pairing = pair_round(
            &Format::RoundRobin { double: false },
            &entrants,
            &[],
            &[],
            2,
        );
        assert_eq!(
            pairing,
            Ok(Pairing {
                games: vec![vec![3, 2], vec![0, 1]],
                bye: None,
            })
        );
    }

    #[test]
    fn tables_seat_everyone_in_seed_order_first() {
        let pairing = pair_round(
            &Format::Tables {
                seats: 3,
                rounds: 2,
            },
            &seeded(7),
            &[],
            &[],
            1,
        );
        assert_eq!(
            pairing,
            Ok(Pairing {
                games: vec![vec![0, 1, 2, 3], vec![4, 5, 6]],
                bye: None,
            })
        );
    }

    /// Nine players at tables of three can meet all-new opponents in round 2.
    #[test]
    fn tables_meet_new_opponents_when_they_can() {
        let entrants = seeded(9);
        let format = Format::Tables {
            seats: 3,
            rounds: 3,
        };
        let first = pair_round(&format, &entrants, &[], &[], 1).map(|p| p.games);
        assert_eq!(first, Ok(vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7, 8]]));
        let games: Vec<TournamentGame> = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
            .into_iter()
            .map(|seats| TournamentGame {
                round: 1,
                seats: seats.to_vec(),
                // Everyone shares first place, so score order alone would seat them as before.
                placings: Some(vec![1, 1, 1]),
            })
            .collect();
        let second = pair_round(&format, &entrants, &games, &[], 2);
        let Ok(second) = second else {
            panic!("{second:?}");
        };
        for table in &second.games {
            assert_eq!(table.len(), 3);
            for (i, a) in table.iter().enumerate() {
                for b in &table[i + 1..] {
                    assert_ne!(a / 3, b / 3, "{a} and {b} met in round 1: {second:?}");
                }
            }
            // Who moved first in round 1 (0, 3, 6) moves first again only if all at the
            // table did.
            if table.iter().any(|entrant| entrant % 3 != 0) {
                assert_ne!(table[0] % 3, 0, "{second:?}");
            }
        }
    }

    #[test]
    fn bad_requests_are_refused_with_what_was_expected() {
        let swiss = Format::Swiss { rounds: 3 };
        assert_eq!(
            pair_round(&swiss, &seeded(4), &[], &[], 4),
            Err(PairingError::RoundOutOfRange {
                round: 4,
                rounds: 3
            })
        );
        assert_eq!(
            pair_round(&swiss, &seeded(4), &[], &[], 0),
            Err(PairingError::RoundOutOfRange {
                round: 0,
                rounds: 3
            })
        );
        assert_eq!(
            pair_round(&swiss, &seeded(1), &[], &[], 1),
            Err(PairingError::TooFewPlayers {
                format: "Swiss",
                needed: 2,
                playing: 1
            })
        );
        assert_eq!(
            pair_round(
                &Format::Tables {
                    seats: 7,
                    rounds: 1
                },
                &seeded(9),
                &[],
                &[],
                1
            ),
            Err(PairingError::SeatsOutOfRange { seats: 7 })
        );
        assert_eq!(
            pair_round(
                &Format::Tables {
                    seats: 3,
                    rounds: 1
                },
                &seeded(2),
                &[],
                &[],
                1
            ),
            Err(PairingError::TooFewPlayers {
                format: "table",
                needed: 3,
                playing: 2
            })
        );
        let running = TournamentGame {
            round: 1,
            seats: vec![0, 1],
            placings: None,
        };
        assert_eq!(
            pair_round(&swiss, &seeded(4), &[running], &[], 2),
            Err(PairingError::EarlierRoundRunning {
                round: 2,
                running: 1
            })
        );
        let three_seats = TournamentGame {
            round: 1,
            seats: vec![0, 1, 2],
            placings: Some(vec![1, 2, 3]),
        };
        assert_eq!(
            pair_round(&swiss, &seeded(4), &[three_seats], &[], 2),
            Err(PairingError::NotTwoSeats {
                round: 1,
                seats: 3,
                format: "Swiss"
            })
        );
        assert_eq!(
            pair_round(&swiss, &seeded(4), &[ended(1, [0, 4], [1, 2])], &[], 2),
            Err(PairingError::UnknownEntrant {
                round: 1,
                entrant: 4,
                entrants: 4
            })
        );
        let message = pair_round(&swiss, &seeded(4), &[], &[], 5).map_err(|e| e.to_string());
        assert_eq!(
            message,
            Err("round 5 does not exist: this tournament has rounds 1 to 3".to_owned())
        );
    }
}
