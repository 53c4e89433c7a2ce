//! Why a well-formed SanQi move is not legal in a position, one reason per rule.

use super::colour::Colour;

/// Why a well-formed SanQi move is not legal in a position: one variant per rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanQiIllegal {
    /// Rules "Winning": no move after a win or a draw.
    #[error("the game is over: {result}")]
    GameOver { result: String },
    /// Rules "Board": the cell does not exist on this board.
    #[error(
        "{cell} is not on the board (side {side}: numbers 1-{span}, and a cell's letter index \
         and number differ by at most {gap})"
    )]
    OffBoard {
        cell: String,
        side: u8,
        span: u8,
        gap: u8,
    },
    /// Rules "Replace": the stone must change colour.
    #[error("{cell} already holds a {colour} stone: a replacement must change its colour")]
    SameColour { cell: String, colour: Colour },
    /// Rules "Ko".
    #[error(
        "ko: your opponent's last move landed on {cell}, so that stone cannot be replaced \
         this turn"
    )]
    Ko { cell: String },
    /// Rules "Replace": the neighbour count.
    #[error(
        "replacing the {current} stone on {cell} with {new} needs at least 2 more {new} than \
         {current} neighbours; it has {new_count} {new} and {current_count} {current}"
    )]
    NotEnoughNeighbours {
        cell: String,
        current: Colour,
        new: Colour,
        new_count: u8,
        current_count: u8,
    },
}
