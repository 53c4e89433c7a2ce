//! Kechi against its rules file (the rules specification, as read in `src/<game>/RULES.md`): the
//! published opening and endgame, the reference figures, every refused turn, the variants, notation
//! and position text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashSet;

use turnpost_shared::games::{Kechi, KechiIllegal};
use turnpost_shared::{AnyGame, Game, GameKind, Options, Seat, Status};

fn kechi(options: &[&str]) -> Kechi {
    Kechi::new(&Options::from_pairs(options).unwrap()).unwrap()
}

fn options(pairs: &[&str]) -> Options {
    Options::from_pairs(pairs).unwrap()
}

/// A position text built by hand from cell lists (independently of the engine's printer).
struct Setup<'a> {
    lines: usize,
    white: &'a [&'a str],
    black: &'a [&'a str],
    marked: &'a [&'a str],
    tail: &'a str,
}

impl Setup<'_> {
    fn text(&self) -> String {
        let size = 4 * (self.lines - 1) + 1;
        let mut rows = Vec::new();
        for row in (1..=size).rev() {
            let mut text = String::new();
            for column in 0..size {
                if (row - 1) % 4 != 0 && column % 4 != 0 {
                    continue;
                }
                let name = format!("{}{row}", char::from(b'a' + column as u8));
                let has = |list: &[&str]| list.contains(&name.as_str());
                text.push(if has(self.white) {
                    'w'
                } else if has(self.black) {
                    'b'
                } else if has(self.marked) {
                    'x'
                } else {
                    '.'
                });
            }
            rows.push(text);
        }
        format!("kechi {} {}", rows.join("/"), self.tail)
    }
}

const ENDGAME_MARKS: &[&str] = &[
    "a13", "e13", "g13", "h13", "m13", "i12", "i11", "c9", "j9", "k9", "a7", "e7", "m7", "m6",
    "i5", "a1", "e1", "i1", "m1",
];

fn endgame(tail: &str, extra_marks: &[&str], opts: &[&str]) -> Kechi {
    let marked: Vec<&str> = ENDGAME_MARKS.iter().chain(extra_marks).copied().collect();
    let text = Setup {
        lines: 4,
        white: &["m12"],
        black: &["e12", "m11"],
        marked: &marked,
        tail,
    }
    .text();
    Kechi::from_position_text(&options(opts), &text).unwrap()
}

fn illegal(game: &Kechi, text: &str) -> KechiIllegal {
    let parsed = game.parse_move(text).unwrap();
    game.resolve_move(&parsed).unwrap_err()
}

// "Reference figures" and "Notation": the published opening.
#[test]
fn published_opening_is_legal_from_the_start() {
    let start = kechi(&[]);
    assert_eq!(
        start.position_text(),
        "kechi w...w...w...w/..../..../..../............./..../..../..../............./..../..../..../b...b...b...b w 6 0 0 0"
    );
    assert_eq!(
        start.status(),
        Status::Ongoing {
            to_move: Seat::FIRST
        }
    );
    let after = start.clone().play("a13-a8,e13-e12").unwrap();
    assert_eq!(
        after.position_text(),
        "kechi x...x...w...w/.w../..../..../............./w.../..../..../............./..../..../..../b...b...b...b b 6 0 0 1"
    );
    // Any order, spaces after commas, upper case: the same turn.
    let parsed = start.parse_move("E13-E12, a13-a8").unwrap();
    let turn = start.resolve_move(&parsed).unwrap();
    assert_eq!(start.format_move(&turn), "a13-a8,e13-e12");
    assert!(start.legal_moves().contains(&turn));
}

// "Reference figures": the published endgame.
#[test]
fn published_endgame_white_is_stuck_and_has_lost() {
    let game = endgame("w 6 0 0 20", &[], &[]);
    assert!(game.legal_moves().is_empty());
    assert_eq!(game.count_moves(), 0);
    assert_eq!(game.status(), Status::won_by(Seat::new(2).unwrap()));
    assert_eq!(illegal(&game, "m12-m13"), KechiIllegal::GameOver);
    let any = AnyGame::from_position_text(&Options::new(), &game.position_text()).unwrap();
    assert_eq!(any.status().to_string(), "won 2");
    assert!(any.legal_moves().is_empty());
    // With a total other than 6 the same stone could move: the block is exactly "six away".
    let die = endgame("w 5 0 0 2", &[], &["total=die", "seed=0"]);
    assert_eq!(die.total(), 5);
    assert!(!die.legal_moves().is_empty());
}

