//! Chinese Checkers against a deliberately naive brute force written from the rules text (and
//! the decisions in `chinese_checkers/RULES.md`) alone: its own holes, points, hop search,
//! target lock, resting rule, swaps and winner check. The legal moves agree on every position of
//! random games of every layout and variant, and mid-game positions chosen for the lock, the
//! resting rule, swaps, long jumps and passes have perft figures kept in
//! `perft/chinese-checkers-midgame.perft`, checked against both.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    reason = "tests"
)]

mod common;

use std::collections::BTreeSet;

use turnpost_shared::games::ChineseCheckers;
use turnpost_shared::{Game, GameKind, Options};

/// The brute force: nothing here is shared with the engine.
mod brute {
    use std::collections::{BTreeMap, BTreeSet};

    /// (row index 0 = A, number).
    pub type Hole = (i32, i32);

    const ROWS: [(i32, i32); 17] = [
        (5, 5),
        (5, 6),
        (5, 7),
        (5, 8),
        (1, 13),
        (2, 13),
        (3, 13),
        (4, 13),
        (5, 13),
        (5, 14),
        (5, 15),
        (5, 16),
        (5, 17),
        (10, 13),
        (11, 13),
        (12, 13),
        (13, 13),
    ];

    const DIRECTIONS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

    fn hole(name: &str) -> Hole {
        let row = i32::from(name.as_bytes()[0] - b'A');
        (row, name[1..].parse().unwrap())
    }

    /// The holes of point k (1 bottom, clockwise), from the rules' table.
    pub fn point(k: u8) -> BTreeSet<Hole> {
        let names: &[&str] = match k {
            1 => &[
                "N10", "N11", "N12", "N13", "O11", "O12", "O13", "P12", "P13", "Q13",
            ],
            2 => &["J5", "K5", "K6", "L5", "L6", "L7", "M5", "M6", "M7", "M8"],
            3 => &["E1", "E2", "E3", "E4", "F2", "F3", "F4", "G3", "G4", "H4"],
            4 => &["A5", "B5", "B6", "C5", "C6", "C7", "D5", "D6", "D7", "D8"],
            5 => &[
                "E10", "E11", "E12", "E13", "F11", "F12", "F13", "G12", "G13", "H13",
            ],
            _ => &[
                "J14", "K14", "K15", "L14", "L15", "L16", "M14", "M15", "M16", "M17",
            ],
        };
        names.iter().map(|n| hole(n)).collect()
    }

    fn opposite(k: u8) -> u8 {
        (k + 2) % 6 + 1
    }

    pub fn exists((row, number): Hole) -> bool {
        ROWS.get(row as usize)
            .is_some_and(|(first, last)| (*first..=*last).contains(&number))
    }

