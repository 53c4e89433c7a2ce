//! Round-robin rounds from the FIDE Berger tables.
//!
//! Players are numbered 1..=n in entry order (n made even with a dummy whose opponent sits
//! out). Player n stays put; the others rotate. In round r the rotating players are
//! `s_k = ((r−1)·n/2 + k−1) mod (n−1) + 1` for k = 1..n−1; table 1 is `s_1` against n (n has
//! white in even rounds), table k (2 ≤ k ≤ n/2) is `s_k` (white) against `s_{n+1−k}`. That
//! reproduces FIDE's published tables (handbook C.05, annex 1), for example for 6 players
//! round 2: 6–4, 5–3, 1–2. A double round-robin plays the cycle again with colours reversed.

/// The games (white, black) of `round` (1-based) of a round-robin of `players` entrants
/// (indices 0..players). For an odd count the entrant drawn against the dummy sits out.
/// Empty for a round outside the tournament.
pub(super) fn berger_round(players: usize, double: bool, round: u32) -> Vec<(usize, usize)> {
    if players < 2 || round == 0 {
        return Vec::new();
    }
    let table_size = players + players % 2;
    let single_rounds = table_size - 1;
    let Ok(round) = usize::try_from(round) else {
        return Vec::new();
    };
    let (cycle_round, reversed) = if round <= single_rounds {
        (round, false)
    } else if double && round <= 2 * single_rounds {
        (round - single_rounds, true)
    } else {
        return Vec::new();
    };
    let half = table_size / 2;
    // 1-based Berger numbers of the rotating players for this round.
    let rotating: Vec<usize> = (1..table_size)
        .map(|k| ((cycle_round - 1) * half + k - 1) % single_rounds + 1)
        .collect();
    let mut games = Vec::with_capacity(half);
    let first = rotating[0];
    games.push(if cycle_round % 2 == 1 {
        (first, table_size)
    } else {
        (table_size, first)
    });
    for k in 2..=half {
        games.push((rotating[k - 1], rotating[table_size - k]));
    }
    games
        .into_iter()
        // Back to 0-based indices; the dummy (number n+1 for odd n) has index `players`.
        .map(|(white, black)| (white - 1, black - 1))
        .filter(|&(white, black)| white < players && black < players)
        .map(|(white, black)| {
            if reversed {
                (black, white)
            } else {
                (white, black)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round in FIDE's 1-based notation.
    fn numbered(players: usize, double: bool, round: u32) -> Vec<(usize, usize)> {
        berger_round(players, double, round)
            .into_iter()
            .map(|(white, black)| (white + 1, black + 1))
            .collect()
    }

    #[test]
    fn four_and_six_players_follow_the_fide_tables() {
        let tables = [
            (
                4,
                vec![
                    vec![(1, 4), (2, 3)],
                    vec![(4, 3), (1, 2)],
                    vec![(2, 4), (3, 1)],
                ],
            ),
            (
                6,
                vec![
                    vec![(1, 6), (2, 5), (3, 4)],
                    vec![(6, 4), (5, 3), (1, 2)],
                    vec![(2, 6), (3, 1), (4, 5)],
                    vec![(6, 5), (1, 4), (2, 3)],
                    vec![(3, 6), (4, 2), (5, 1)],
                ],
            ),
        ];
        for (players, table) in tables {
            let rounds: Vec<_> = (1..players)
                .map(|round| numbered(players, false, u32::try_from(round).unwrap_or(0)))
                .collect();
            assert_eq!(rounds, table, "{players} players");
            assert!(numbered(players, false, u32::try_from(players).unwrap_or(0)).is_empty());
            assert!(numbered(players, false, 0).is_empty());
        }
    }

    #[test]
    fn five_players_sit_out_against_the_dummy_in_turn() {
        // FIDE's table for 5–6 players with 6 the dummy: its opponent sits out.
        let rounds: Vec<_> = (1..=5).map(|round| numbered(5, false, round)).collect();
        assert_eq!(
            rounds,
            [
                vec![(2, 5), (3, 4)],
                vec![(5, 3), (1, 2)],
                vec![(3, 1), (4, 5)],
                vec![(1, 4), (2, 3)],
                vec![(4, 2), (5, 1)],
            ]
        );
    }

    #[test]
    fn a_double_round_robin_repeats_with_colours_reversed() {
        assert_eq!(numbered(4, true, 4), [(4, 1), (3, 2)]);
        assert_eq!(numbered(4, true, 6), [(4, 2), (1, 3)]);
        assert!(numbered(4, true, 7).is_empty());
        assert!(numbered(4, false, 5).is_empty());
    }
}
