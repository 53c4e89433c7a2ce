//! The criss-cross board for `lines=4..7` (rules: "Board and setup"): which grid points are
//! cells, their names, crossings, and every path distance, computed once per size.

use std::collections::VecDeque;
use std::sync::OnceLock;

use super::bits::Bits;
use super::cell::Cell;

/// Lines of cells run every 4 grid points.
pub(crate) const SPACING: usize = 4;
pub(crate) const MIN_LINES: u8 = 4;
pub(crate) const MAX_LINES: u8 = 7;
/// The largest turn total, hence the longest stone move.
pub(crate) const MAX_DISTANCE: usize = 6;

/// One board size. Cells are numbered column by column (a1, a2, …, b1, …), so increasing index
/// is the canonical order of stone moves.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Grid points per row and per column: 4·(lines−1)+1.
    pub(crate) size: usize,
    cells: Vec<Cell>,
    /// Cell index by `column * size + row`.
    grid: Vec<Option<u16>>,
    /// Path distance by `a * cells + b`.
    distances: Vec<u8>,
    /// `rings[cell][d]`: the cells exactly `d` steps away (for d ≤ 8 the cells a stone moving d
    /// can land on, since the smallest loop is 16 cells long).
    rings: Vec<[Bits; MAX_DISTANCE + 1]>,
    pub(crate) crossings: Bits,
}

static BOARDS: [OnceLock<Geometry>; 4] = [
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
    OnceLock::new(),
];

/// The board with `lines` rows and columns of cells (clamped to 4..=7; options are checked
/// before a position exists).
pub(crate) fn geometry(lines: u8) -> &'static Geometry {
    let lines = lines.clamp(MIN_LINES, MAX_LINES);
    // The clamp keeps the slot within the four boards.
    BOARDS[usize::from(lines - MIN_LINES)].get_or_init(|| Geometry::build(lines))
}

impl Geometry {
    fn build(lines: u8) -> Geometry {
        let size = SPACING * (usize::from(lines) - 1) + 1;
        let mut cells = Vec::new();
        let mut grid = vec![None; size * size];
        for column in 0..size {
            for row in 0..size {
                if column % SPACING == 0 || row % SPACING == 0 {
                    if let (Some(slot), Ok(index), Ok(c), Ok(r)) = (
                        grid.get_mut(column * size + row),
                        u16::try_from(cells.len()),
                        u8::try_from(column),
                        u8::try_from(row),
                    ) {
                        *slot = Some(index);
                        cells.push(Cell::new(c, r));
                    }
                }
            }
        }
        let mut geometry = Geometry {
            size,
            cells,
            grid,
            distances: Vec::new(),
            rings: Vec::new(),
            crossings: Bits::EMPTY,
        };
        let count = geometry.cells.len();
        let neighbours: Vec<Vec<usize>> = (0..count).map(|i| geometry.neighbours(i)).collect();
        let mut distances = vec![u8::MAX; count * count];
        for (source, row) in distances.chunks_mut(count).enumerate() {
            breadth_first(source, &neighbours, row);
        }
        geometry.distances = distances;
        geometry.rings = (0..count)
            .map(|a| {
                let mut ring = [Bits::EMPTY; MAX_DISTANCE + 1];
                for b in 0..count {
                    if let Some(set) = ring.get_mut(usize::from(geometry.distance(a, b))) {
                        set.insert(b);
                    }
                }
                ring
            })
            .collect();
        for (index, cell) in geometry.cells.iter().enumerate() {
            if usize::from(cell.column()) % SPACING == 0 && usize::from(cell.row()) % SPACING == 0 {
                geometry.crossings.insert(index);
            }
        }
        geometry
    }