    /// What stands in a hole.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub enum Peg {
        /// A peg of the set that started in this point.
        Set(u8),
        Inert,
    }

    #[derive(Clone, Debug)]
    pub struct Variant {
        /// Each seat's sets (start points), in turn order.
        pub seats: Vec<Vec<u8>>,
        pub long_jumps: bool,
        pub anti_spoiling: String,
        pub players: usize,
    }

    impl Variant {
        pub fn from_options(options: &[(String, String)]) -> Variant {
            let get = |key: &str, default: &str| {
                options
                    .iter()
                    .find(|(k, _)| k == key)
                    .map_or(default.to_string(), |(_, v)| v.clone())
            };
            let players: usize = get("players", "2").parse().unwrap();
            let sets: usize = get("sets", "1").parse().unwrap();
            let seats = match (players, sets) {
                (2, 3) => vec![vec![1, 3, 5], vec![2, 4, 6]],
                (3, 2) => vec![vec![1, 2], vec![3, 4], vec![5, 6]],
                (2, _) => vec![vec![1], vec![4]],
                (3, _) => vec![vec![1], vec![3], vec![5]],
                (4, _) => vec![vec![1], vec![3], vec![4], vec![6]],
                _ => (1..=6).map(|k| vec![k]).collect(),
            };
            Variant {
                seats,
                long_jumps: get("jumps", "short") == "long",
                anti_spoiling: get("anti-spoiling", "parlett"),
                players,
            }
        }

        fn seat_of_set(&self, set: u8) -> Option<usize> {
            self.seats.iter().position(|sets| sets.contains(&set))
        }

        /// The points that are the start or target of some set of `seat`.
        fn own_points(&self, seat: usize) -> BTreeSet<u8> {
            self.seats[seat]
                .iter()
                .flat_map(|s| [*s, opposite(*s)])
                .collect()
        }

        fn used_points(&self) -> BTreeSet<u8> {
            (0..self.seats.len())
                .flat_map(|seat| self.own_points(seat))
                .collect()
        }
    }

    #[derive(Clone, Debug)]
    pub struct Board {
        pub pegs: BTreeMap<Hole, Peg>,
        /// 0-based seat to move.
        pub to_move: usize,
    }

    pub fn read(text: &str) -> Board {
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words[0], "chinese-checkers");
        let rows: Vec<&str> = words[1].split('/').collect();
        assert_eq!(rows.len(), 17);
        let mut pegs = BTreeMap::new();
        for (row, text) in rows.iter().enumerate() {
            let first = ROWS[row].0;
            for (offset, c) in text.chars().enumerate() {
                let at = (row as i32, first + offset as i32);
                match c {
                    '.' => {}
                    'x' => {
                        pegs.insert(at, Peg::Inert);
                    }
                    digit => {
                        pegs.insert(at, Peg::Set(digit.to_digit(10).unwrap() as u8));
                    }
                }
            }
        }
        Board {
            pegs,
            to_move: words[2].parse::<usize>().unwrap() - 1,
        }
    }

    /// The far corner of point k.
    pub fn tip(k: u8) -> Hole {
        hole(["Q13", "M5", "E1", "A5", "E13", "M17"][usize::from(k - 1)])
    }

    /// Steps between two holes.
    pub fn distance(a: Hole, b: Hole) -> i32 {
        let (dr, dn) = (b.0 - a.0, b.1 - a.1);
        if dr.signum() * dn.signum() >= 0 {
            dr.abs().max(dn.abs())
        } else {
            dr.abs() + dn.abs()
        }
    }

    pub fn name((row, number): Hole) -> String {
        format!("{}{number}", char::from(b'A' + row as u8))
    }

    impl Board {
        fn set_home(&self, variant: &Variant, set: u8) -> bool {
            let target = point(opposite(set));
            let full = target.iter().all(|h| self.pegs.contains_key(h));
            let own = target
                .iter()
                .filter(|h| self.pegs.get(h) == Some(&Peg::Set(set)))
                .count();
            full && match variant.anti_spoiling.as_str() {
                "parlett" => own >= 1,
                _ => own == target.len(),
            }
        }

        fn seat_home(&self, variant: &Variant, seat: usize) -> bool {
            variant.seats[seat]
                .iter()
                .all(|set| self.set_home(variant, *set))
        }

        /// Whether a seat has won: looked for in turn order from the seat that moved last.
        pub fn over(&self, variant: &Variant) -> bool {
            let n = variant.seats.len();
            let last = (self.to_move + n - 1) % n;
            (0..n).any(|i| self.seat_home(variant, (last + i) % n))
        }

        /// Landing holes of one hop from `from` (the moving peg's start `start` counts as
        /// empty), with the hole beyond holding nothing, or — for a swap — whatever is there.
        fn hops(&self, variant: &Variant, start: Hole, from: Hole) -> Vec<Hole> {
            let occupied = |h: Hole| h != start && self.pegs.contains_key(&h);
            let mut out = Vec::new();
            for (dr, dn) in DIRECTIONS {
                let max_k = if variant.long_jumps { 16 } else { 1 };
                for k in 1..=max_k {
                    let over = (from.0 + k * dr, from.1 + k * dn);
                    if !exists(over) {
                        break;
                    }
                    if !occupied(over) {
                        continue;
                    }
                    // The first peg on the line, at distance k: the rest must be clear.
                    let clear = (k + 1..2 * k).all(|j| {
                        let h = (from.0 + j * dr, from.1 + j * dn);
                        exists(h) && !occupied(h)
                    });
                    let land = (from.0 + 2 * k * dr, from.1 + 2 * k * dn);
                    if clear && exists(land) {
                        out.push(land);
                    }
                    break;
                }
            }
            out
        }

        /// Every legal (source, final) move of the seat to move; `None` for a forced pass.
        pub fn moves(&self, variant: &Variant) -> Vec<Option<(Hole, Hole)>> {
            if self.over(variant) {
                return Vec::new();
            }
            let seat = self.to_move;
            let mut out: BTreeSet<(Hole, Hole)> = BTreeSet::new();
            let used = variant.used_points();
            let own = variant.own_points(seat);
            let resting_forbidden = |h: Hole| {
                variant.players >= 3
                    && (1..=6u8)
                        .any(|k| used.contains(&k) && !own.contains(&k) && point(k).contains(&h))
            };
            for (&start, peg) in &self.pegs {
                let Peg::Set(set) = *peg else { continue };
                if variant.seat_of_set(set) != Some(seat) {
                    continue;
                }
                let target = point(opposite(set));
                let locked = |from: Hole, to: Hole| !target.contains(&from) || target.contains(&to);
                let empty = |h: Hole| h == start || !self.pegs.contains_key(&h);
                let swappable = |h: Hole| {
                    variant.anti_spoiling == "swap"
                        && target.contains(&h)
                        && matches!(self.pegs.get(&h), Some(Peg::Set(other))
                            if variant.seat_of_set(*other) != Some(seat))
                };
                let target_full = target.iter().all(|h| self.pegs.contains_key(h));
                let mut finals: BTreeSet<Hole> = BTreeSet::new();
                // Steps.
                for (dr, dn) in DIRECTIONS {
                    let to = (start.0 + dr, start.1 + dn);
                    if !exists(to) || !locked(start, to) {
                        continue;
                    }
                    if (empty(to) && to != start) || (target_full && swappable(to)) {
                        finals.insert(to);
                    }
                }
                // Hop chains: every hole reachable by ordinary hops (no hole twice, never the
                // start), then a last swapping hop from the start or any landing.
                let mut reached: BTreeSet<Hole> = BTreeSet::new();
                let mut frontier = vec![start];
                let mut from_holes = vec![start];
                while let Some(from) = frontier.pop() {
                    for land in self.hops(variant, start, from) {
                        if !locked(from, land) || land == start {
                            continue;
                        }
                        if empty(land) && reached.insert(land) {
                            frontier.push(land);
                            from_holes.push(land);
                        }
                    }
                }
                finals.extend(reached.iter().copied());
                if target_full {
                    for from in from_holes {
                        for land in self.hops(variant, start, from) {
                            if locked(from, land) && swappable(land) {
                                finals.insert(land);
                            }
                        }
                    }
                }
                for to in finals {
                    let swap = self.pegs.contains_key(&to) && to != start;
                    if !swap && resting_forbidden(to) {
                        continue;
                    }
                    out.insert((start, to));
                }
            }
            if out.is_empty() {
                vec![None]
            } else {
                out.into_iter().map(Some).collect()
            }
        }

        pub fn play(&self, variant: &Variant, mv: Option<(Hole, Hole)>) -> Board {
            let mut next = self.clone();
            if let Some((from, to)) = mv {
                let moving = next.pegs.remove(&from).unwrap();
                if let Some(other) = next.pegs.insert(to, moving) {
                    next.pegs.insert(from, other);
                }
            }
            next.to_move = (self.to_move + 1) % variant.seats.len();
            next
        }

        pub fn perft(&self, variant: &Variant, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            self.moves(variant)
                .into_iter()
                .map(|mv| self.play(variant, mv).perft(variant, depth - 1))
                .sum()
        }
    }

    pub fn text(mv: Option<(Hole, Hole)>) -> String {
        match mv {
            None => "pass".to_string(),
            Some((from, to)) => format!("{}-{}", name(from), name(to)),
        }
    }

    pub fn move_texts(board: &Board, variant: &Variant) -> BTreeSet<String> {
        board.moves(variant).into_iter().map(text).collect()
    }
}

