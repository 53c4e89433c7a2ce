//! A tournament game as pairing and standings see it: who sat where and, once ended, the places.

use super::points::HalfPoints;

/// One game of a tournament round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// 1-based round.
    pub round: u32,
    /// Entrant indices in seat order; seat 1 moves first ("white").
    pub seats: Vec<usize>,
    /// Each seat's place (1 = first; equal numbers are a shared place), None while running.
    pub placings: Option<Vec<u32>>,
}

impl TournamentGame {
    /// Whether the game has ended (it has placings).
    #[must_use]
    pub fn ended(&self) -> bool {
        self.placings.is_some()
    }

    /// What each seat scored against each other seat: `(entrant, opponent, result)` for every
    /// ordered pair of seats, result 1 for a better place, ½ for the same, 0 for a worse one.
    /// Empty while the game runs or when its placings do not match its seats.
    #[must_use]
    pub fn results(&self) -> Vec<(usize, usize, HalfPoints)> {
        let Some(placings) = &self.placings else {
            return Vec::new();
        };
        if placings.len() != self.seats.len() {
            return Vec::new();
        }
        let mut results = Vec::new();
        for (&entrant, &place) in self.seats.iter().zip(placings) {
            for (&opponent, &their_place) in self.seats.iter().zip(placings) {
                if entrant == opponent {
                    continue;
                }
                let result = match place.cmp(&their_place) {
                    std::cmp::Ordering::Less => HalfPoints::WIN,
                    std::cmp::Ordering::Equal => HalfPoints::DRAW,
                    std::cmp::Ordering::Greater => HalfPoints::LOSS,
                };
                results.push((entrant, opponent, result));
            }
        }
        results
    }
}

/// The points one game of `seats` players hands out in all: k(k−1)/2 whole points.
#[must_use]
pub fn points_per_game(seats: usize) -> HalfPoints {
    let seats = u32::try_from(seats).unwrap_or(u32::MAX);
    HalfPoints(seats.saturating_mul(seats.saturating_sub(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_scores_each_pair_of_seats_by_place() {
        let game = TournamentGame {
            round: 1,
            seats: vec![4, 7, 2],
            placings: Some(vec![2, 1, 2]),
        };
        let mut results = game.results();
        results.sort_unstable();
        assert_eq!(
            results,
            [
                (2, 4, HalfPoints::DRAW),
                (2, 7, HalfPoints::LOSS),
                (4, 2, HalfPoints::DRAW),
                (4, 7, HalfPoints::LOSS),
                (7, 2, HalfPoints::WIN),
                (7, 4, HalfPoints::WIN),
            ]
        );
        let total: HalfPoints = results.iter().map(|&(_, _, result)| result).sum();
        assert_eq!(total, points_per_game(3));
        assert_eq!(points_per_game(2), HalfPoints(2));
        assert_eq!(points_per_game(6), HalfPoints(30));
    }

    #[test]
    fn running_and_malformed_games_score_nothing() {
        let running = TournamentGame {
            round: 1,
            seats: vec![0, 1],
            placings: None,
        };
        assert!(running.results().is_empty());
        let malformed = TournamentGame {
            round: 1,
            seats: vec![0, 1],
            placings: Some(vec![1]),
        };
        assert!(malformed.results().is_empty());
    }
}