// "Reference figures": 989 opening turns, 20/205/452/312 by stones moved.
#[test]
fn opening_turns_split_by_stones_moved() {
    let start = kechi(&[]);
    let turns = start.legal_moves();
    assert_eq!(turns.len(), 989);
    assert_eq!(start.count_moves(), 989);
    let mut split = [0; 5];
    let mut texts = HashSet::new();
    for turn in &turns {
        split[turn.stone_moves().len()] += 1;
        let sources: Vec<_> = turn.stone_moves().iter().map(|m| m.from).collect();
        let mut sorted = sources.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sources, sorted, "canonical order, each stone once");
        assert!(texts.insert(start.format_move(turn)));
    }
    assert_eq!(split, [0, 20, 205, 452, 312]);
    assert_eq!(start.perft(1), 989);
}

// "Notation": stone moves ordered by column letter, then row number (a5 before a13).
#[test]
fn canonical_order_is_by_column_then_row_number() {
    let text = Setup {
        lines: 4,
        white: &["a13", "a5"],
        black: &["m1"],
        marked: &[],
        tail: "w 6 0 0 0",
    }
    .text();
    let game = Kechi::from_position_text(&Options::new(), &text).unwrap();
    let parsed = game.parse_move("a13-a8,a5-a4").unwrap();
    let turn = game.resolve_move(&parsed).unwrap();
    assert_eq!(game.format_move(&turn), "a5-a4,a13-a8");
}

// "A turn": captures by replacement, written with `:`; `-` and `x` are accepted for them.
#[test]
fn captures_replace_and_are_written_with_a_colon() {
    let text = Setup {
        lines: 4,
        white: &["a13"],
        black: &["a7", "m1"],
        marked: &[],
        tail: "w 6 0 0 0",
    }
    .text();
    let game = Kechi::from_position_text(&Options::new(), &text).unwrap();
    for written in ["a13-a7", "a13:a7", "A13XA7", " a13 x a7 "] {
        let turn = game
            .resolve_move(&game.parse_move(written).unwrap())
            .unwrap();
        assert_eq!(game.format_move(&turn), "a13:a7", "{written}");
        assert!(turn.stone_moves()[0].capture);
    }
    let after = game.play("a13-a7").unwrap();
    assert_eq!(
        after.status(),
        Status::Ongoing {
            to_move: Seat::new(2).unwrap()
        }
    );
    let view = after.board_view();
    let a13 = view.cells.iter().find(|c| c.name == "a13").unwrap();
    assert_eq!(a13.content, turnpost_shared::render::CellContent::Marked);
    let black_stones = view
        .cells
        .iter()
        .filter(|c| {
            matches!(
                c.content,
                turnpost_shared::render::CellContent::Piece { glyph: 'b', .. }
            )
        })
        .count();
    assert_eq!(black_stones, 1);
}

// "A turn": every bad-turn class is refused with its rule.
#[test]
fn bad_turns_are_refused_with_their_rule() {
    let start = kechi(&[]);
    let cases: &[(&str, &str)] = &[
        (
            "a13-a8",
            "the distances add up to 5 (a13-a8 moves 5), not to the turn's total of 6",
        ),
        (
            "e13-e12, a13-a9",
            "the distances add up to 5 (a13-a9 moves 4, e13-e12 moves 1), not to the turn's total of 6",
        ),
        ("a13-a12,a13-a11", "the stone on a13 moves twice"),
        ("a13-a8,a8-a7", "the stone on a13 moves twice"),
        ("a13-e13,i13-i11", "e13 holds one of your own stones"),
        (
            "a13-e13,e13-e11",
            "e13 is left by another of your stones in this turn",
        ),
        ("a13-c13,e13-c13", "two stones land on c13"),
        ("c13-d13", "there is no stone on c13"),
        ("a1-a2", "the stone on a1 is your opponent's"),
        ("b12-b11", "b12 is not a cell of this board"),
        ("a14-a13", "a14 is not a cell of this board"),
        ("a13-a13", "a13-a13 does not move"),
        (
            "a13-a6",
            "a6 is 7 steps from a13: more than the turn's total of 6",
        ),
    ];
    for (text, reason) in cases {
        let error = illegal(&start, text).to_string();
        assert!(error.contains(reason), "{text}: {error}");
        let failure = start.clone().play(text).unwrap_err();
        assert!(failure.error.to_string().contains(reason));
        assert_eq!(failure.position, start);
    }
    // A marked cell: a13 is left by the opening turn.
    let game = start
        .play("a13-a8,e13-e12")
        .unwrap()
        .play("a1-a6,e1-e2")
        .unwrap();
    assert_eq!(
        illegal(&game, "a8-a13,e12-e11"),
        KechiIllegal::LandsOnMarked {
            cell: "a13".to_string()
        }
    );
    // Syntax errors carry the offset and what was expected.
    let error = game.parse_move("a8-a13;e12-e11").unwrap_err();
    assert_eq!(error.offset, 6);
    assert!(error.expected.contains("\",\""), "{error}");
}

