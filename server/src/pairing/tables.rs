//! Table rounds (Chinese Checkers, 3 to 6 seats): the players split into tables of about the
//! chosen size, similar scores together, meeting as few earlier opponents as possible.
//!
//! Table sizes: as many tables as it takes to seat everyone at no more than the chosen size,
//! fewer when that would leave a table under 3; sizes differ by at most one, bigger tables
//! first, nobody sits out. Players are read best first (points, then seed); round 1 fills the
//! tables in seed order, later rounds start the same way by score and then swap players
//! between tables while a swap lowers the number of earlier meetings at the tables (first) or
//! the spread of ranks at them (second). Each table's seat 1 goes to whoever has moved first
//! least often, so first moves spread round by round.

use super::entrant::Entrant;
use super::history::History;
use super::ranking::ranked_playing;
use super::round_pairing::Pairing;

/// Improvement passes before the swapping stops (each pass tries every swap once).
const PASSES: usize = 50;

/// The sizes of the tables for `players` (at least 3) at about `seats` a table (3..=6).
pub(super) fn table_sizes(players: usize, seats: u8) -> Vec<usize> {
    let seats = usize::from(seats).clamp(3, 6);
    if players < 3 {
        return Vec::new();
    }
    let count = players.div_ceil(seats).min(players / 3).max(1);
    let base = players / count;
    let extra = players % count;
    (0..count)
        .map(|table| base + usize::from(table < extra))
        .collect()
}

/// The tables of a round for the entrants still playing (at least three).
pub(super) fn pair_tables(
    entrants: &[Entrant],
    history: &History,
    seats: u8,
    round: u32,
) -> Pairing {
    let order = ranked_playing(entrants, &history.points, round);
    // Tables hold positions in `order` (0 = best).
    let mut tables: Vec<Vec<usize>> = Vec::new();
    let mut next = 0;
    for size in table_sizes(order.len(), seats) {
        tables.push((next..next + size).collect());
        next += size;
    }
    let cost = |a: usize, b: usize| (history.met(order[a], order[b]), a.abs_diff(b));
    improve(&mut tables, &cost);
    for table in &mut tables {
        table.sort_unstable();
    }
    tables.sort_by_key(|table| table.first().copied());
    let games = tables
        .into_iter()
        .map(|table| {
            let mut seated: Vec<usize> =
                table.into_iter().map(|position| order[position]).collect();
            // Stable: among equals the better-ranked player keeps the earlier seat.
            seated.sort_by_key(|&entrant| history.first_seats[entrant]);
            seated
        })
        .collect();
    Pairing { games, bye: None }
}

/// Swaps players between tables while a swap lowers the total cost of the pairs seated together
/// (earlier meetings first, rank spread second).
fn improve(tables: &mut [Vec<usize>], cost: &impl Fn(usize, usize) -> (u32, usize)) {
    // The cost of `player` with everyone at `table` but `except`.
    let with = |player: usize, table: &[usize], except: usize| {
        table.iter().filter(|&&other| other != except).fold(
            (0_u64, 0_u64),
            |(met, spread), &other| {
                let (m, s) = cost(player, other);
                (
                    met + u64::from(m),
                    spread + u64::try_from(s).unwrap_or(u64::MAX),
                )
            },
        )
    };
    for _ in 0..PASSES {
        let mut improved = false;
        for first in 0..tables.len() {
            for second in first + 1..tables.len() {
                for i in 0..tables[first].len() {
                    for j in 0..tables[second].len() {
                        let (a, b) = (tables[first][i], tables[second][j]);
                        let before = add(with(a, &tables[first], a), with(b, &tables[second], b));
                        let after = add(with(b, &tables[first], a), with(a, &tables[second], b));
                        if after < before {
                            tables[first][i] = b;
                            tables[second][j] = a;
                            improved = true;
                        }
                    }
                }
            }
        }
        if !improved {
            break;
        }
    }
}

fn add(a: (u64, u64), b: (u64, u64)) -> (u64, u64) {
    (a.0 + b.0, a.1 + b.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_stay_within_three_to_six_and_differ_by_one_at_most() {
        assert_eq!(table_sizes(6, 3), [3, 3]);
        assert_eq!(table_sizes(7, 3), [4, 3]);
        assert_eq!(table_sizes(4, 3), [4]);
        assert_eq!(table_sizes(5, 6), [5]);
        assert_eq!(table_sizes(8, 6), [4, 4]);
        assert_eq!(table_sizes(13, 6), [5, 4, 4]);
        assert_eq!(table_sizes(12, 4), [4, 4, 4]);
        assert!(table_sizes(2, 3).is_empty());
        for players in 3..60 {
            for seats in 3..=6 {
                let sizes = table_sizes(players, seats);
                assert_eq!(sizes.iter().sum::<usize>(), players);
                assert!(
                    sizes.iter().all(|size| (3..=6).contains(size)),
                    "{players}/{seats}: {sizes:?}"
                );
                let (low, high) = (sizes.iter().min(), sizes.iter().max());
                assert!(high.zip(low).is_some_and(|(h, l)| h - l <= 1), "{sizes:?}");
            }
        }
    }
}
