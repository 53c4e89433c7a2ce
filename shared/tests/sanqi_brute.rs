//! SanQi against a deliberately naive brute force written from the rules text alone (its own
//! cells, neighbours and pattern scan of the whole board after every move): the legal moves
//! agree on every position of random games of each board size, and on mid-game positions
//! chosen for replacements, ko and patterns about to be completed, whose perft figures are kept
//! in `perft/sanqi-midgame.perft` and checked against both.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::collections::BTreeSet;

use turnpost_shared::games::SanQi;
use turnpost_shared::{Game, GameKind, Options};

/// The brute force: nothing here is shared with the engine.
mod brute {
    use std::collections::BTreeMap;

    pub type Cell = (i32, i32);

    #[derive(Clone, Debug)]
    pub struct Board {
        pub side: i32,
        pub stones: BTreeMap<Cell, char>,
        /// 1 or 2.
        pub to_move: u8,
        pub ko: Option<Cell>,
    }

    fn cells(side: i32) -> Vec<Cell> {
        let mut out = Vec::new();
        for letter in 1..2 * side {
            for number in 1..2 * side {
                if (letter - number).abs() < side {
                    out.push((letter, number));
                }
            }
        }
        out
    }

    fn name((letter, number): Cell) -> String {
        format!("{}{number}", char::from(b'a' + (letter - 1) as u8))
    }

    pub fn read(text: &str) -> Board {
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words[0], "sanqi");
        let rows: Vec<&str> = words[1].split('/').collect();
        let side = (rows.len() as i32 + 1) / 2;
        let mut stones = BTreeMap::new();
        for (index, row) in rows.iter().enumerate() {
            let letter = index as i32 + 1;
            let mut number = (letter - side + 1).max(1);
            let mut digits = String::new();
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    number += digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                stones.insert((letter, number), c.to_ascii_uppercase());
                number += 1;
            }
        }
        let ko = match words[3] {
            "-" => None,
            cell => {
                let letter = i32::from(cell.as_bytes()[0] - b'a') + 1;
                Some((letter, cell[1..].parse().unwrap()))
            }
        };
        Board {
            side,
            stones,
            to_move: words[2].parse().unwrap(),
            ko,
        }
    }

    fn exists(side: i32, (letter, number): Cell) -> bool {
        (1..2 * side).contains(&letter)
            && (1..2 * side).contains(&number)
            && (letter - number).abs() < side
    }

    fn neighbours(side: i32, (l, n): Cell) -> Vec<Cell> {
        [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)]
            .iter()
            .map(|(dl, dn)| (l + dl, n + dn))
            .filter(|c| exists(side, *c))
            .collect()
    }

    impl Board {
        fn same(&self, group: &[Cell]) -> bool {
            let Some(first) = group.first().and_then(|c| self.stones.get(c)) else {
                return false;
            };
            group
                .iter()
                .all(|c| exists(self.side, *c) && self.stones.get(c) == Some(first))
        }

        fn circle(&self) -> bool {
            cells(self.side).into_iter().any(|c| {
                let around = neighbours(self.side, c);
                around.len() == 6 && self.same(&around)
            })
        }

        fn line(&self) -> bool {
            cells(self.side).into_iter().any(|(l, n)| {
                [(1, 0), (0, 1), (1, 1)].iter().any(|(dl, dn)| {
                    let run: Vec<Cell> = (0..6).map(|k| (l + k * dl, n + k * dn)).collect();
                    self.same(&run)
                })
            })
        }

        fn triangle(&self) -> bool {
            let shapes = [
                [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)],
                [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)],
            ];
            cells(self.side).into_iter().any(|(l, n)| {
                shapes.iter().any(|shape| {
                    let group: Vec<Cell> = shape.iter().map(|(a, b)| (l + a, n + b)).collect();
                    self.same(&group)
                })
            })
        }

        /// Whether the seat that just moved stands on one of its goals.
        pub fn over(&self) -> bool {
            match self.to_move {
                2 => self.circle() || self.triangle(),
                _ => self.line() || self.triangle(),
            }
        }

        /// Every legal move as `(colour, cell)`.
        pub fn moves(&self) -> Vec<(char, Cell)> {
            if self.over() {
                return Vec::new();
            }
            let mut out = Vec::new();
            for cell in cells(self.side) {
                match self.stones.get(&cell) {
                    None => out.extend(['R', 'B', 'Y'].map(|c| (c, cell))),
                    Some(current) => {
                        if self.ko == Some(cell) {
                            continue;
                        }
                        let around = neighbours(self.side, cell);
                        let count = |colour: char| {
                            around
                                .iter()
                                .filter(|c| self.stones.get(c) == Some(&colour))
                                .count() as i32
                        };
                        for colour in ['R', 'B', 'Y'] {
                            if colour != *current && count(colour) - count(*current) >= 2 {
                                out.push((colour, cell));
                            }
                        }
                    }
                }
            }
            out
        }

        pub fn play(&self, (colour, cell): (char, Cell)) -> Board {
            let mut next = self.clone();
            next.stones.insert(cell, colour);
            next.ko = Some(cell);
            next.to_move = 3 - self.to_move;
            next
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.moves()
                .into_iter()
                .map(|mv| self.play(mv).perft(depth - 1))
                .sum()
        }
    }

    pub fn text((colour, cell): (char, Cell)) -> String {
        format!("{colour}@{}", name(cell))
    }

    pub fn move_texts(board: &Board) -> std::collections::BTreeSet<String> {
        board.moves().into_iter().map(text).collect()
    }
}

