//! Twirl geometry: where a stone can go around a friendly pivot (rules: "Twirl").

use super::board::EMPTY;
use super::cell::{Cell, CELLS, HEIGHT, WIDTH};

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

fn on_board(x: i32, y: i32) -> bool {
    (0..WIDTH).contains(&x) && (0..HEIGHT).contains(&y)
}

fn get(cells: &[u8; CELLS], x: i32, y: i32) -> u8 {
    // Callers check `on_board` first; off-board reads count as empty.
    cells
        .get(usize::try_from(y * WIDTH + x).unwrap_or(usize::MAX))
        .copied()
        .unwrap_or(EMPTY)
}

/// Whether the `n - 1` cells strictly between (x, y) and (x + n·dx, y + n·dy) are empty.
fn clear(cells: &[u8; CELLS], x: i32, y: i32, dx: i32, dy: i32, n: i32) -> bool {
    (1..n).all(|k| get(cells, x + k * dx, y + k * dy) == EMPTY)
}

/// Calls `found` with every destination the stone of `colour` on `from` can twirl to, once per
/// pivot and shape (a destination may come more than once). Destinations hold no friendly stone;
/// they may hold an enemy stone (a capture, whatever its direction).
pub(crate) fn for_each_twirl(
    cells: &[u8; CELLS],
    from: Cell,
    colour: u8,
    mut found: impl FnMut(Cell),
) {
    let (sx, sy) = (from.column(), from.row());
    let mut consider = |dest: (i32, i32), a: (i32, i32, i32, i32), b: (i32, i32, i32, i32), n| {
        let (x, y) = dest;
        if !on_board(x, y) || get(cells, x, y) == colour {
            return;
        }
        if clear(cells, a.0, a.1, a.2, a.3, n) && clear(cells, b.0, b.1, b.2, b.3, n) {
            if let Some(cell) = Cell::at(x, y) {
                found(cell);
            }
        }
    };
    for (dx, dy) in DIRECTIONS {
        // The pivot is the first stone along the ray, and it must be friendly.
        let mut n = 1;
        let pivot = loop {
            let (x, y) = (sx + n * dx, sy + n * dy);
            if !on_board(x, y) {
                break None;
            }
            match get(cells, x, y) {
                EMPTY => n += 1,
                stone if stone == colour => break Some((x, y)),
                _ => break None,
            }
        };
        let Some((px, py)) = pivot else { continue };
        if dx == 0 || dy == 0 {
            for (ux, uy) in [(dy, dx), (-dy, -dx)] {
                // Right angle at the source: S→D orthogonal, P→D diagonal.
                consider(
                    (sx + n * ux, sy + n * uy),
                    (sx, sy, ux, uy),
                    (px, py, ux - dx, uy - dy),
                    n,
                );
                // Right angle at the pivot: S→D diagonal, P→D orthogonal.
                consider(
                    (px + n * ux, py + n * uy),
                    (sx, sy, dx + ux, dy + uy),
                    (px, py, ux, uy),
                    n,
                );
            }
        } else {
            // The other two corners of the square whose diagonal is S–P.
            consider((sx + n * dx, sy), (sx, sy, dx, 0), (px, py, 0, -dy), n);
            consider((sx, sy + n * dy), (sx, sy, 0, dy), (px, py, -dx, 0), n);
        }
    }
}

/// Whether a twirl from `from` to `to` exists for `colour` (any pivot).
pub(crate) fn can_twirl(cells: &[u8; CELLS], from: Cell, to: Cell, colour: u8) -> bool {
    let mut reachable = false;
    for_each_twirl(cells, from, colour, |dest| reachable |= dest == to);
    reachable
}

/// A set of cells, for counting distinct destinations without allocating.
#[derive(Clone, Copy, Default)]
pub(crate) struct CellSet([u64; 3]);

impl CellSet {
    /// Adds `cell`; returns whether it was new.
    pub(crate) fn insert(&mut self, cell: Cell) -> bool {
        let (word, bit) = (cell.index() / 64, cell.index() % 64);
        match self.0.get_mut(word) {
            Some(w) => {
                let new = *w & (1 << bit) == 0;
                *w |= 1 << bit;
                new
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kefren::board::BLACK;

    fn cell(name: &str) -> Cell {
        let bytes = name.as_bytes();
        let column = i32::from(bytes[0] - b'A');
        let row: i32 = name[1..].parse().unwrap();
        Cell::at(column, row - 1).unwrap()
    }

    #[test]
    fn seed_example_g10_reaches_e10_but_not_g8() {
        let mut cells = [EMPTY; CELLS];
        for name in ["G10", "E8", "F8", "G7"] {
            cells[cell(name).index()] = BLACK;
        }
        assert!(can_twirl(&cells, cell("G10"), cell("E10"), BLACK));
        assert!(!can_twirl(&cells, cell("G10"), cell("G8"), BLACK));
    }
}
