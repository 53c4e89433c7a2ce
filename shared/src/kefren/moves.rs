//! Move generation: twirls, compulsory captures and capture chains (rules: "Captures").

use super::board::{not_backwards, opponent, Kefren, EMPTY};
use super::cell::{Cell, CELLS};
use super::twirl::{for_each_twirl, CellSet};

/// A legal Kefren move: a plain twirl, or a complete capture chain (every landing cell,
/// starting with the source).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum KefrenMove {
    Twirl { from: Cell, to: Cell },
    Capture { path: Vec<Cell> },
}

impl KefrenMove {
    /// Source and landing cells, in order.
    pub(crate) fn cells(&self) -> Vec<Cell> {
        match self {
            KefrenMove::Twirl { from, to } => vec![*from, *to],
            KefrenMove::Capture { path } => path.clone(),
        }
    }
}

/// The distinct cells where the stone on `from` captures (forward or sideways).
pub(crate) fn capture_targets(cells: &[u8; CELLS], from: Cell, colour: u8) -> Vec<Cell> {
    let enemy = opponent(colour);
    let mut seen = CellSet::default();
    let mut targets = Vec::new();
    for_each_twirl(cells, from, colour, |dest| {
        if cells.get(dest.index()) == Some(&enemy)
            && not_backwards(colour, from, dest)
            && seen.insert(dest)
        {
            targets.push(dest);
        }
    });
    targets
}

fn any_capture_from(cells: &[u8; CELLS], from: Cell, colour: u8) -> bool {
    let enemy = opponent(colour);
    let mut found = false;
    for_each_twirl(cells, from, colour, |dest| {
        found |= cells.get(dest.index()) == Some(&enemy) && not_backwards(colour, from, dest);
    });
    found
}

/// Moves the stone of `colour` from `from` onto `to`, removing whatever stood there.
pub(crate) fn step(cells: &mut [u8; CELLS], from: Cell, to: Cell, colour: u8) {
    if let Some(slot) = cells.get_mut(from.index()) {
        *slot = EMPTY;
    }
    if let Some(slot) = cells.get_mut(to.index()) {
        *slot = colour;
    }
}

/// Calls `found` with every complete chain that starts by capturing from `path`'s last cell.
fn for_each_chain(
    cells: &mut [u8; CELLS],
    path: &mut Vec<Cell>,
    colour: u8,
    found: &mut impl FnMut(&[Cell]),
) {
    let Some(&at) = path.last() else { return };
    let targets = capture_targets(cells, at, colour);
    if targets.is_empty() {
        if path.len() > 1 {
            found(path);
        }
        return;
    }
    for target in targets {
        let captured = cells.get(target.index()).copied().unwrap_or(EMPTY);
        step(cells, at, target, colour);
        path.push(target);
        for_each_chain(cells, path, colour, found);
        path.pop();
        step(cells, target, at, colour);
        if let Some(slot) = cells.get_mut(target.index()) {
            *slot = captured;
        }
    }
}

/// Counts complete chains from `at` without building them.
fn count_chains(cells: &mut [u8; CELLS], at: Cell, colour: u8) -> u64 {
    let targets = capture_targets(cells, at, colour);
    if targets.is_empty() {
        return 1;
    }
    let mut total = 0;
    for target in targets {
        let captured = cells.get(target.index()).copied().unwrap_or(EMPTY);
        step(cells, at, target, colour);
        total += count_chains(cells, target, colour);
        step(cells, target, at, colour);
        if let Some(slot) = cells.get_mut(target.index()) {
            *slot = captured;
        }
    }
    total
}

impl Kefren {
    fn stones(&self, colour: u8) -> impl Iterator<Item = Cell> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(move |(_, stone)| **stone == colour)
            .map(|(index, _)| Cell::from_index(index))
    }

    /// Whether the side to move has a capture somewhere (then it must capture).
    pub(crate) fn capture_available(&self) -> bool {
        self.stones(self.side)
            .any(|from| any_capture_from(&self.cells, from, self.side))
    }

    /// Every legal move of the side to move, ignoring whether the game is over.
    pub(crate) fn generate(&self) -> Vec<KefrenMove> {
        let colour = self.side;
        let mut moves = Vec::new();
        if self.capture_available() {
            let mut cells = self.cells;
            for from in self.stones(colour) {
                let mut path = vec![from];
                for_each_chain(&mut cells, &mut path, colour, &mut |chain| {
                    moves.push(KefrenMove::Capture {
                        path: chain.to_vec(),
                    });
                });
            }
        } else {
            for from in self.stones(colour) {
                let mut seen = CellSet::default();
                for_each_twirl(&self.cells, from, colour, |to| {
                    if self.at(to) == EMPTY && seen.insert(to) {
                        moves.push(KefrenMove::Twirl { from, to });
                    }
                });
            }
        }
        moves
    }

    /// The number of legal moves, ignoring whether the game is over. One pass counts plain
    /// twirls and notices captures; only when there is one are the chains counted.
    pub(crate) fn count(&self) -> u64 {
        let colour = self.side;
        let enemy = opponent(colour);
        let mut twirls = 0;
        let mut capture = false;
        for from in self.stones(colour) {
            let mut seen = CellSet::default();
            for_each_twirl(&self.cells, from, colour, |to| {
                let stone = self.at(to);
                if stone == EMPTY {
                    if seen.insert(to) {
                        twirls += 1;
                    }
                } else if stone == enemy && not_backwards(colour, from, to) {
                    capture = true;
                }
            });
        }
        if !capture {
            return twirls;
        }
        let mut cells = self.cells;
        let mut total = 0;
        for from in self.stones(colour) {
            for target in capture_targets(&cells, from, colour) {
                let captured = cells.get(target.index()).copied().unwrap_or(EMPTY);
                step(&mut cells, from, target, colour);
                total += count_chains(&mut cells, target, colour);
                step(&mut cells, target, from, colour);
                if let Some(slot) = cells.get_mut(target.index()) {
                    *slot = captured;
                }
            }
        }
        total
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_move(&self) -> bool {
        let colour = self.side;
        let enemy = opponent(colour);
        self.stones(colour).any(|from| {
            let mut found = false;
            for_each_twirl(&self.cells, from, colour, |to| {
                let stone = self.at(to);
                found |= stone == EMPTY || (stone == enemy && not_backwards(colour, from, to));
            });
            found
        })
    }

    /// The position after a legal move.
    pub(crate) fn after(&self, mv: &KefrenMove) -> Kefren {
        let mut next = self.clone();
        let cells = mv.cells();
        for pair in cells.windows(2) {
            if let [from, to] = pair {
                step(&mut next.cells, *from, *to, self.side);
            }
        }
        next.side = opponent(self.side);
        next
    }
}