fn splitmix64(x: u64) -> u64 {
    // Written out again from the rules file, independently of the engine.
    let mut z = x.wrapping_add(0x9E3779B97F4A7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
    z ^ (z >> 31)
}

// "Variants": total=die rolls splitmix64(seed + ply) mod 6 + 1.
#[test]
fn die_rolls_follow_the_formula() {
    // Known outputs of the reference generator seeded with 0.
    assert_eq!(splitmix64(0), 0xE220A8397B1DCDAF);
    for seed in [0u64, 1, 42, 20261122, u64::MAX - 2] {
        let seed_option = format!("seed={seed}");
        let mut game = kechi(&["total=die", &seed_option]);
        for ply in 0..12u64 {
            let expected = (splitmix64(seed.wrapping_add(ply)) % 6 + 1) as u8;
            assert_eq!(game.total(), expected, "seed {seed} ply {ply}");
            assert_eq!(game.ply(), ply);
            let text = game.position_text();
            let fields: Vec<&str> = text.split(' ').collect();
            assert_eq!(fields[3], expected.to_string());
            assert!(game
                .board_view()
                .labels
                .iter()
                .any(|l| l.text == format!("die roll {expected}")));
            for turn in game.legal_moves() {
                let sum: usize = turn
                    .stone_moves()
                    .iter()
                    .map(|m| {
                        (i32::from(m.from.column()) - i32::from(m.to.column())).unsigned_abs()
                            as usize
                            + (i32::from(m.from.row()) - i32::from(m.to.row())).unsigned_abs()
                                as usize
                    })
                    .sum();
                // Manhattan distance never exceeds the path distance.
                assert!(sum <= usize::from(expected));
            }
            let Some(turn) = game.legal_moves().into_iter().next() else {
                break;
            };
            game = game.play_move(&turn);
        }
    }
    // Seed 0: the first rolls, worked by hand from the formula.
    let first: Vec<u8> = (0..4).map(|p| (splitmix64(p) % 6 + 1) as u8).collect();
    assert_eq!(kechi(&["total=die"]).total(), first[0]);
    // Reading checks the total against the roll of that ply.
    let start = kechi(&["total=die", "seed=42"]);
    let wrong = 1 + start.total() % 6;
    let text = start
        .position_text()
        .replace(&format!(" w {} ", start.total()), &format!(" w {wrong} "));
    let error = Kechi::from_position_text(&options(&["total=die", "seed=42"]), &text).unwrap_err();
    assert_eq!(error.field, "total");
    assert!(error.message.contains("seed 42"), "{error}");
}

// "Variants": scoring=tokens.
#[test]
fn tokens_score_one_point_per_stone_move() {
    let start = kechi(&["scoring=tokens"]);
    assert_eq!(start.scores(), Some(vec![0, 0]));
    assert_eq!(kechi(&[]).scores(), None);
    let game = start.play("a13-a8,e13-e12").unwrap();
    assert_eq!(game.scores(), Some(vec![2, 0]));
    assert!(game.position_text().ends_with(" b 6 2 0 1"));
    assert!(game
        .board_view()
        .labels
        .iter()
        .any(|l| l.text == "total 6, score white 2 black 0"));
    let game = game.play("a1-a3,e1-e2,i1-i2,m1-m3").unwrap();
    assert_eq!(game.scores(), Some(vec![2, 4]));
    // Reading: scores must add up to the marked cells; markers keep them at 0.
    let text = game.position_text().replace(" 2 4 2", " 3 4 2");
    let error = Kechi::from_position_text(&options(&["scoring=tokens"]), &text).unwrap_err();
    assert_eq!(error.field, "white-score");
    let error = Kechi::from_position_text(&Options::new(), &game.position_text()).unwrap_err();
    assert_eq!(error.field, "white-score");
}

// "Variants": with tokens, a stuck player ends the game and the higher score wins.
#[test]
fn tokens_stuck_player_compares_scores() {
    let tokens = ["scoring=tokens"];
    let white = Seat::FIRST;
    let black = Seat::new(2).unwrap();
    let game = endgame("w 6 10 9 20", &[], &tokens);
    assert!(game.legal_moves().is_empty());
    assert_eq!(
        game.status(),
        Status::won_by(white),
        "the stuck player may win"
    );
    assert_eq!(game.scores(), Some(vec![10, 9]));
    let game = endgame("w 6 9 10 20", &[], &tokens);
    assert_eq!(game.status(), Status::won_by(black));
    let game = endgame("w 6 10 10 20", &["c1"], &tokens);
    assert_eq!(game.status(), Status::Draw);
    assert_eq!(
        AnyGame::from_position_text(&options(&tokens), &game.position_text())
            .unwrap()
            .status()
            .to_string(),
        "draw"
    );
}

// "Board and setup": lines=5..7.
#[test]
fn larger_boards_have_their_cells_and_start_positions() {
    for (lines, cells, stones) in [
        (4, 88, "a e i m"),
        (5, 145, "a e i m q"),
        (6, 216, "a e i m q u"),
        (7, 301, "a e i m q u y"),
    ] {
        let lines_option = format!("lines={lines}");
        let game = kechi(&[&lines_option]);
        let view = game.board_view();
        assert_eq!(view.cells.len(), cells, "lines={lines}");
        let size = 4 * (lines - 1) + 1;
        let mut white: Vec<String> = Vec::new();
        let mut black: Vec<String> = Vec::new();
        for cell in &view.cells {
            if let turnpost_shared::render::CellContent::Piece { glyph, .. } = cell.content {
                if glyph == 'w' {
                    white.push(cell.name.clone())
                } else {
                    black.push(cell.name.clone())
                }
            }
        }
        white.sort();
        black.sort();
        let mut expected_white: Vec<String> =
            stones.split(' ').map(|c| format!("{c}{size}")).collect();
        let mut expected_black: Vec<String> = stones.split(' ').map(|c| format!("{c}1")).collect();
        expected_white.sort();
        expected_black.sort();
        assert_eq!(white, expected_white);
        assert_eq!(black, expected_black);
        let whites: Vec<&str> = expected_white.iter().map(String::as_str).collect();
        let blacks: Vec<&str> = expected_black.iter().map(String::as_str).collect();
        let text = Setup {
            lines,
            white: &whites,
            black: &blacks,
            marked: &[],
            tail: "w 6 0 0 0",
        }
        .text();
        assert_eq!(game.position_text(), text);
        assert_eq!(
            game.options().get("lines"),
            Some(lines_option.trim_start_matches("lines="))
        );
    }
}

// "Notation": with lines=7, x is a column letter too.
#[test]
fn x_column_and_x_capture_with_seven_lines() {
    let lines7 = ["lines=7"];
    let start = kechi(&lines7);
    let turn = start
        .resolve_move(&start.parse_move("y25xx25, a25-a20").unwrap())
        .unwrap();
    assert_eq!(start.format_move(&turn), "a25-a20,y25-x25");
    // x5 capture x1: x5 to y5, down to y1, back to x1 is six steps.
    let text = Setup {
        lines: 7,
        white: &["x5"],
        black: &["x1", "a1"],
        marked: &[],
        tail: "w 6 0 0 0",
    }
    .text();
    let game = Kechi::from_position_text(&options(&lines7), &text).unwrap();
    for written in ["x5xx1", "X5XX1", "x5 x x1", "x5:x1", "x5-x1"] {
        let turn = game
            .resolve_move(&game.parse_move(written).unwrap())
            .unwrap();
        assert_eq!(game.format_move(&turn), "x5:x1", "{written}");
    }
    assert!(game.legal_moves().contains(&turn_of(&game, "x5:x1")));
    let error = game.parse_move("x5x1").unwrap_err();
    assert_eq!(error.offset, 3);
    // On the standard board x is no column: only a separator.
    let error = kechi(&[]).parse_move("x5-a1").unwrap_err();
    assert_eq!(error.offset, 0);
    assert!(error.expected.contains("a-m"), "{error}");
}

fn turn_of(game: &Kechi, text: &str) -> turnpost_shared::games::KechiTurn {
    game.resolve_move(&game.parse_move(text).unwrap()).unwrap()
}

// "Position text": reading names the field at fault.
#[test]
fn position_text_errors_name_the_field() {
    let start = kechi(&[]).position_text();
    let cases: Vec<(String, &str)> = vec![
        (start.replace("kechi", "kefren"), "kind"),
        (start.replacen("/....", "", 1), "rows"),
        (start.replacen("w...w", "w..qw", 1), "rows"),
        (start.replacen("w...w...w...w", "w...w...w...w.", 1), "rows"),
        (start.replacen("....", "w..w", 1), "rows"),
        (start.replace(" w 6 0 0 0", " y 6 0 0 0"), "side"),
        (start.replace(" w 6 0 0 0", " w 5 0 0 0"), "total"),
        (start.replace(" w 6 0 0 0", " w 6 0 0 1"), "ply"),
        (start.replace(" w 6 0 0 0", " b 6 0 0 0"), "ply"),
        (start.replace(" w 6 0 0 0", " w 6 1 0 0"), "white-score"),
        (start.replace(" w 6 0 0 0", " w 6 0 1 0"), "black-score"),
        (start.replace(" w 6 0 0 0", " w 6 0 0 -2"), "ply"),
        (start.replace(" w 6 0 0 0", " w 6 0 0"), "ply"),
        (format!("{start} 7"), "end"),
    ];
    for (text, field) in cases {
        let error = Kechi::from_position_text(&Options::new(), &text).unwrap_err();
        assert_eq!(error.field, field, "{text}: {error}");
    }
    // The rows are read for the board in the options.
    let error = Kechi::from_position_text(&options(&["lines=5"]), &start).unwrap_err();
    assert_eq!(error.field, "rows");
    assert!(error.message.contains("17 rows"), "{error}");
}

// Options: unknown keys and values name the key and the allowed values.
#[test]
fn options_are_checked() {
    for (pair, contains) in [
        ("colour=red", "total, seed, scoring, lines"),
        ("lines=8", "4, 5, 6, 7"),
        ("total=5", "6, die"),
        ("scoring=points", "markers, tokens"),
        ("seed=-1", "seed=-1"),
    ] {
        let error = Kechi::new(&options(&[pair])).unwrap_err().to_string();
        assert!(error.contains(contains), "{pair}: {error}");
        assert!(AnyGame::new(GameKind::Kechi, &options(&[pair])).is_err());
    }
    let game = kechi(&["TOTAL=Die", "seed=5", "scoring=tokens", "lines=6"]);
    assert_eq!(
        game.options().to_string(),
        "lines=6 scoring=tokens seed=5 total=die"
    );
    assert_eq!(
        kechi(&[]).options().to_string(),
        "lines=4 scoring=markers seed=0 total=6"
    );
}

/// An independent brute force of "A turn", from position text only: its own board (a grid point
/// is a cell when its column or row is a multiple of 4), stones walking every path of exactly d
/// steps that never revisits a cell, and the stone moves played one after another in every
/// order, marking each left cell at once. The distinct sets of stone moves are the legal turns.
mod brute {
    use std::collections::{BTreeSet, HashMap};

    /// A stone move: source, landing, whether it captures.
    type Step = ((i32, i32), (i32, i32), bool);

    #[derive(Clone)]
    pub struct Board {
        /// (column, row) → 'w', 'b', '.', 'x'.
        cells: HashMap<(i32, i32), char>,
        side: char,
        total: usize,
    }

    pub fn read(text: &str) -> Board {
        let fields: Vec<&str> = text.split(' ').collect();
        let rows: Vec<&str> = fields[1].split('/').collect();
        let size = rows.len() as i32;
        let mut cells = HashMap::new();
        for (k, row_text) in rows.iter().enumerate() {
            let row = size - 1 - k as i32;
            let columns: Vec<i32> = (0..size).filter(|c| row % 4 == 0 || c % 4 == 0).collect();
            assert_eq!(columns.len(), row_text.len());
            for (column, c) in columns.into_iter().zip(row_text.chars()) {
                cells.insert((column, row), c);
            }
        }
        Board {
            cells,
            side: fields[2].chars().next().unwrap(),
            total: fields[3].parse().unwrap(),
        }
    }

    fn name(cell: (i32, i32)) -> String {
        format!("{}{}", char::from(b'a' + cell.0 as u8), cell.1 + 1)
    }

    /// Every cell at the end of a simple path of exactly `d` steps from `from`.
    fn ends(board: &Board, from: (i32, i32), d: usize) -> BTreeSet<(i32, i32)> {
        fn walk(
            board: &Board,
            path: &mut Vec<(i32, i32)>,
            left: usize,
            out: &mut BTreeSet<(i32, i32)>,
        ) {
            let at = *path.last().unwrap();
            if left == 0 {
                out.insert(at);
                return;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let next = (at.0 + dx, at.1 + dy);
                if board.cells.contains_key(&next) && !path.contains(&next) {
                    path.push(next);
                    walk(board, path, left - 1, out);
                    path.pop();
                }
            }
        }
        let mut out = BTreeSet::new();
        walk(board, &mut vec![from], d, &mut out);
        out
    }

    /// The legal turns as canonical texts.
    pub fn turns(board: &Board) -> BTreeSet<String> {
        let me = board.side;
        let start = board.clone();
        let mut found = BTreeSet::new();
        let mut moved: Vec<Step> = Vec::new();
        sequences(
            &start,
            board.clone(),
            me,
            board.total,
            &mut moved,
            &mut found,
        );
        found
    }

    fn sequences(
        start: &Board,
        now: Board,
        me: char,
        left: usize,
        moved: &mut Vec<Step>,
        found: &mut BTreeSet<String>,
    ) {
        if left == 0 {
            let mut parts = moved.clone();
            parts.sort_by_key(|(from, _, _)| *from);
            let text: Vec<String> = parts
                .iter()
                .map(|(from, to, capture)| {
                    format!(
                        "{}{}{}",
                        name(*from),
                        if *capture { ':' } else { '-' },
                        name(*to)
                    )
                })
                .collect();
            found.insert(text.join(","));
            return;
        }
        let stones: Vec<(i32, i32)> = start
            .cells
            .iter()
            .filter(|(cell, c)| **c == me && !moved.iter().any(|(from, _, _)| from == *cell))
            .map(|(cell, _)| *cell)
            .collect();
        for from in stones {
            for d in 1..=left {
                for to in ends(&now, from, d) {
                    let here = now.cells[&to];
                    // Unmarked, not friendly now, not friendly at the start of the turn.
                    if here == 'x' || here == me || start.cells[&to] == me {
                        continue;
                    }
                    let mut next = now.clone();
                    next.cells.insert(from, 'x');
                    next.cells.insert(to, me);
                    moved.push((from, to, here != '.'));
                    sequences(start, next, me, left - d, moved, found);
                    moved.pop();
                }
            }
        }
    }
}

// "A turn": the engine's turns are exactly the brute force's, on positions of random games of
// every variant (each legal set comes out once, whatever the order of its stone moves).
#[test]
fn turns_agree_with_a_brute_force_on_random_games() {
    let variants: &[&[&str]] = &[
        &[],
        &["total=die", "seed=5"],
        &["total=die", "seed=77", "scoring=tokens"],
        &["lines=5", "total=die", "seed=11"],
    ];
    let mut state = 0x2545F4914F6CDD1Du64;
    let mut positions = 0;
    for variant in variants {
        for _ in 0..2 {
            let mut game = kechi(variant);
            for _ in 0..60 {
                let expected = brute::turns(&brute::read(&game.position_text()));
                let turns = game.legal_moves();
                let got: std::collections::BTreeSet<String> =
                    turns.iter().map(|t| game.format_move(t)).collect();
                assert_eq!(got.len(), turns.len(), "duplicates");
                assert_eq!(got, expected, "{variant:?} {}", game.position_text());
                positions += 1;
                if turns.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                game = game.play_move(&turns[(state % turns.len() as u64) as usize]);
            }
        }
    }
    assert!(positions > 50, "{positions}");
}

// "Reference figures": perft(2) = 978 121 (the shared crate is optimised in test builds).
#[test]
fn perft_two_from_the_start() {
    assert_eq!(kechi(&[]).perft(2), 978_121);
}
