//! Property tests: random tournaments of every format, random results (shared places
//! included) and random withdrawals, paired round by round to the end, each round checked.

use proptest::prelude::*;

use super::entrant::Entrant;
use super::error::PairingError;
use super::format::{round_count, Format};
use super::pair_round::pair_round;
use super::round_pairing::Pairing;
use super::standings::standings;
use super::tournament_game::{points_per_game, TournamentGame};

/// splitmix64: results from one proptest-drawn seed, so a failing case shrinks to its seed.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: u32) -> u32 {
        u32::try_from(self.next() % u64::from(bound)).unwrap_or(0)
    }

    /// Random places for `seats` seats, 1..=seats, ties allowed (two seats: win, draw, loss).
    fn placings(&mut self, seats: usize) -> Vec<u32> {
        if seats == 2 {
            return match self.below(3) {
                0 => vec![1, 2],
                1 => vec![1, 1],
                _ => vec![2, 1],
            };
        }
        let most = u32::try_from(seats).unwrap_or(1);
        (0..seats).map(|_| 1 + self.below(most)).collect()
    }
}

fn entrants(count: usize, dice: &mut Dice, leaving: &[(usize, u32)]) -> Vec<Entrant> {
    let mut entrants: Vec<Entrant> = (0..count)
        // Few distinct seeds, so equal seeds (entry order) happen too.
        .map(|_| Entrant::playing(1200.0 + 100.0 * f64::from(dice.below(8))))
        .collect();
    for &(entrant, round) in leaving {
        if let Some(entrant) = entrants.get_mut(entrant) {
            entrant.left_before_round = Some(round);
        }
    }
    entrants
}

/// A finished tournament: every round's pairing, then the games and byes with results.
struct Played {
    rounds: Vec<Pairing>,
    games: Vec<TournamentGame>,
    byes: Vec<(u32, usize)>,
}

/// Plays `format` to its end (or until too few are left), calling `check` with each round's
/// pairing and the record before it.
fn play(
    format: &Format,
    entrants: &[Entrant],
    dice: &mut Dice,
    mut check: impl FnMut(u32, &Pairing, &[TournamentGame], &[(u32, usize)]),
) -> Played {
    let mut played = Played {
        rounds: Vec::new(),
        games: Vec::new(),
        byes: Vec::new(),
    };
    for round in 1..=round_count(format, entrants.len()) {
        let pairing = match pair_round(format, entrants, &played.games, &played.byes, round) {
            Ok(pairing) => pairing,
            Err(PairingError::TooFewPlayers { .. }) => {
                let playing = entrants.iter().filter(|e| e.plays_in(round)).count();
                assert!(
                    playing < format.fewest_players(),
                    "{round}: {playing} playing"
                );
                break;
            }
            Err(error) => panic!("round {round}: {error}"),
        };
        check(round, &pairing, &played.games, &played.byes);
        for seats in &pairing.games {
            played.games.push(TournamentGame {
                round,
                seats: seats.clone(),
                placings: Some(dice.placings(seats.len())),
            });
        }
        if let Some(bye) = pairing.bye {
            played.byes.push((round, bye));
        }
        played.rounds.push(pairing);
    }
    played
}

/// Standings' points add up to what the games and byes handed out; each line adds up too.
fn check_standings(format: &Format, entrants: &[Entrant], played: &Played) {
    let lines = standings(format, entrants, &played.games, &played.byes);
    assert_eq!(lines.len(), entrants.len());
    let handed_out: u32 = played
        .games
        .iter()
        .map(|game| points_per_game(game.seats.len()).0)
        .sum::<u32>()
        + 2 * u32::try_from(played.byes.len()).unwrap_or(0);
    let total: u32 = lines.iter().map(|line| line.points.0).sum();
    assert_eq!(total, handed_out);
    let mut seen = vec![false; entrants.len()];
    for (position, line) in lines.iter().enumerate() {
        seen[line.entrant] = true;
        assert_eq!(
            line.points.0,
            2 * (line.wins + line.byes) + line.draws,
            "{line:?}"
        );
        let games = played
            .games
            .iter()
            .filter(|g| g.seats.contains(&line.entrant))
            .count();
        assert_eq!(line.games_played as usize, games);
        if position == 0 {
            assert_eq!(line.rank, 1);
        } else {
            let before = &lines[position - 1];
            assert!(before.points >= line.points);
            assert!(line.rank == before.rank || line.rank as usize == position + 1);
        }
    }
    assert!(seen.iter().all(|&s| s));
}

/// Everyone playing `round` sits exactly once (at a game or out on the bye); nobody else does.
fn check_seated_once(entrants: &[Entrant], round: u32, pairing: &Pairing) {
    let mut times = vec![0; entrants.len()];
    for &entrant in pairing.games.iter().flatten().chain(&pairing.bye) {
        times[entrant] += 1;
    }
    for (entrant, &count) in times.iter().enumerate() {
        let expected = usize::from(entrants[entrant].plays_in(round));
        assert_eq!(
            count, expected,
            "entrant {entrant} in round {round}: {pairing:?}"
        );
    }
}

