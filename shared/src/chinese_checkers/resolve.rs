//! Resolution: a move text against a position gives a legal move or the rule it breaks.

use crate::notation::CellText;

use super::board::{ChineseCheckers, EMPTY, INERT};
use super::hole::Hole;
use super::illegal::ChineseCheckersIllegal as Illegal;
use super::move_text::{format_move, ChineseCheckersMoveText};
use super::moves::{content, hop_landing, keeps_lock, Cells, ChineseCheckersMove};
use super::points::{opposite, target_mask, POINT_OF};
use super::variant::AntiSpoiling;

fn hole_of(text: &CellText) -> Result<Hole, Illegal> {
    i32::try_from(text.number)
        .ok()
        .and_then(|number| Hole::at(i32::from(text.letter), number))
        .ok_or_else(|| Illegal::OffBoard {
            cell: text.name('a', true),
        })
}

fn point_of(hole: Hole) -> u8 {
    POINT_OF.get(hole.index()).copied().unwrap_or(0)
}

/// The direction and distance from `from` to `to`, if they lie on one of the six lines.
fn line(from: Hole, to: Hole) -> Option<(usize, i32)> {
    let (r1, n1) = from.coords();
    let (r2, n2) = to.coords();
    let distance = (r2 - r1).abs().max((n2 - n1).abs());
    (0..6)
        .find(|&d| from.towards(d, distance) == Some(to))
        .map(|d| (d, distance))
}

impl ChineseCheckers {
    /// The legal move `text` means here.
    ///
    /// # Errors
    /// The rule the move breaks (see `RULES.md`, decision 10, for which one when several do).
    pub(crate) fn resolve(
        &self,
        text: &ChineseCheckersMoveText,
    ) -> Result<ChineseCheckersMove, Illegal> {
        if self.winner().is_some() {
            return Err(Illegal::GameOver);
        }
        let holes = match text {
            ChineseCheckersMoveText::Pass => {
                if !self.has_peg_move() {
                    return Ok(ChineseCheckersMove::Pass);
                }
                let mut texts: Vec<String> = self.peg_moves().iter().map(format_move).collect();
                texts.sort();
                return Err(Illegal::PassNotAllowed {
                    example: texts.into_iter().next().unwrap_or_default(),
                });
            }
            ChineseCheckersMoveText::Holes(holes) => holes
                .iter()
                .map(hole_of)
                .collect::<Result<Vec<Hole>, Illegal>>()?,
        };
        if !self.has_peg_move() {
            return Err(Illegal::MustPass);
        }
        let Some((&from, rest)) = holes.split_first() else {
            return Err(Illegal::MustPass);
        };
        let set = match self.at(from) {
            EMPTY => {
                return Err(Illegal::NoPeg {
                    cell: from.to_string(),
                })
            }
            INERT => {
                return Err(Illegal::InertPeg {
                    cell: from.to_string(),
                })
            }
            set if self.variant.sets_of(self.seat()) & (1 << set) == 0 => {
                let seat = self.variant.seat_of(usize::from(set)) + 1;
                return Err(Illegal::ForeignPeg {
                    cell: from.to_string(),
                    set,
                    seat: u8::try_from(seat).unwrap_or(0),
                });
            }
            set => usize::from(set),
        };
        let Some(&to) = rest.last() else {
            return Err(Illegal::NotReachable {
                from: from.to_string(),
                to: from.to_string(),
            });
        };
        if rest.len() > 1 {
            self.check_path(from, set, rest)?;
        }
        let rest = self.rest_mask(self.seat());
        if rest & to.bit() != 0 && self.ends(from, set, true).contains(&to) {
            Ok(ChineseCheckersMove::Move { from, to })
        } else {
            Err(self.diagnose(from, set, to))
        }
    }

    /// Whether a move of the peg of `set` may end on `to` holding another player's peg.
    fn may_swap(&self, cells: &Cells, set: usize, to: Hole) -> bool {
        let target = target_mask(set);
        let peg = content(cells, to);
        self.variant.anti_spoiling == AntiSpoiling::Swap
            && self.occupied() & target == target
            && target & to.bit() != 0
            && peg != EMPTY
            && peg != INERT
            && self.variant.sets_of(self.seat()) & (1 << peg) == 0
    }