fn engine_moves(game: &SanQi) -> BTreeSet<String> {
    game.legal_moves()
        .iter()
        .map(|mv| game.format_move(mv))
        .collect()
}

#[test]
fn legal_moves_agree_with_the_brute_force_on_random_games() {
    let mut random = common::Rng::new(2026);
    let (mut positions, mut with_replacements, mut finished) = (0, 0, 0);
    for side in ["4", "6"] {
        let options = Options::from_pairs([format!("side={side}")]).unwrap();
        for _ in 0..60 {
            let mut game = SanQi::new(&options).unwrap();
            for _ in 0..400 {
                let board = brute::read(&game.position_text());
                let expected = brute::move_texts(&board);
                assert_eq!(engine_moves(&game), expected, "{}", game.position_text());
                positions += 1;
                let occupied = board.stones.len();
                with_replacements +=
                    usize::from(expected.len() > 3 * (brute_cells(board.side) - occupied));
                let moves = game.legal_moves();
                if moves.is_empty() {
                    finished += 1;
                    break;
                }
                game = game.play_move(&moves[random.below(moves.len())]);
            }
        }
    }
    assert!(positions > 3_000, "{positions}");
    assert!(with_replacements > 100, "{with_replacements}");
    assert!(finished > 60, "{finished} games reached their end");
}

fn brute_cells(side: i32) -> usize {
    (3 * side * (side - 1) + 1) as usize
}

#[test]
fn midgame_perft_table_agrees_with_engine_and_brute_force() {
    let text = include_str!("perft/sanqi-midgame.perft");
    let cases = common::read_perft_file(text);
    assert!(cases.len() >= 4);
    for case in &cases {
        let board = brute::read(case.position.as_deref().unwrap());
        for (depth, nodes) in &case.counts {
            assert_eq!(
                board.perft(*depth),
                *nodes,
                "brute force: {} perft {depth}",
                case.id
            );
        }
    }
    let checked = common::check_perft_file(GameKind::SanQi, text, u64::MAX);
    assert_eq!(checked, cases.iter().map(|c| c.counts.len()).sum::<usize>());
}

/// Prints candidate positions and the brute force's figures for them (run by hand with
/// `--ignored --nocapture`).
#[test]
#[ignore = "a tool for choosing the table's positions"]
fn print_midgame_candidates() {
    let mut random = common::Rng::new(99);
    for game_number in 0..20 {
        let mut game = SanQi::new(&Options::new()).unwrap();
        for ply in 0..200 {
            let board = brute::read(&game.position_text());
            let moves = brute::move_texts(&board);
            let empty = brute_cells(board.side) - board.stones.len();
            let replacements = moves.len().saturating_sub(3 * empty);
            if replacements >= 3 && empty <= 12 {
                println!(
                    "game {game_number} ply {ply} replacements {replacements} empty {empty} perft2 {}: {}",
                    board.perft(2),
                    game.position_text()
                );
            }
            let legal = game.legal_moves();
            if legal.is_empty() {
                println!(
                    "game {game_number} ended at ply {ply}: {}",
                    game.position_text()
                );
                break;
            }
            game = game.play_move(&legal[random.below(legal.len())]);
        }
    }
}

/// Prints the brute force's figures for the table's positions (run by hand with `--ignored
/// --nocapture` after adding a position).
#[test]
#[ignore = "a tool for filling in the table's figures"]
fn print_midgame_figures() {
    for case in common::read_perft_file(include_str!("perft/sanqi-midgame.perft")) {
        let board = brute::read(case.position.as_deref().unwrap());
        println!("id {}", case.id);
        for depth in 1..=4 {
            let nodes = board.perft(depth);
            println!("perft {depth} {nodes}");
            if nodes > 30_000 || nodes == 0 {
                break;
            }
        }
    }
}
