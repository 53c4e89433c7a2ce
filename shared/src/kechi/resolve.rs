//! Resolution (rules: "A turn"): a written turn against a position gives the legal turn or the
//! first rule it breaks. The checks are direct, so resolving never generates every turn.
//! Order of checks (RULES.md, "Resolution errors"): game over; cells on the board; sources;
//! a stone moved twice; each landing; two landings on one cell; the sum of the distances.

use crate::notation::CellText;

use super::bits::Bits;
use super::board::{other, Kechi};
use super::illegal::KechiIllegal;
use super::move_text::KechiMoveText;
use super::turn::KechiTurn;

impl Kechi {
    fn index_of_text(&self, text: &CellText) -> Result<usize, KechiIllegal> {
        let board = self.geometry();
        let row = i64::from(text.number) - 1;
        board.index_at(i64::from(text.letter), row).ok_or_else(|| {
            let (rows, columns) = board.line_names();
            KechiIllegal::OffBoard {
                cell: text.to_string(),
                rows,
                columns,
            }
        })
    }

    pub(crate) fn resolve(&self, text: &KechiMoveText) -> Result<KechiTurn, KechiIllegal> {
        if !self.has_turn() {
            return Err(KechiIllegal::GameOver);
        }
        let board = self.geometry();
        let own = self.side_stones(self.side);
        let enemy = self.side_stones(other(self.side));
        let mut steps = Vec::with_capacity(text.moves.len());
        for (from, to) in &text.moves {
            steps.push((self.index_of_text(from)?, self.index_of_text(to)?));
        }
        let name = |index: usize| board.cell(index).to_string();
        let mut sources = Bits::EMPTY;
        for &(from, _) in &steps {
            if enemy.contains(from) {
                return Err(KechiIllegal::EnemyStone { cell: name(from) });
            }
            if !own.contains(from) {
                // `a13-a8,a8-a4` moves one stone on from where it landed: name that rule.
                if let Some(&(first, _)) = steps
                    .iter()
                    .find(|&&(source, to)| to == from && own.contains(source))
                {
                    return Err(KechiIllegal::MovedTwice { cell: name(first) });
                }
                return Err(KechiIllegal::NoStone { cell: name(from) });
            }
            if sources.contains(from) {
                return Err(KechiIllegal::MovedTwice { cell: name(from) });
            }
            sources.insert(from);
        }
        for &(from, to) in &steps {
            if from == to {
                return Err(KechiIllegal::NoDistance { cell: name(from) });
            }
            if self.marked.contains(to) {
                return Err(KechiIllegal::LandsOnMarked { cell: name(to) });
            }
            if sources.contains(to) {
                return Err(KechiIllegal::LandsOnVacated { cell: name(to) });
            }
            if own.contains(to) {
                return Err(KechiIllegal::LandsOnFriendly { cell: name(to) });
            }
            let distance = board.distance(from, to);
            if distance > self.total {
                return Err(KechiIllegal::TooFar {
                    from: name(from),
                    to: name(to),
                    distance,
                    total: self.total,
                });
            }
        }
        let mut landings = Bits::EMPTY;
        for &(_, to) in &steps {
            if landings.contains(to) {
                return Err(KechiIllegal::SameLanding { cell: name(to) });
            }
            landings.insert(to);
        }
        let sum: u32 = steps
            .iter()
            .map(|&(from, to)| u32::from(board.distance(from, to)))
            .sum();
        if sum != u32::from(self.total) {
            // Name every stone move with its distance, in canonical order (index order).
            let mut sorted = steps.clone();
            sorted.sort_unstable();
            let moves: Vec<String> = sorted
                .iter()
                .map(|&(from, to)| {
                    format!(
                        "{}-{} moves {}",
                        name(from),
                        name(to),
                        board.distance(from, to)
                    )
                })
                .collect();
            return Err(KechiIllegal::WrongTotal {
                moves: moves.join(", "),
                sum,
                total: self.total,
            });
        }
        Ok(self.turn_of(&steps))
    }
}
