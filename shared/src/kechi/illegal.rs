//! Why a well-formed Kechi turn is not legal in a position, one reason per rule.

/// Why a well-formed Kechi turn is not legal in a position: one variant per rule
/// (rules: "A turn").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KechiIllegal {
    #[error("the game is over")]
    GameOver,
    #[error("{cell} is not a cell of this board: cells lie on rows {rows} and columns {columns}")]
    OffBoard {
        cell: String,
        rows: String,
        columns: String,
    },
    #[error("there is no stone on {cell}")]
    NoStone { cell: String },
    #[error("the stone on {cell} is your opponent's")]
    EnemyStone { cell: String },
    #[error("the stone on {cell} moves twice: each stone moves at most once in a turn")]
    MovedTwice { cell: String },
    #[error("{cell}-{cell} does not move: every moving stone goes a positive distance")]
    NoDistance { cell: String },
    #[error("{cell} is marked (a stone has left it), so no stone may land on it")]
    LandsOnMarked { cell: String },
    #[error("{cell} holds one of your own stones at the start of the turn")]
    LandsOnFriendly { cell: String },
    #[error("{cell} is left by another of your stones in this turn and is marked at once")]
    LandsOnVacated { cell: String },
    #[error("{to} is {distance} steps from {from}: more than the turn's total of {total}")]
    TooFar {
        from: String,
        to: String,
        distance: u8,
        total: u8,
    },
    #[error("two stones land on {cell}")]
    SameLanding { cell: String },
    #[error("the distances add up to {sum} ({moves}), not to the turn's total of {total}")]
    WrongTotal { moves: String, sum: u32, total: u8 },
}
