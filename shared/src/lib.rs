//! turnpost's rule engines and everything about games that needs no I/O: notation parsers,
//! position text, board views for rendering, and the HTTP API's request/response types.
//!
//! Every game implements [`Game`]; [`AnyGame`] handles a game whose kind is known only at run time.

mod any_game;
mod api;
mod board_view;
mod game;
mod kind;
mod move_error;
mod notation;
mod options;
mod perft;
mod position_error;
mod render;
mod seat;
mod status;

mod kefren;

pub use any_game::{AnyGame, EngineError, GameSnapshot, ReplayError};
pub use api::{
    Account, CodeSent, ErrorBody, ErrorDetail, Health, NewToken, SignInRequest, SignUpRequest,
    TokenInfo, TokenList, VerifyRequest,
};
pub use board_view::{BoardView, CellContent, CellView, LabelView, PieceColour};
pub use game::{Game, PlayFailure};
pub use kind::{GameKind, UnknownGameKind};
pub use move_error::MoveError;
pub use notation::{CellText, Cursor, ParseMoveError};
pub use options::{OptionError, OptionSpec, OptionValues, Options};
pub use perft::perft;
pub use position_error::PositionError;
pub use render::{render_svg, render_text, TextStyle};
pub use seat::Seat;
pub use status::Status;

pub use kefren::{Kefren, KefrenCell, KefrenIllegal, KefrenMove, KefrenMoveText};
