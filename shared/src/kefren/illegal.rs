//! Why a well-formed Kefren move is not legal in a position, one reason per rule.

/// Why a well-formed Kefren move is not legal in a position: one variant per rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KefrenIllegal {
    #[error("the game is over")]
    GameOver,
    #[error("{cell} is not on the board (columns A-I, rows 1-19)")]
    OffBoard { cell: String },
    #[error("there is no stone on {cell}")]
    NoStone { cell: String },
    #[error("the stone on {cell} is not yours")]
    NotYourStone { cell: String },
    #[error("{cell} holds one of your own stones")]
    OwnStone { cell: String },
    #[error("{to} is not reachable from {from} with any pivot")]
    NotReachable { from: String, to: String },
    #[error("a capture is available: you must capture (for example {example})")]
    MustCapture { example: String },
    #[error("{from}:{to} captures backwards; captures must land on the same row or ahead")]
    CaptureBackwards { from: String, to: String },
    #[error("{from}-{to} does not capture; only a capture chain may have more than two cells")]
    NotACapture { from: String, to: String },
    #[error("the capture chain must go on from {at} (for example {example})")]
    ChainMustContinue { at: String, example: String },
}
