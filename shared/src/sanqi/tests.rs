//! The incremental pattern count checked against full scans: the precomputed tables' scan, and
//! an independent scan by coordinates written from the rules.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use super::board::SanQi;
use super::colour::EMPTY;
use super::geometry::{geometry, Geometry, OUTSIDE, SIDES, SLOTS};
use super::patterns::Standing;
use super::shape::PatternKind;

/// A small deterministic generator, so failures replay exactly.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

const CIRCLE: [(i32, i32); 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)];
const TRIANGLE_A: [(i32, i32); 6] = [(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)];
const TRIANGLE_B: [(i32, i32); 6] = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)];

/// Standing patterns [circles, lines, triangles], found by walking coordinates.
fn naive(geometry: &Geometry, cells: &[u8; SLOTS]) -> [u16; 3] {
    let span = i32::from(geometry.span);
    // A grid with a margin of 6 so that every offset stays inside; None off the board.
    let mut grid = [[None::<u8>; 32]; 32];
    for (index, &(l, n)) in geometry.coords.iter().enumerate() {
        grid[usize::from(l) + 6][usize::from(n) + 6] = Some(cells[index]);
    }
    let stone = |l: i32, n: i32| grid[(l + 6) as usize][(n + 6) as usize];
    let one_colour = |l: i32, n: i32, offsets: &[(i32, i32)]| {
        let stones: Vec<Option<u8>> = offsets.iter().map(|(a, b)| stone(l + a, n + b)).collect();
        matches!(stones[0], Some(s) if s != EMPTY) && stones.iter().all(|s| *s == stones[0])
    };
    let mut counts = [0u16; 3];
    for l in 1..=span {
        for n in 1..=span {
            if stone(l, n).is_none() {
                continue;
            }
            counts[0] += u16::from(one_colour(l, n, &CIRCLE));
            for (dl, dn) in [(1, 0), (0, 1), (1, 1)] {
                let line: Vec<(i32, i32)> = (0..6).map(|k| (k * dl, k * dn)).collect();
                counts[1] += u16::from(one_colour(l, n, &line));
            }
            counts[2] += u16::from(one_colour(l, n, &TRIANGLE_A));
            counts[2] += u16::from(one_colour(l, n, &TRIANGLE_B));
        }
    }
    counts
}

fn counts(standing: Standing) -> [u16; 3] {
    [
        standing.count(PatternKind::Circle),
        standing.count(PatternKind::Line),
        standing.count(PatternKind::Triangle),
    ]
}

#[test]
fn pattern_tables_match_the_rules() {
    for side in SIDES {
        let geometry = geometry(side);
        let s = usize::from(side);
        let kinds = |kind| geometry.patterns.iter().filter(|p| p.kind == kind).count();
        // Circle centres are the cells not on the rim.
        assert_eq!(kinds(PatternKind::Circle), 3 * (s - 1) * (s - 2) + 1);
        // Lines: each axis has rows of lengths s..2s-1..s; a row of m cells holds m-5 lines.
        let per_axis: usize = geometry
            .letter_lengths
            .iter()
            .map(|m| m.saturating_sub(5))
            .sum();
        assert_eq!(kinds(PatternKind::Line), 3 * per_axis);
        // Every pattern is counted by the naive scan when the board is one colour.
        let mut cells = [EMPTY; SLOTS];
        cells.iter_mut().take(geometry.len()).for_each(|c| *c = 2);
        let all = naive(geometry, &cells);
        assert_eq!(
            all,
            [
                kinds(PatternKind::Circle) as u16,
                kinds(PatternKind::Line) as u16,
                kinds(PatternKind::Triangle) as u16
            ]
        );
        assert_eq!(counts(Standing::scan(geometry, &cells)), all);
    }
}

#[test]
fn incremental_count_equals_full_scans() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut wins = 0;
    for side in SIDES {
        let geometry = geometry(side);
        let trials = match side {
            4 => 400,
            6 => 100,
            _ => 30,
        };
        for _ in 0..trials {
            // Mostly one colour, so that patterns form, appear and break often.
            let dominant = 1 + rng.below(3) as u8;
            let mut cells = [EMPTY; SLOTS];
            for cell in cells.iter_mut().take(geometry.len()) {
                *cell = match rng.below(10) {
                    0..=5 => dominant,
                    6 | 7 => EMPTY,
                    _ => 1 + rng.below(3) as u8,
                };
            }
            let mut game = SanQi::from_parts(side, cells, rng.below(2) as u8, OUTSIDE);
            assert_eq!(counts(game.standing), naive(geometry, &game.cells));
            for _ in 0..60 {
                // Any single-cell change, legal or not: the update must hold for all of them.
                let index = u16::try_from(rng.below(geometry.len())).unwrap();
                let stone = if rng.below(3) == 0 {
                    1 + rng.below(3) as u8
                } else {
                    dominant
                };
                game = game.after(geometry, index, stone);
                let full = naive(geometry, &game.cells);
                assert_eq!(counts(game.standing), full, "{game:?}");
                let mover = game.previous_mover();
                let wanted = if mover == 0 { [0, 2] } else { [1, 2] };
                let won = wanted.iter().any(|&k| full[k] > 0);
                assert_eq!(game.winner().is_some(), won, "{game:?}");
                wins += usize::from(won);
            }
        }
    }
    assert!(wins > 3000, "too few wins to exercise the check: {wins}");
}

#[test]
fn legal_play_keeps_counts_equal_to_full_scans() {
    // Random legal games from the empty board (through the public move generator).
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for side in [4, 6] {
        let geometry = geometry(side);
        for _ in 0..40 {
            let mut game = SanQi::empty(side);
            for _ in 0..120 {
                let moves = game.generate();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                game = game.after(geometry, mv.cell.index, mv.colour.stone());
                assert_eq!(counts(game.standing), naive(geometry, &game.cells));
            }
        }
    }
}
