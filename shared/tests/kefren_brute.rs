//! Kefren against a deliberately naive brute force written from the rules text alone (its own
//! board, its own twirl geometry, chains by copying the board): the legal moves agree on every
//! position of random games, and on mid-game positions chosen for captures, chains,
//! must-capture, the no-backward rule and the rank count, whose perft figures are kept in
//! `perft/kefren-midgame.perft` and checked against both.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::collections::BTreeSet;

use turnpost_shared::games::Kefren;
use turnpost_shared::{Game, GameKind, Options};

/// The brute force: nothing here is shared with the engine.
mod brute {
    use std::collections::BTreeSet;

    pub const COLUMNS: i32 = 9;
    pub const ROWS: i32 = 19;

    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Side {
        Black,
        White,
    }

    /// `cells[row - 1][column]`, row 1 at the bottom.
    #[derive(Clone, Debug)]
    pub struct Board {
        pub cells: Vec<Vec<Option<Side>>>,
        pub to_move: Side,
    }

    /// A move: the stone's cell, then every landing cell; `capture` for a chain.
    #[derive(Clone, Debug)]
    pub struct Twirl {
        pub cells: Vec<(i32, i32)>,
        pub capture: bool,
    }

    /// Reads `kefren <rows 19..1> <side>`.
    pub fn read(text: &str) -> Board {
        let mut words = text.split_whitespace();
        assert_eq!(words.next(), Some("kefren"));
        let rows: Vec<&str> = words.next().unwrap().split('/').collect();
        assert_eq!(rows.len(), 19);
        let mut cells = vec![vec![None; 9]; 19];
        for (index, row_text) in rows.iter().enumerate() {
            let row = 18 - index;
            let mut column = 0;
            for c in row_text.chars() {
                match c {
                    'b' => {
                        cells[row][column] = Some(Side::Black);
                        column += 1;
                    }
                    'w' => {
                        cells[row][column] = Some(Side::White);
                        column += 1;
                    }
                    digit => column += digit.to_digit(10).unwrap() as usize,
                }
            }
            assert_eq!(column, 9, "{row_text}");
        }
        let to_move = match words.next() {
            Some("b") => Side::Black,
            Some("w") => Side::White,
            other => panic!("side {other:?}"),
        };
        Board { cells, to_move }
    }

    fn on_board((c, r): (i32, i32)) -> bool {
        (0..COLUMNS).contains(&c) && (1..=ROWS).contains(&r)
    }

    impl Board {
        pub fn at(&self, (c, r): (i32, i32)) -> Option<Side> {
            self.cells[(r - 1) as usize][c as usize]
        }

        fn set(&mut self, (c, r): (i32, i32), value: Option<Side>) {
            self.cells[(r - 1) as usize][c as usize] = value;
        }

        /// Every cell strictly between two cells on one straight line is empty.
        fn clear_between(&self, a: (i32, i32), b: (i32, i32)) -> bool {
            let (dc, dr) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
            let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs());
            (1..steps).all(|k| self.at((a.0 + k * dc, a.1 + k * dr)).is_none())
        }

        /// Every destination a stone of `side` on `s` reaches by one twirl (empty or enemy).
        fn twirls(&self, s: (i32, i32), side: Side) -> BTreeSet<(i32, i32)> {
            let mut out = BTreeSet::new();
            for dc in -1..=1 {
                for dr in -1..=1 {
                    if (dc, dr) == (0, 0) {
                        continue;
                    }
                    let mut n = 1;
                    loop {
                        let p = (s.0 + n * dc, s.1 + n * dr);
                        if !on_board(p) {
                            break;
                        }
                        if let Some(stone) = self.at(p) {
                            if stone == side {
                                let candidates = if dc == 0 || dr == 0 {
                                    let (pc, pr) = (dr, dc);
                                    vec![
                                        (s.0 + n * pc, s.1 + n * pr),
                                        (s.0 - n * pc, s.1 - n * pr),
                                        (p.0 + n * pc, p.1 + n * pr),
                                        (p.0 - n * pc, p.1 - n * pr),
                                    ]
                                } else {
                                    vec![(p.0, s.1), (s.0, p.1)]
                                };
                                for d in candidates {
                                    if on_board(d)
                                        && self.at(d) != Some(side)
                                        && self.clear_between(p, d)
                                        && self.clear_between(s, d)
                                    {
                                        out.insert(d);
                                    }
                                }
                            }
                            break;
                        }
                        n += 1;
                    }
                }
            }
            out
        }

