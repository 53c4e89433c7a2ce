//! Why a well-formed Chinese Checkers move is not legal in a position, one reason per rule.

/// Why a well-formed Chinese Checkers move is not legal in a position: one variant per rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChineseCheckersIllegal {
    #[error("the game is over")]
    GameOver,
    #[error("{cell} is not on the board (rows A-Q; see the board for each row's numbers)")]
    OffBoard { cell: String },
    #[error("you have no legal move: the only legal move is \"pass\"")]
    MustPass,
    #[error("you may pass only when you have no legal move (you have, for example {example})")]
    PassNotAllowed { example: String },
    #[error("there is no peg on {cell}")]
    NoPeg { cell: String },
    #[error("the peg on {cell} is inert: it never moves")]
    InertPeg { cell: String },
    #[error("the peg on {cell} is not yours: it is of set {set}, played by seat {seat}")]
    ForeignPeg { cell: String, set: u8, seat: u8 },
    #[error("a move may not end on the hole it started from ({cell})")]
    BackToStart { cell: String },
    #[error("{cell} is taken: a move ends on an empty hole")]
    Occupied { cell: String },
    #[error(
        "{cell} holds another player's peg in your target, but a swap is allowed only when \
         your target has no empty hole"
    )]
    SwapTargetNotFull { cell: String },
    #[error("{to} cannot be reached from {from} by a step or a chain of hops")]
    NotReachable { from: String, to: String },
    #[error("{from}-{to} is a step: a step is a whole move and cannot be part of a hop chain")]
    StepInChain { from: String, to: String },
    #[error("hop {number} ({from}-{to}) is not a hop: {why}")]
    NotAHop {
        number: usize,
        from: String,
        to: String,
        why: String,
    },
    #[error("hop {number} lands on {cell} a second time: a chain never lands twice on a hole")]
    HoleTwice { number: usize, cell: String },
    #[error("hop {number} lands back on {cell}, where the move started")]
    ChainBackToStart { number: usize, cell: String },
    #[error(
        "target lock: a peg in its target (point {point}) may not leave it, and every way \
         from {from} to {to} would"
    )]
    LeavesTarget { point: u8, from: String, to: String },
    #[error(
        "target lock: hop {number} ({from}-{to}) leaves the peg's target (point {point}); \
         a peg in its target may only hop within it"
    )]
    LeavesTargetInChain {
        number: usize,
        point: u8,
        from: String,
        to: String,
    },
    #[error(
        "{cell} is in point {point}, another player's start or target: a move may not end \
         there (hopping through is allowed)"
    )]
    RestsInForeignPoint { cell: String, point: u8 },
}
