//! What the bot knows about Kechi: material, mobility (unmarked cells each stone can still land
//! on: a side that cannot make its total loses) and, with tokens, the score; captures first.
//! With `total=die` the roll of every ply is fixed by the game's seed, which players do not
//! know: the bot takes the roll of the turn in progress as given and imagines the later ones
//! (from a seed of its own, see [`BotPolicy::with_imagined_chance`]).

use crate::mcts::{two_player_values, BotPolicy, SeatValues};

use super::bits::Bits;
use super::board::{other, Kechi, WHITE};
use super::geometry::MAX_DISTANCE;
use super::turn::KechiTurn;

impl Kechi {
    /// Landing cells within reach of each stone of `side`, each distance counted up to 3.
    fn mobility(&self, side: usize) -> u32 {
        let board = self.geometry();
        let own = self.side_stones(side);
        let closed = self.marked | own;
        let mut total = 0;
        for stone in own.iter() {
            for distance in 1..=MAX_DISTANCE {
                let open: Bits = board.ring(stone, distance) & !closed;
                total += open.count().min(3);
            }
        }
        total
    }
}

impl BotPolicy for Kechi {
    const PLAYOUT_PLIES: u32 = 2;
    const PRIOR_TEMPERATURE: f64 = 1.0;

    fn evaluate(&self) -> SeatValues {
        let black = other(WHITE);
        let material =
            f64::from(self.side_stones(WHITE).count()) - f64::from(self.side_stones(black).count());
        let mobility = f64::from(self.mobility(WHITE)) - f64::from(self.mobility(black));
        let [white_score, black_score] = self.scores;
        let score = white_score as f64 - black_score as f64;
        two_player_values(1.2 * material + 0.06 * mobility + 0.4 * score)
    }

    fn move_score(&self, turn: &KechiTurn) -> f64 {
        let board = self.geometry();
        let mut score = 0.0;
        for stone in turn.stone_moves() {
            if stone.capture {
                score += 3.0;
            }
            if self.rules.tokens {
                score += 1.0;
            }
            if let Some(to) = board.index_of(stone.to) {
                if board.crossings.contains(to) {
                    score += 0.3;
                }
            }
        }
        score
    }

    fn with_imagined_chance(&self, imagined: u64) -> Kechi {
        let mut view = self.clone();
        if view.rules.die {
            // The turn in progress keeps its roll (`total`); later plies roll from this seed.
            view.rules.seed = Some(imagined);
        }
        view
    }

    fn budget_scale(&self) -> f64 {
        // A Kechi position has up to a thousand turns (many more on bigger boards): each
        // iteration costs several times more.
        match self.rules.lines {
            4 => 0.4,
            5 => 0.25,
            6 => 0.12,
            _ => 0.07,
        }
    }
}
