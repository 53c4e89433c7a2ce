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
        self.walk(from, rest)
    }

    /// Follows the written cells segment by segment: a single twirl onto an empty cell, or a
    /// chain of captures that ends where the stone has no capture left. Returns the move, or
    /// the first rule the text breaks.
    fn walk(&self, from: Cell, rest: &[Cell]) -> Result<KefrenMove, KefrenIllegal> {
        let colour = self.side;
        let mut cells = self.cells;
        let mut at = from;
        for &to in rest {
            let stone = cells.get(to.index()).copied().unwrap_or(EMPTY);
            if stone == colour {
                return Err(KefrenIllegal::OwnStone {
                    cell: to.to_string(),
                });
            }
            if !can_twirl(&cells, at, to, colour) {
                return Err(KefrenIllegal::NotReachable {
                    from: at.to_string(),
                    to: to.to_string(),
                });
            }
            if stone == EMPTY {
                if rest.len() > 1 {
                    return Err(KefrenIllegal::NotACapture {
                        from: at.to_string(),
                        to: to.to_string(),
                    });
                }
                if self.capture_available() {
                    let mut captures: Vec<String> =
                        self.generate().iter().map(format_move).collect();
                    captures.sort();
                    return Err(KefrenIllegal::MustCapture {
                        example: captures.into_iter().next().unwrap_or_default(),
                    });
                }
                return Ok(KefrenMove::Twirl { from, to });
            }
            if !not_backwards(colour, at, to) {
                return Err(KefrenIllegal::CaptureBackwards {
                    from: at.to_string(),
                    to: to.to_string(),
                });
            }
            step(&mut cells, at, to, colour);
            at = to;
        }
        match capture_targets(&cells, at, colour).first() {
            Some(next) => Err(KefrenIllegal::ChainMustContinue {
                at: at.to_string(),
                example: format!("{at}:{next}"),
            }),
            None => {
                let mut path = vec![from];
                path.extend_from_slice(rest);
                Ok(KefrenMove::Capture { path })
            }
        }
    }
}