    fn neighbours(&self, index: usize) -> Vec<usize> {
        let Some(cell) = self.cells.get(index) else {
            return Vec::new();
        };
        let (column, row) = (i64::from(cell.column()), i64::from(cell.row()));
        [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .filter_map(|(dx, dy)| self.index_at(column + dx, row + dy))
            .collect()
    }

    /// Number of cells: 2·L·size − L² (88 for the standard board).
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// The cell with this index (indices come from this geometry).
    pub(crate) fn cell(&self, index: usize) -> Cell {
        self.cells.get(index).copied().unwrap_or(Cell::new(0, 0))
    }

    /// The index of the cell at 0-based (column, row), if that grid point is a cell.
    pub(crate) fn index_at(&self, column: i64, row: i64) -> Option<usize> {
        let size = i64::try_from(self.size).ok()?;
        if !(0..size).contains(&column) || !(0..size).contains(&row) {
            return None;
        }
        let slot = usize::try_from(column * size + row).ok()?;
        self.grid.get(slot).copied().flatten().map(usize::from)
    }

    pub(crate) fn index_of(&self, cell: Cell) -> Option<usize> {
        self.index_at(i64::from(cell.column()), i64::from(cell.row()))
    }

    /// Steps on the shortest path between two cells.
    pub(crate) fn distance(&self, a: usize, b: usize) -> u8 {
        self.distances
            .get(a * self.len() + b)
            .copied()
            .unwrap_or(u8::MAX)
    }

    /// The cells exactly `d` steps from `index` (empty for d > 6).
    pub(crate) fn ring(&self, index: usize, d: usize) -> Bits {
        self.rings
            .get(index)
            .and_then(|rings| rings.get(d))
            .copied()
            .unwrap_or(Bits::EMPTY)
    }

    /// The crossings of the top row (`top`) or of row 1: the home cells of White and Black.
    pub(crate) fn home_row(&self, top: bool) -> Bits {
        let row = if top { self.size - 1 } else { 0 };
        let mut home = Bits::EMPTY;
        for index in self.crossings.iter() {
            if usize::from(self.cell(index).row()) == row {
                home.insert(index);
            }
        }
        home
    }

    /// The last column letter: `m` for the standard board, `y` for `lines=7`.
    pub(crate) fn last_letter(&self) -> char {
        let last = u8::try_from(self.size - 1).unwrap_or(0);
        char::from(b'a'.saturating_add(last))
    }

    /// The names of the lines of cells, for messages: ("1, 5, 9, 13", "a, e, i, m").
    pub(crate) fn line_names(&self) -> (String, String) {
        let mut rows = Vec::new();
        let mut columns = Vec::new();
        for k in (0..self.size).step_by(SPACING) {
            rows.push((k + 1).to_string());
            let letter = u8::try_from(k).unwrap_or(0);
            columns.push(char::from(b'a'.saturating_add(letter)).to_string());
        }
        (rows.join(", "), columns.join(", "))
    }
}

fn breadth_first(source: usize, neighbours: &[Vec<usize>], distances: &mut [u8]) {
    let mut queue = VecDeque::from([source]);
    if let Some(d) = distances.get_mut(source) {
        *d = 0;
    }
    while let Some(at) = queue.pop_front() {
        let next = distances
            .get(at)
            .copied()
            .unwrap_or(u8::MAX)
            .saturating_add(1);
        for &n in neighbours.get(at).map(Vec::as_slice).unwrap_or(&[]) {
            if let Some(d) = distances.get_mut(n) {
                if *d == u8::MAX {
                    *d = next;
                    queue.push_back(n);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_have_their_cell_counts() {
        for (lines, cells) in [(4, 88), (5, 145), (6, 216), (7, 301)] {
            let board = geometry(lines);
            assert_eq!(board.len(), cells);
            assert_eq!(board.crossings.count(), u32::from(lines) * u32::from(lines));
        }
        assert_eq!(geometry(7).last_letter(), 'y');
    }

    #[test]
    fn distances_follow_the_lines() {
        let board = geometry(4);
        let at = |c: u8, r: u8| board.index_of(Cell::new(c, r)).unwrap();
        // a13 to e12: along row 13 to e13, then down one.
        assert_eq!(board.distance(at(0, 12), at(4, 11)), 5);
        // b1 to b5 must go round through a or e: 1 + 4 + 1.
        assert_eq!(board.distance(at(1, 0), at(1, 4)), 6);
        assert_eq!(board.ring(at(0, 12), 1).count(), 2);
        assert_eq!(board.ring(at(0, 12), 4).count(), 2);
        assert_eq!(board.ring(at(0, 12), 5).count(), 4);
    }
}