    /// Checks a written hop chain hop by hop (rules: "Notation": no hole twice, never back to
    /// the start, target lock on every hop), and where it ends (resting rule).
    fn check_path(&self, from: Hole, set: usize, rest: &[Hole]) -> Result<(), Illegal> {
        let cells = self.lifted(from);
        let target = target_mask(set);
        let long = self.variant.long_jumps;
        let mut at = from;
        let mut landed: Vec<Hole> = Vec::new();
        for (index, &to) in rest.iter().enumerate() {
            let number = index + 1;
            let last = number == rest.len();
            if to == from {
                return Err(Illegal::ChainBackToStart {
                    number,
                    cell: to.to_string(),
                });
            }
            if landed.contains(&to) {
                return Err(Illegal::HoleTwice {
                    number,
                    cell: to.to_string(),
                });
            }
            if at.neighbours().any(|hole| hole == to) {
                return Err(Illegal::StepInChain {
                    from: at.to_string(),
                    to: to.to_string(),
                });
            }
            let not_a_hop = |why: String| Illegal::NotAHop {
                number,
                from: at.to_string(),
                to: to.to_string(),
                why,
            };
            let is_hop = (0..6).any(|d| hop_landing(&cells, at, d, long) == Some(to));
            if !is_hop {
                return Err(not_a_hop(self.why_not_a_hop(&cells, at, to)));
            }
            if content(&cells, to) != EMPTY && !(last && self.may_swap(&cells, set, to)) {
                return Err(not_a_hop(format!("{to} is taken")));
            }
            if !keeps_lock(target, at, to) {
                return Err(Illegal::LeavesTargetInChain {
                    number,
                    point: u8::try_from(opposite(set)).unwrap_or(0),
                    from: at.to_string(),
                    to: to.to_string(),
                });
            }
            landed.push(to);
            at = to;
        }
        if self.rest_mask(self.seat()) & at.bit() == 0 {
            return Err(Illegal::RestsInForeignPoint {
                cell: at.to_string(),
                point: point_of(at),
            });
        }
        Ok(())
    }

    /// Why no hop leads from `at` to `to` (the landing hole aside).
    fn why_not_a_hop(&self, cells: &Cells, at: Hole, to: Hole) -> String {
        let Some((direction, distance)) = line(at, to) else {
            return format!("{at} and {to} are not on one line");
        };
        let between: Vec<Hole> = (1..distance)
            .filter_map(|k| at.towards(direction, k))
            .filter(|&hole| content(cells, hole) != EMPTY)
            .collect();
        match between.as_slice() {
            [] => format!("there is no peg between {at} and {to} to hop over"),
            [_] if !self.variant.long_jumps => {
                "a hop jumps over one adjacent peg into the hole just beyond it".to_string()
            }
            [peg] => format!("the peg on {peg} is not halfway between {at} and {to}"),
            _ => format!("there is more than one peg between {at} and {to}"),
        }
    }

    /// The rule a (source, final hole) pair breaks, for a peg of the seat to move.
    fn diagnose(&self, from: Hole, set: usize, to: Hole) -> Illegal {
        let (cell, from_name) = (to.to_string(), from.to_string());
        if to == from {
            return Illegal::BackToStart { cell };
        }
        if self.ends(from, set, true).contains(&to) {
            return Illegal::RestsInForeignPoint {
                cell,
                point: point_of(to),
            };
        }
        let cells = self.cells();
        let target = target_mask(set);
        let peg = content(&cells, to);
        if peg != EMPTY {
            let theirs = peg != INERT && self.variant.sets_of(self.seat()) & (1 << peg) == 0;
            let swap = self.variant.anti_spoiling == AntiSpoiling::Swap;
            if swap && theirs && target & to.bit() != 0 && self.occupied() & target != target {
                return Illegal::SwapTargetNotFull { cell };
            }
            if !(swap && theirs && target & to.bit() != 0) {
                return Illegal::Occupied { cell };
            }
        }
        if self.ends(from, set, false).contains(&to) {
            return Illegal::LeavesTarget {
                point: u8::try_from(opposite(set)).unwrap_or(0),
                from: from_name,
                to: cell,
            };
        }
        Illegal::NotReachable {
            from: from_name,
            to: cell,
        }
    }
}