fn engine_moves(game: &ChineseCheckers) -> BTreeSet<String> {
    game.legal_moves()
        .iter()
        .map(|mv| game.format_move(mv))
        .collect()
}

fn pairs(options: &[&str]) -> Vec<(String, String)> {
    options
        .iter()
        .map(|o| {
            let (k, v) = o.split_once('=').unwrap();
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// The variants the random games are played in: every layout, long jumps, each anti-spoiling
/// rule and filled unused points.
const VARIANTS: &[&[&str]] = &[
    &[],
    &["jumps=long"],
    &["anti-spoiling=swap"],
    &["anti-spoiling=none"],
    &["unused=filled"],
    &["players=3"],
    &["players=3", "anti-spoiling=swap", "jumps=long"],
    &["players=4"],
    &["players=4", "unused=filled"],
    &["players=6"],
    &["players=6", "anti-spoiling=swap"],
    &["players=2", "sets=3"],
    &["players=3", "sets=2"],
];

/// Picks a move: three times in four the one that brings its peg nearest its target's tip
/// (ties by chance), else any. Games then reach their crowded end — targets filling, the lock,
/// resting and swaps — within a few hundred moves.
fn pick(
    game: &ChineseCheckers,
    board: &brute::Board,
    variant: &brute::Variant,
    random: &mut common::Rng,
) -> Option<<ChineseCheckers as Game>::Move> {
    let moves = board.moves(variant);
    if moves.is_empty() {
        return None;
    }
    let chosen = if random.below(4) == 0 {
        moves[random.below(moves.len())]
    } else {
        let gain = |mv: &Option<(brute::Hole, brute::Hole)>| match mv {
            None => 0,
            Some((from, to)) => {
                let Some(brute::Peg::Set(set)) = board.pegs.get(from) else {
                    return 0;
                };
                let tip = brute::tip((*set + 2) % 6 + 1);
                brute::distance(*from, tip) - brute::distance(*to, tip)
            }
        };
        let best = moves.iter().map(gain).max().unwrap_or(0);
        let top: Vec<_> = moves.iter().filter(|mv| gain(mv) == best).collect();
        *top[random.below(top.len())]
    };
    Some(game.resolve_text(&brute::text(chosen)).unwrap())
}

#[test]
fn legal_moves_agree_with_the_brute_force_on_random_games() {
    let mut random = common::Rng::new(2026);
    let mut positions = 0;
    let mut finished = 0;
    for options in VARIANTS {
        let variant = brute::Variant::from_options(&pairs(options));
        for _ in 0..3 {
            let mut game =
                ChineseCheckers::new(&Options::from_pairs(options.iter()).unwrap()).unwrap();
            for _ in 0..250 {
                let board = brute::read(&game.position_text());
                let expected = brute::move_texts(&board, &variant);
                assert_eq!(
                    engine_moves(&game),
                    expected,
                    "{options:?}: {}",
                    game.position_text()
                );
                positions += 1;
                finished += usize::from(expected.is_empty());
                let Some(mv) = pick(&game, &board, &variant, &mut random) else {
                    break;
                };
                game = game.play_move(&mv);
            }
        }
    }
    assert!(positions > 5_000, "{positions}");
    // Games reach their end, so the crowded targets (lock, resting, swaps) were checked.
    assert!(finished > 10, "{finished} games finished");
}

#[test]
fn midgame_perft_table_agrees_with_engine_and_brute_force() {
    let text = include_str!("perft/chinese-checkers-midgame.perft");
    let cases = common::read_perft_file(text);
    assert!(cases.len() >= 5);
    for case in &cases {
        let variant = brute::Variant::from_options(&pairs(
            &case.options.iter().map(String::as_str).collect::<Vec<_>>(),
        ));
        let board = brute::read(case.position.as_deref().unwrap());
        for (depth, nodes) in &case.counts {
            assert_eq!(
                board.perft(&variant, *depth),
                *nodes,
                "brute force: {} perft {depth}",
                case.id
            );
        }
    }
    let checked = common::check_perft_file(GameKind::ChineseCheckers, text, u64::MAX);
    assert_eq!(checked, cases.iter().map(|c| c.counts.len()).sum::<usize>());
}

/// Prints the brute force's figures for the table's positions (run by hand with `--ignored
/// --nocapture` after adding a position).
#[test]
#[ignore = "a tool for filling in the table's figures"]
fn print_midgame_figures() {
    for case in common::read_perft_file(include_str!("perft/chinese-checkers-midgame.perft")) {
        let variant = brute::Variant::from_options(&pairs(
            &case.options.iter().map(String::as_str).collect::<Vec<_>>(),
        ));
        let board = brute::read(case.position.as_deref().unwrap());
        println!("id {}", case.id);
        let moves = brute::move_texts(&board, &variant);
        println!("# moves {moves:?}");
        for depth in 1..=3 {
            let nodes = board.perft(&variant, depth);
            println!("perft {depth} {nodes}");
            if nodes > 50_000 {
                break;
            }
        }
    }
}

/// Prints late positions of greedy games (run by hand with `--ignored --nocapture`).
#[test]
#[ignore = "a tool for choosing the table's positions"]
fn print_midgame_candidates() {
    let mut random = common::Rng::new(5);
    for options in [
        &["anti-spoiling=swap"][..],
        &["players=3"],
        &["jumps=long"],
        &["players=6", "anti-spoiling=swap"],
        &[],
    ] {
        let variant = brute::Variant::from_options(&pairs(options));
        let mut game = ChineseCheckers::new(&Options::from_pairs(options.iter()).unwrap()).unwrap();
        for ply in 0..400 {
            let board = brute::read(&game.position_text());
            if ply % 15 == 0 && ply >= 30 {
                println!(
                    "{options:?} ply {ply} perft2 {}: {}",
                    board.perft(&variant, 2),
                    game.position_text()
                );
            }
            let Some(mv) = pick(&game, &board, &variant, &mut random) else {
                println!("{options:?} ended at ply {ply}: {}", game.position_text());
                break;
            };
            game = game.play_move(&mv);
        }
    }
}