        fn forward_or_level(side: Side, from: (i32, i32), to: (i32, i32)) -> bool {
            match side {
                Side::Black => to.1 >= from.1,
                Side::White => to.1 <= from.1,
            }
        }

        /// Complete capture chains of the stone on `path`'s last cell.
        fn chains(&self, side: Side, path: Vec<(i32, i32)>, out: &mut Vec<Twirl>) {
            let s = *path.last().unwrap();
            let captures: Vec<(i32, i32)> = self
                .twirls(s, side)
                .into_iter()
                .filter(|d| self.at(*d).is_some() && Self::forward_or_level(side, s, *d))
                .collect();
            if captures.is_empty() {
                if path.len() > 1 {
                    out.push(Twirl {
                        cells: path,
                        capture: true,
                    });
                }
                return;
            }
            for d in captures {
                let mut next = self.clone();
                next.set(s, None);
                next.set(d, Some(side));
                let mut longer = path.clone();
                longer.push(d);
                next.chains(side, longer, out);
            }
        }

        fn stones(&self, side: Side) -> Vec<(i32, i32)> {
            let mut out = Vec::new();
            for r in 1..=ROWS {
                for c in 0..COLUMNS {
                    if self.at((c, r)) == Some(side) {
                        out.push((c, r));
                    }
                }
            }
            out
        }

        /// Over by the rank count: only when Black is to move (a White move was the last).
        pub fn decided_by_rank_count(&self) -> bool {
            if self.to_move != Side::Black {
                return false;
            }
            let black = (0..COLUMNS)
                .filter(|c| self.at((*c, ROWS)) == Some(Side::Black))
                .count();
            let white = (0..COLUMNS)
                .filter(|c| self.at((*c, 1)) == Some(Side::White))
                .count();
            black != white
        }

        /// Every legal move, each once.
        pub fn moves(&self) -> Vec<Twirl> {
            if self.decided_by_rank_count() {
                return Vec::new();
            }
            let side = self.to_move;
            let mut captures = Vec::new();
            for s in self.stones(side) {
                self.chains(side, vec![s], &mut captures);
            }
            if !captures.is_empty() {
                return captures;
            }
            let mut quiet = Vec::new();
            for s in self.stones(side) {
                // A twirl onto an enemy is a capture, never a quiet move (a backward one is
                // simply not a move).
                for d in self
                    .twirls(s, side)
                    .into_iter()
                    .filter(|d| self.at(*d).is_none())
                {
                    quiet.push(Twirl {
                        cells: vec![s, d],
                        capture: false,
                    });
                }
            }
            quiet
        }

        pub fn play(&self, twirl: &Twirl) -> Board {
            let mut next = self.clone();
            let side = self.to_move;
            let first = twirl.cells[0];
            next.set(first, None);
            for d in &twirl.cells[1..] {
                next.set(*d, None);
            }
            next.set(*twirl.cells.last().unwrap(), Some(side));
            next.to_move = match side {
                Side::Black => Side::White,
                Side::White => Side::Black,
            };
            next
        }

