//! Game-playing helpers for the game tests: accounts with tokens made directly in the database
//! (the operator path, no mail round trip), and a deterministic move policy that finishes games
//! in a reasonable number of plies.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "test helpers"
)]

use std::collections::HashMap;

use turnpost_server::db::Pool;
use turnpost_shared::render::{CellContent, PieceColour};
use turnpost_shared::{AnyGame, GameKind};

/// Verified accounts `prefix1..=prefixN` with fresh tokens, in that order: (name, token).
pub fn numbered_players(pool: &Pool, prefix: &str, n: usize) -> Vec<(String, String)> {
    (1..=n)
        .map(|i| {
            let name = format!("{prefix}{i}");
            let token = player(pool, &name);
            (name, token)
        })
        .collect()
}

/// A verified account `name` with a fresh token; returns the token.
pub fn player(pool: &Pool, name: &str) -> String {
    let mut conn = pool.get().unwrap();
    let account = turnpost_server::validate::account_name(name).unwrap();
    let email = turnpost_server::validate::email(&format!("{name}@example.org")).unwrap();
    let (secret, _, _) =
        turnpost_server::accounts::create_verified(&mut conn, &account, &email, "test").unwrap();
    secret
}

/// Picks moves: greedy progress towards the goal (Kefren: the far row; Chinese Checkers: the
/// opposite point), with a seeded random choice among the best and an occasional random move.
pub struct Policy {
    targets: HashMap<PieceColour, (f64, f64)>,
    places: HashMap<String, (f64, f64)>,
    rng: u64,
}

impl Policy {
    /// A policy for games starting at `start`.
    pub fn new(start: &AnyGame, seed: u64) -> Self {
        let view = start.board_view();
        let places: HashMap<String, (f64, f64)> = view
            .cells
            .iter()
            .map(|c| {
                (
                    c.name.to_ascii_uppercase(),
                    (f64::from(c.x) * 0.5, f64::from(c.y) * 0.866),
                )
            })
            .collect();
        let n = places.len() as f64;
        let centre = places
            .values()
            .fold((0.0, 0.0), |(x, y), (a, b)| (x + a / n, y + b / n));
        let mut sums: HashMap<PieceColour, (f64, f64, f64)> = HashMap::new();
        for cell in &view.cells {
            if let CellContent::Piece { colour, .. } = cell.content {
                let (x, y) = places[&cell.name.to_ascii_uppercase()];
                let e = sums.entry(colour).or_default();
                *e = (e.0 + x, e.1 + y, e.2 + 1.0);
            }
        }
        let targets = sums
            .into_iter()
            .map(|(colour, (x, y, k))| (colour, (2.0 * centre.0 - x / k, 2.0 * centre.1 - y / k)))
            .collect();
        Self {
            targets,
            places,
            rng: seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1),
        }
    }

    fn next(&mut self) -> u64 {
        self.rng = self
            .rng
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.rng >> 33
    }

    fn pick(&mut self, best: &[String]) -> String {
        let i = (self.next() % best.len() as u64) as usize;
        best[i].clone()
    }

    /// The move to play in `game` (which must be ongoing).
    pub fn choose(&mut self, game: &AnyGame) -> String {
        let moves = game.legal_moves();
        assert!(!moves.is_empty(), "no legal move in an ongoing game");
        if self.next() % 10 == 0 {
            return self.pick(&moves);
        }
        let scored: Vec<(f64, String)> = match game.kind() {
            GameKind::Kefren => {
                let up = game.status().to_move().map(|s| s.number()) == Some(1);
                moves
                    .iter()
                    .map(|m| {
                        let row: f64 = m
                            .rsplit(|c: char| !c.is_ascii_alphanumeric())
                            .next()
                            .and_then(|cell| {
                                cell.trim_start_matches(|c: char| c.is_ascii_alphabetic())
                                    .parse()
                                    .ok()
                            })
                            .unwrap_or(0.0);
                        (if up { row } else { -row }, m.clone())
                    })
                    .collect()
            }
            GameKind::ChineseCheckers => {
                let view = game.board_view();
                let colour_at: HashMap<String, PieceColour> = view
                    .cells
                    .iter()
                    .filter_map(|c| match c.content {
                        CellContent::Piece { colour, .. } => {
                            Some((c.name.to_ascii_uppercase(), colour))
                        }
                        _ => None,
                    })
                    .collect();
                moves
                    .iter()
                    .map(|m| {
                        let cells: Vec<String> = m
                            .split('-')
                            .map(|c| c.trim().to_ascii_uppercase())
                            .collect();
                        let score = match (cells.first(), cells.last()) {
                            (Some(from), Some(to)) if cells.len() >= 2 => {
                                let target = colour_at
                                    .get(from)
                                    .and_then(|c| self.targets.get(c))
                                    .copied()
                                    .unwrap_or((0.0, 0.0));
                                let d = |cell: &String| {
                                    let (x, y) =
                                        self.places.get(cell).copied().unwrap_or((0.0, 0.0));
                                    ((x - target.0).powi(2) + (y - target.1).powi(2)).sqrt()
                                };
                                // Progress, then prefer moving the rearmost peg.
                                (d(from) - d(to)) * 100.0 + d(from)
                            }
                            _ => -1.0e9,
                        };
                        (score, m.clone())
                    })
                    .collect()
            }
            _ => moves.iter().map(|m| (0.0, m.clone())).collect(),
        };
        let top = scored.iter().map(|(s, _)| *s).fold(f64::MIN, f64::max);
        let best: Vec<String> = scored
            .into_iter()
            .filter(|(s, _)| (*s - top).abs() < 1e-6)
            .map(|(_, m)| m)
            .collect();
        self.pick(&best)
    }
}

/// Plays `start` to the end with the policy alone (no server); returns the moves.
pub fn simulate(start: &AnyGame, seed: u64, cap: usize) -> Vec<String> {
    let mut policy = Policy::new(start, seed);
    let mut game = start.clone();
    let mut moves = Vec::new();
    while !game.status().is_over() && moves.len() < cap {
        let m = policy.choose(&game);
        game = game.play(&m).unwrap().0;
        moves.push(m);
    }
    moves
}