/// How often each pair met and each player's colour difference, from `games`.
fn meetings_and_colours(count: usize, games: &[TournamentGame]) -> (Vec<Vec<u32>>, Vec<i32>) {
    let mut met = vec![vec![0; count]; count];
    let mut difference = vec![0; count];
    for game in games {
        if let [white, black] = game.seats[..] {
            met[white][black] += 1;
            met[black][white] += 1;
            difference[white] += 1;
            difference[black] -= 1;
        }
    }
    (met, difference)
}

/// Whether `players` can be paired without a repeat and within the colour difference limit.
fn clean_pairing_exists(players: &mut Vec<usize>, met: &[Vec<u32>], difference: &[i32]) -> bool {
    let Some(first) = players.pop() else {
        return true;
    };
    for i in 0..players.len() {
        let other = players[i];
        let (a, b) = (difference[first], difference[other]);
        let colours_fit = (a <= 1 && b >= -1) || (a >= -1 && b <= 1);
        if met[first][other] == 0 && colours_fit {
            players.remove(i);
            let found = clean_pairing_exists(players, met, difference);
            players.insert(i, other);
            if found {
                players.push(first);
                return true;
            }
        }
    }
    players.push(first);
    false
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn round_robins_pair_every_pair_once_or_twice_with_balanced_colours(
        count in 2_usize..=11,
        double in any::<bool>(),
        seed in any::<u64>(),
        leaving in proptest::collection::vec((0_usize..11, 1_u32..8), 0..3),
    ) {
        let mut dice = Dice(seed);
        let entrants = entrants(count, &mut dice, &leaving);
        let format = Format::RoundRobin { double };
        let played = play(&format, &entrants, &mut dice, |round, pairing, _, _| {
            // Withdrawn entrants are still paired: everyone plays, one sits out if odd.
            let mut times = vec![0; count];
            for seats in &pairing.games {
                assert_eq!(seats.len(), 2);
                for &entrant in seats {
                    times[entrant] += 1;
                }
            }
            assert!(times.iter().all(|&t| t <= 1), "round {round}: {pairing:?}");
            assert_eq!(times.iter().filter(|&&t| t == 0).count(), count % 2);
            assert_eq!(pairing.bye, None);
        });
        let single = if count % 2 == 0 { count - 1 } else { count };
        prop_assert_eq!(played.rounds.len(), if double { 2 * single } else { single });
        let mut white_black = vec![vec![0; count]; count];
        let mut difference = vec![0_i32; count];
        for game in &played.games {
            white_black[game.seats[0]][game.seats[1]] += 1;
            difference[game.seats[0]] += 1;
            difference[game.seats[1]] -= 1;
        }
        let as_white = |white: usize, black: usize| white_black[white][black];
        for (a, &difference) in difference.iter().enumerate() {
            for b in (0..count).filter(|&b| b != a) {
                if double {
                    // Each pair plays once with each colour.
                    prop_assert_eq!(as_white(a, b), 1, "{} against {}", a, b);
                } else {
                    prop_assert_eq!(as_white(a, b) + as_white(b, a), 1, "{} against {}", a, b);
                }
            }
            if double {
                prop_assert_eq!(difference, 0);
            } else {
                prop_assert!(difference.abs() <= 1, "entrant {} has difference {}", a, difference);
            }
        }
        check_standings(&format, &entrants, &played);
    }

    #[test]
    fn swiss_pairs_everyone_once_without_avoidable_repeats_second_byes_or_colour_excess(
        count in 2_usize..=14,
        rounds in 1_u32..=9,
        seed in any::<u64>(),
        leaving in proptest::collection::vec((0_usize..14, 2_u32..9), 0..3),
    ) {
        let mut dice = Dice(seed);
        let entrants = entrants(count, &mut dice, &leaving);
        let rounds = rounds.min(u32::try_from(count.max(2) - 1).unwrap_or(1));
        let format = Format::Swiss { rounds };
        let played = play(&format, &entrants, &mut dice, |round, pairing, games, byes| {
            check_seated_once(&entrants, round, pairing);
            let playing: Vec<usize> = (0..count).filter(|&i| entrants[i].plays_in(round)).collect();
            assert_eq!(pairing.bye.is_some(), playing.len() % 2 == 1, "{pairing:?}");
            assert!(pairing.games.iter().all(|seats| seats.len() == 2));
            let had_bye = |entrant: usize| byes.iter().any(|&(_, e)| e == entrant);
            if let Some(bye) = pairing.bye {
                if had_bye(bye) {
                    assert!(playing.iter().all(|&e| had_bye(e)), "second bye to {bye}: {byes:?}");
                }
            }
            let (met, difference) = meetings_and_colours(count, games);
            let repeats = pairing.games.iter().filter(|seats| met[seats[0]][seats[1]] > 0).count();
            if repeats > 0 {
                // Repeats only when no pairing (bye to someone without one, if anyone) avoids them.
                let pool: Vec<usize> = if playing.len() % 2 == 0 {
                    vec![usize::MAX]
                } else if playing.iter().any(|&e| !had_bye(e)) {
                    playing.iter().copied().filter(|&e| !had_bye(e)).collect()
                } else {
                    playing.clone()
                };
                let avoidable = pool.iter().any(|&bye| {
                    let mut rest: Vec<usize> = playing.iter().copied().filter(|&e| e != bye).collect();
                    clean_pairing_exists(&mut rest, &met, &difference)
                });
                assert!(!avoidable, "round {round}: {repeats} avoidable repeats in {pairing:?}");
            }
            let nobody_left = entrants.iter().all(|e| e.plays_in(round));
            if nobody_left {
                let mut after = difference.clone();
                for seats in &pairing.games {
                    after[seats[0]] += 1;
                    after[seats[1]] -= 1;
                }
                assert!(after.iter().all(|d| d.abs() <= 2), "round {round}: {after:?} after {pairing:?}");
            }
        });
        check_standings(&format, &entrants, &played);
    }

    #[test]
    fn table_rounds_seat_everyone_once_at_tables_of_three_to_six(
        count in 3_usize..=22,
        seats in 3_u8..=6,
        rounds in 1_u32..=5,
        seed in any::<u64>(),
        leaving in proptest::collection::vec((0_usize..22, 2_u32..6), 0..4),
    ) {
        let mut dice = Dice(seed);
        let entrants = entrants(count, &mut dice, &leaving);
        let format = Format::Tables { seats, rounds };
        let played = play(&format, &entrants, &mut dice, |round, pairing, games, _| {
            check_seated_once(&entrants, round, pairing);
            assert_eq!(pairing.bye, None);
            // Seat 1 (moves first) goes to whoever at the table has moved first least often.
            let first_moves = |entrant: usize| games.iter().filter(|g| g.seats[0] == entrant).count();
            for table in &pairing.games {
                let least = table.iter().map(|&e| first_moves(e)).min();
                assert_eq!(Some(first_moves(table[0])), least, "round {round}: {table:?}");
            }
            let sizes: Vec<usize> = pairing.games.iter().map(Vec::len).collect();
            assert!(sizes.iter().all(|size| (3..=6).contains(size)), "{sizes:?}");
            let (low, high) = (sizes.iter().min(), sizes.iter().max());
            assert!(low.zip(high).is_some_and(|(l, h)| h - l <= 1), "{sizes:?}");
            assert!(sizes.iter().all(|&size| size <= usize::from(seats)) || sizes.len() == 1
                || sizes.iter().sum::<usize>() < 3 * sizes.len().saturating_add(1),
                "tables bigger than {seats} though more tables fit: {sizes:?}");
        });
        check_standings(&format, &entrants, &played);
    }
}