        pub fn perft(&self, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut seen = BTreeSet::new();
            let mut total = 0;
            for twirl in self.moves() {
                if seen.insert(text(&twirl)) {
                    total += self.play(&twirl).perft(depth - 1);
                }
            }
            total
        }
    }

    fn cell_name((c, r): (i32, i32)) -> String {
        format!("{}{r}", char::from(b'A' + c as u8))
    }

    /// The move as the rules write it: `F3-E4`, `F3:E4:E7`.
    pub fn text(twirl: &Twirl) -> String {
        let separator = if twirl.capture { ":" } else { "-" };
        twirl
            .cells
            .iter()
            .map(|cell| cell_name(*cell))
            .collect::<Vec<_>>()
            .join(separator)
    }

    pub fn move_texts(board: &Board) -> std::collections::BTreeSet<String> {
        board.moves().iter().map(text).collect()
    }
}

fn engine_moves(game: &Kefren) -> BTreeSet<String> {
    game.legal_moves()
        .iter()
        .map(|mv| game.format_move(mv))
        .collect()
}

#[test]
fn legal_moves_agree_with_the_brute_force_on_random_games() {
    let mut random = common::Rng::new(2026);
    let mut positions = 0;
    let mut with_captures = 0;
    let mut with_chains = 0;
    for _ in 0..40 {
        let mut game = Kefren::new(&Options::new()).unwrap();
        for _ in 0..300 {
            let board = brute::read(&game.position_text());
            let expected = brute::move_texts(&board);
            assert_eq!(engine_moves(&game), expected, "{}", game.position_text());
            positions += 1;
            with_captures += usize::from(expected.iter().any(|m| m.contains(':')));
            with_chains += usize::from(expected.iter().any(|m| m.matches(':').count() > 1));
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            game = game.play_move(&moves[random.below(moves.len())]);
        }
    }
    // The games must have reached what the brute force is here to check.
    assert!(positions > 2_000, "{positions}");
    assert!(
        with_captures > 50,
        "{with_captures} positions with captures"
    );
    assert!(with_chains > 5, "{with_chains} positions with chains");
}

#[test]
fn midgame_perft_table_agrees_with_engine_and_brute_force() {
    let text = include_str!("perft/kefren-midgame.perft");
    let cases = common::read_perft_file(text);
    assert!(cases.len() >= 5);
    for case in &cases {
        let position = case.position.as_deref().unwrap();
        let board = brute::read(position);
        for (depth, nodes) in &case.counts {
            assert_eq!(
                board.perft(*depth),
                *nodes,
                "brute force: {} perft {depth}",
                case.id
            );
        }
    }
    let checked = common::check_perft_file(GameKind::Kefren, text, u64::MAX);
    assert_eq!(checked, cases.iter().map(|c| c.counts.len()).sum::<usize>());
}

/// Prints candidate positions for the mid-game table (run by hand with `--ignored
/// --nocapture`); the table's figures come from the brute force.
#[test]
#[ignore = "a tool for choosing the table's positions"]
fn print_midgame_candidates() {
    let mut random = common::Rng::new(2026);
    for game_number in 0..40 {
        let mut game = Kefren::new(&Options::new()).unwrap();
        for ply in 0..300 {
            let board = brute::read(&game.position_text());
            let moves = brute::move_texts(&board);
            let chains = moves.iter().filter(|m| m.matches(':').count() > 1).count();
            let captures = moves.iter().filter(|m| m.contains(':')).count();
            if chains > 0 || (captures > 1 && ply < 40) {
                println!(
                    "game {game_number} ply {ply} captures {captures} chains {chains} perft2 {} perft3 {}: {}",
                    board.perft(2),
                    board.perft(3),
                    game.position_text()
                );
            }
            let legal = game.legal_moves();
            if legal.is_empty() {
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
    for case in common::read_perft_file(include_str!("perft/kefren-midgame.perft")) {
        let board = brute::read(case.position.as_deref().unwrap());
        println!("id {}", case.id);
        for depth in 1..=4 {
            let nodes = board.perft(depth);
            println!("perft {depth} {nodes}");
            if nodes > 20_000 || nodes == 0 {
                break;
            }
        }
    }
}
