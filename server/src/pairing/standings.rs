//! Standings: points by placing, Buchholz and Sonneborn–Berger, shared ranks for full ties.

use super::entrant::Entrant;
use super::format::Format;
use super::points::{HalfPoints, QuarterPoints};
use super::record::check_game;
use super::tournament_game::TournamentGame;

/// One entrant's line in the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub entrant: usize,
    /// 1-based; entrants equal on points and every tie-break share a rank.
    pub rank: u32,
    pub points: HalfPoints,
    pub buchholz: HalfPoints,
    pub sonneborn_berger: QuarterPoints,
    pub games_played: u32,
    /// Results against single opponents: a two-player game is one, a table of k seats k−1
    /// (one per other seat), so `points = 2·(wins + byes) + draws` in half points.
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
}

/// Standings after the games that have ended (running games count nothing), best first.
///
/// Order: points, then for a round-robin Sonneborn–Berger before Buchholz (in a complete
/// round-robin Buchholz only mirrors the points), for Swiss and tables Buchholz before
/// Sonneborn–Berger; entrants equal on all three share a rank and are listed by seed, then
/// entry order. Games and byes that [`super::record::check_record`] refuses are skipped.
#[must_use]
pub fn standings(
    format: &Format,
    entrants: &[Entrant],
    games: &[TournamentGame],
    byes: &[(u32, usize)],
) -> Vec<Standing> {
    let count = entrants.len();
    let mut lines: Vec<Standing> = (0..count)
        .map(|entrant| Standing {
            entrant,
            rank: 1,
            points: HalfPoints::default(),
            buchholz: HalfPoints::default(),
            sonneborn_berger: QuarterPoints::default(),
            games_played: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
        })
        .collect();
    let ended: Vec<&TournamentGame> = games
        .iter()
        .filter(|game| game.ended() && check_game(count, game).is_ok())
        .collect();
    // (entrant, opponent, result) for every opponent met in an ended game.
    let results: Vec<(usize, usize, HalfPoints)> =
        ended.iter().flat_map(|game| game.results()).collect();
    for game in &ended {
        for &entrant in &game.seats {
            lines[entrant].games_played += 1;
        }
    }
    for &(entrant, _, result) in &results {
        let line = &mut lines[entrant];
        line.points += result;
        match result {
            HalfPoints::WIN => line.wins += 1,
            HalfPoints::DRAW => line.draws += 1,
            _ => line.losses += 1,
        }
    }
    for &(round, entrant) in byes {
        if round > 0 && entrant < count {
            lines[entrant].points += HalfPoints::WIN;
            lines[entrant].byes += 1;
        }
    }
    let points: Vec<HalfPoints> = lines.iter().map(|line| line.points).collect();
    for &(entrant, opponent, result) in &results {
        lines[entrant].buchholz += points[opponent];
        lines[entrant].sonneborn_berger += result.times(points[opponent]);
    }
    let round_robin = matches!(format, Format::RoundRobin { .. });
    let tie_breaks = |line: &Standing| {
        let (first, second) = if round_robin {
            (
                u64::from(line.sonneborn_berger.0),
                u64::from(line.buchholz.0),
            )
        } else {
            (
                u64::from(line.buchholz.0),
                u64::from(line.sonneborn_berger.0),
            )
        };
        (line.points, first, second)
    };
    lines.sort_by(|a, b| {
        tie_breaks(b).cmp(&tie_breaks(a)).then_with(|| {
            let seed = |line: &Standing| entrants[line.entrant].seed;
            seed(b)
                .total_cmp(&seed(a))
                .then_with(|| a.entrant.cmp(&b.entrant))
        })
    });
    let mut rank = 1;
    for position in 0..lines.len() {
        if position > 0 && tie_breaks(&lines[position]) != tie_breaks(&lines[position - 1]) {
            rank = u32::try_from(position + 1).unwrap_or(u32::MAX);
        }
        lines[position].rank = rank;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(round: u32, seats: &[usize], placings: &[u32]) -> TournamentGame {
        TournamentGame {
            round,
            seats: seats.to_vec(),
            placings: Some(placings.to_vec()),
        }
    }

    fn equal_seeds(count: usize) -> Vec<Entrant> {
        vec![Entrant::playing(1500.0); count]
    }

    /// (entrant, rank, points, Buchholz, Sonneborn–Berger) per line, best first.
    fn table(lines: &[Standing]) -> Vec<(usize, u32, u32, u32, u32)> {
        lines
            .iter()
            .map(|l| {
                (
                    l.entrant,
                    l.rank,
                    l.points.0,
                    l.buchholz.0,
                    l.sonneborn_berger.0,
                )
            })
            .collect()
    }

    /// Five players, two Swiss rounds, computed by hand (A=0 … E=4, half points):
    /// round 1 A beats C, B draws D, E has the bye; round 2 A draws E, B draws C, D has the bye.
    /// Points: A 3, B 2, C 1, D 3, E 3.
    /// Buchholz: A = C 1 + E 3 = 4; B = D 3 + C 1 = 4; C = A 3 + B 2 = 5; D = B 2; E = A 3.
    /// Sonneborn–Berger (quarters): A = 2·1 + 1·3 = 5; B = 1·3 + 1·1 = 4; C = 0·3 + 1·2 = 2;
    /// D = 1·2 = 2; E = 1·3 = 3.
    #[test]
    fn a_swiss_with_byes_matches_the_hand_computed_tie_breaks() {
        let games = [
            game(1, &[0, 2], &[1, 2]),
            game(1, &[1, 3], &[1, 1]),
            game(2, &[4, 0], &[1, 1]),
            game(2, &[1, 2], &[1, 1]),
            // Running: counts nothing.
            TournamentGame {
                round: 3,
                seats: vec![0, 3],
                placings: None,
            },
        ];
        let byes = [(1, 4), (2, 3)];
        let lines = standings(&Format::Swiss { rounds: 3 }, &equal_seeds(5), &games, &byes);
        assert_eq!(
            table(&lines),
            [
                (0, 1, 3, 4, 5),
                (4, 2, 3, 3, 3),
                (3, 3, 3, 2, 2),
                (1, 4, 2, 4, 4),
                (2, 5, 1, 5, 2),
            ]
        );
        // Games played, wins, draws, losses and byes of A (first), D (third) and C (last).
        for (line, record) in [
            (0, (2, 1, 1, 0, 0)),
            (2, (1, 0, 1, 0, 1)),
            (4, (2, 0, 1, 1, 0)),
        ] {
            let l = &lines[line];
            assert_eq!((l.games_played, l.wins, l.draws, l.losses, l.byes), record);
        }
    }

    /// The same games ordered two ways (P=0, Q=1, X=2, Y=3, M=4, N=5, A=6, B=7): X beats P, A
    /// and B; P beats Y; Q beats M; N beats Q; M beats A; A draws B. Half points: X 6; P, Q,
    /// M, N 2; A, B 1; Y 0. Buchholz: P = X 6 + Y 0 = 6; Q = M 2 + N 2 = 4; M = Q 2 + A 1 = 3;
    /// N = Q 2 = 2; A = B 1 + X 6 + M 2 = 9; B = A 1 + X 6 = 7; X = P 2 + A 1 + B 1 = 4.
    /// Sonneborn–Berger (quarters): P = 0·6 + 2·0 = 0; Q = 2·2 + 0·2 = 4; M = 0·2 + 2·1 = 2;
    /// N = 2·2 = 4; A = B = 1·1 = 1; X = 2·2 + 2·1 + 2·1 = 8.
    #[test]
    fn swiss_breaks_ties_by_buchholz_first_and_round_robin_by_sonneborn_berger_first() {
        let games = [
            game(1, &[2, 0], &[1, 2]),
            game(1, &[1, 4], &[1, 2]),
            game(1, &[6, 7], &[1, 1]),
            game(2, &[0, 3], &[1, 2]),
            game(2, &[5, 1], &[1, 2]),
            game(2, &[2, 6], &[1, 2]),
            game(3, &[4, 6], &[1, 2]),
            game(3, &[7, 2], &[2, 1]),
        ];
        let entrants = equal_seeds(8);
        let swiss = standings(&Format::Swiss { rounds: 3 }, &entrants, &games, &[]);
        let order: Vec<usize> = swiss.iter().map(|line| line.entrant).collect();
        assert_eq!(order, [2, 0, 1, 4, 5, 6, 7, 3]);
        let round_robin = standings(
            &Format::RoundRobin { double: false },
            &entrants,
            &games,
            &[],
        );
        let order: Vec<usize> = round_robin.iter().map(|line| line.entrant).collect();
        assert_eq!(order, [2, 1, 5, 4, 0, 6, 7, 3]);
        assert_eq!(
            table(&round_robin)[..5],
            [
                (2, 1, 6, 4, 8),
                (1, 2, 2, 4, 4),
                (5, 3, 2, 2, 4),
                (4, 4, 2, 3, 2),
                (0, 5, 2, 6, 0),
            ]
        );
    }

    #[test]
    fn full_ties_share_a_rank_and_list_by_seed() {
        let entrants = [
            Entrant::playing(1400.0),
            Entrant::playing(1600.0),
            Entrant::playing(1500.0),
        ];
        let games = [
            game(1, &[0, 1], &[1, 1]),
            game(2, &[1, 2], &[1, 1]),
            game(3, &[2, 0], &[1, 1]),
        ];
        let lines = standings(
            &Format::RoundRobin { double: false },
            &entrants,
            &games,
            &[],
        );
        assert_eq!(
            table(&lines),
            [(1, 1, 2, 4, 4), (2, 1, 2, 4, 4), (0, 1, 2, 4, 4)]
        );
        // 0 beats 1; 2 and 3 have not played: they tie below 1 (Buchholz 2) and share rank 3.
        let four = [
            Entrant::playing(1400.0),
            Entrant::playing(1600.0),
            Entrant::playing(1500.0),
            Entrant::playing(1700.0),
        ];
        let after_a_win = [game(1, &[0, 1], &[1, 2])];
        let lines = standings(&Format::Swiss { rounds: 3 }, &four, &after_a_win, &[]);
        let ranks: Vec<(usize, u32)> = lines.iter().map(|l| (l.entrant, l.rank)).collect();
        assert_eq!(ranks, [(0, 1), (1, 2), (3, 3), (2, 3)]);
    }

    /// A Chinese Checkers table of three: first place beats both, two share second.
    #[test]
    fn a_table_scores_by_place() {
        let games = [game(1, &[0, 1, 2], &[2, 1, 2])];
        let lines = standings(
            &Format::Tables {
                seats: 3,
                rounds: 1,
            },
            &equal_seeds(3),
            &games,
            &[],
        );
        // Points: 1 → 4 (beat both); 0 and 2 → 1 (drew each other). Buchholz: 1 → 2;
        // 0 → 4 + 1 = 5. S–B: 1 → 2·1 + 2·1 = 4; 0 → 0·4 + 1·1 = 1.
        assert_eq!(
            table(&lines),
            [(1, 1, 4, 2, 4), (0, 2, 1, 5, 1), (2, 2, 1, 5, 1)]
        );
        assert_eq!((lines[0].wins, lines[0].draws, lines[0].losses), (2, 0, 0));
        assert_eq!((lines[1].wins, lines[1].draws, lines[1].losses), (0, 1, 1));
    }

    #[test]
    fn malformed_games_and_byes_are_skipped() {
        let games = [game(1, &[0, 9], &[1, 2]), game(1, &[0, 1], &[1])];
        let lines = standings(
            &Format::Swiss { rounds: 1 },
            &equal_seeds(2),
            &games,
            &[(1, 7)],
        );
        assert!(lines
            .iter()
            .all(|line| line.points == HalfPoints(0) && line.games_played == 0));
    }
}
