//! What the games before a round say about each entrant: points, who they met, colours, byes
//! and seats. Swiss and table pairings decide from this.

use std::collections::HashMap;

use super::colour::{Colour, ColourHistory};
use super::points::HalfPoints;
use super::tournament_game::TournamentGame;

/// Every entrant's record before one round.
#[derive(Clone, Debug)]
pub(super) struct History {
    /// Points from ended games and byes.
    pub(super) points: Vec<HalfPoints>,
    /// How often each pair (lower index first) sat at one game; sparse, so a big field costs
    /// memory by games played, not by the square of its size.
    met: HashMap<(usize, usize), u32>,
    /// Colours in two-player games, in round order.
    pub(super) colours: Vec<ColourHistory>,
    /// Byes had.
    pub(super) byes: Vec<u32>,
    /// Games in which they had seat 1 (moved first).
    pub(super) first_seats: Vec<u32>,
}

impl History {
    /// The record from the games and byes of rounds before `round`. Entrant indices out of
    /// range are skipped (pairing checks the record first).
    pub(super) fn before(
        entrants: usize,
        games: &[TournamentGame],
        byes: &[(u32, usize)],
        round: u32,
    ) -> Self {
        let mut history = Self {
            points: vec![HalfPoints::default(); entrants],
            met: HashMap::new(),
            colours: vec![ColourHistory::default(); entrants],
            byes: vec![0; entrants],
            first_seats: vec![0; entrants],
        };
        let mut earlier: Vec<&TournamentGame> = games
            .iter()
            .filter(|game| game.round < round && game.seats.iter().all(|&e| e < entrants))
            .collect();
        earlier.sort_by_key(|game| game.round);
        for game in earlier {
            history.add_game(game);
        }
        for &(bye_round, entrant) in byes {
            if bye_round < round && entrant < entrants {
                history.byes[entrant] += 1;
                history.points[entrant] += HalfPoints::WIN;
            }
        }
        history
    }

    fn add_game(&mut self, game: &TournamentGame) {
        for &entrant in &game.seats {
            for &opponent in &game.seats {
                if opponent > entrant {
                    *self.met.entry((entrant, opponent)).or_default() += 1;
                }
            }
        }
        if let Some(&first) = game.seats.first() {
            self.first_seats[first] += 1;
        }
        if let [white, black] = game.seats[..] {
            self.colours[white].colours.push(Colour::White);
            self.colours[black].colours.push(Colour::Black);
        }
        for (entrant, _, result) in game.results() {
            self.points[entrant] += result;
        }
    }

    /// How many times `a` and `b` sat at one game.
    pub(super) fn met(&self, a: usize, b: usize) -> u32 {
        self.met
            .get(&(a.min(b), a.max(b)))
            .copied()
            .unwrap_or_default()
    }
}