/// The brief's check: a Swiss of n−1 rounds for an even n (as long as a round-robin) never
/// repeats a pairing. Not guaranteed in general (the forced last rounds can clash with the
/// colour limit, which ranks higher; see RULES.md), but the look-ahead keeps it for up to 8
/// players: fixed seeds, so the test is repeatable.
#[test]
fn full_length_swiss_of_up_to_eight_players_never_repeats() {
    for count in [4_usize, 6, 8] {
        for seed in 0..300_u64 {
            let mut dice = Dice(seed.wrapping_mul(7919).wrapping_add(count as u64));
            let entrants = entrants(count, &mut dice, &[]);
            let rounds = u32::try_from(count - 1).unwrap_or(1);
            let played = play(
                &Format::Swiss { rounds },
                &entrants,
                &mut dice,
                |round, pairing, games, _| {
                    let (met, _) = meetings_and_colours(count, games);
                    for seats in &pairing.games {
                        assert_eq!(
                            met[seats[0]][seats[1]], 0,
                            "{count} players, seed {seed}, round {round}: {pairing:?}"
                        );
                    }
                },
            );
            assert_eq!(played.rounds.len(), count - 1);
        }
    }
}

/// Round 2 of a table tournament meets only new opponents whenever there are at least as many
/// round-1 tables as seats at a table (so each new table can take one player from each):
/// fixed seeds, random round-1 places.
#[test]
fn table_round_two_meets_only_new_opponents_when_the_field_allows() {
    for (count, seats) in [(9_usize, 3_u8), (12, 3), (16, 4), (20, 4), (25, 5), (36, 6)] {
        for seed in 0..40_u64 {
            let mut dice = Dice(seed + 1000 * count as u64);
            let entrants = entrants(count, &mut dice, &[]);
            let format = Format::Tables { seats, rounds: 2 };
            play(&format, &entrants, &mut dice, |round, pairing, games, _| {
                let met = |a: &usize, b: &usize| {
                    games
                        .iter()
                        .any(|g| g.seats.contains(a) && g.seats.contains(b))
                };
                for table in pairing.games.iter().filter(|_| round == 2) {
                    for (i, a) in table.iter().enumerate() {
                        for b in &table[i + 1..] {
                            assert!(!met(a, b), "{count}/{seats} seed {seed}: {a} and {b} again");
                        }
                    }
                }
            });
        }
    }
}
