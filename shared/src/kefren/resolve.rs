//! Resolution: a move text against a position gives a legal move or the rule it breaks.

use crate::notation::CellText;

use super::board::{not_backwards, Kefren, EMPTY};
use super::cell::Cell;
use super::illegal::KefrenIllegal;
use super::move_text::{format_move, KefrenMoveText};
use super::moves::{capture_targets, step, KefrenMove};
use super::twirl::can_twirl;

fn cell_of(text: &CellText) -> Result<Cell, KefrenIllegal> {
    i32::try_from(text.number)
        .ok()
        .and_then(|number| Cell::at(i32::from(text.letter), number - 1))
        .ok_or_else(|| KefrenIllegal::OffBoard {
            cell: text.name('a', true),
        })
}

impl Kefren {
    pub(crate) fn resolve(&self, text: &KefrenMoveText) -> Result<KefrenMove, KefrenIllegal> {
        if !self.has_move() || self.rank_winner().is_some() {
            return Err(KefrenIllegal::GameOver);
        }
        let cells = text
            .cells
            .iter()
            .map(cell_of)
            .collect::<Result<Vec<Cell>, KefrenIllegal>>()?;
        let (&from, rest) = cells.split_first().ok_or(KefrenIllegal::GameOver)?;
        match self.at(from) {
            EMPTY => {
                return Err(KefrenIllegal::NoStone {
                    cell: from.to_string(),
                })
            }
            stone if stone != self.side => {
                return Err(KefrenIllegal::NotYourStone {
                    cell: from.to_string(),
                })
            }
            _ => {}
        }
        let legal = self.generate();
        if let Some(mv) = legal.iter().find(|mv| mv.cells() == cells) {
            return Ok(mv.clone());
        }
        Err(self.diagnose(from, rest, &legal))
    }

    /// Walks the written cells to find the first rule they break.
    fn diagnose(&self, from: Cell, rest: &[Cell], legal: &[KefrenMove]) -> KefrenIllegal {
        let colour = self.side;
        let mut cells = self.cells;
        let mut at = from;
        for &to in rest {
            let stone = cells.get(to.index()).copied().unwrap_or(EMPTY);
            if stone == colour {
                return KefrenIllegal::OwnStone {
                    cell: to.to_string(),
                };
            }
            if !can_twirl(&cells, at, to, colour) {
                return KefrenIllegal::NotReachable {
                    from: at.to_string(),
                    to: to.to_string(),
                };
            }
            if stone == EMPTY {
                if rest.len() > 1 {
                    return KefrenIllegal::NotACapture {
                        from: at.to_string(),
                        to: to.to_string(),
                    };
                }
                let mut captures: Vec<String> = legal.iter().map(format_move).collect();
                captures.sort();
                return KefrenIllegal::MustCapture {
                    example: captures.into_iter().next().unwrap_or_default(),
                };
            }
            if !not_backwards(colour, at, to) {
                return KefrenIllegal::CaptureBackwards {
                    from: at.to_string(),
                    to: to.to_string(),
                };
            }
            step(&mut cells, at, to, colour);
            at = to;
        }
        match capture_targets(&cells, at, colour).first() {
            Some(next) => KefrenIllegal::ChainMustContinue {
                at: at.to_string(),
                example: format!("{at}:{next}"),
            },
            None => KefrenIllegal::NotReachable {
                from: from.to_string(),
                to: at.to_string(),
            },
        }
    }
}
