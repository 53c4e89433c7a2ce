//! turnpost's rule engines and everything about games that needs no I/O: notation parsers,
//! position text, board views for rendering, and the HTTP API's request/response types.
//!
//! Every game implements [`Game`]; [`AnyGame`] handles a game whose kind is known only at run time.
//! The root holds those two and the few types nearly every user names; the rest is by area:
//!
//! - [`api`]: the HTTP API's request and response bodies, one file an area (accounts, tokens,
//!   games, messages, notifications, ratings, tournaments, health, errors);
//! - [`games`]: the four engines (Kefren, Kechi, SanQi, Chinese Checkers) and their moves and
//!   cells;
//! - [`rules`]: what every engine is built from: the [`Game`] contract, options, notation
//!   lexing, errors, forced moves, replays, the rules for players;
//! - [`play`]: a game's life around the rules: clocks, leaving seats, conditional moves,
//!   messages, results and places, the record, the dice seed's commitment;
//! - [`render`]: boards for people, as text and SVG, and the words beside them;
//! - [`bot`]: the computer opponents;
//! - [`named_value`]: values known by fixed names ([`named_value!`]).

mod any_game;
pub mod api;
mod board_view;
mod bot_move;
mod clock;
mod conditional;
mod counted;
mod departure;
mod forced_moves;
mod free_text;
mod game;
mod game_history;
mod game_result;
mod game_status;
mod kind;
mod marked_moves;
mod mcts;
mod move_error;
mod move_list;
mod move_message;
pub mod named_value;
mod notation;
mod on_leave;
mod options;
mod placings;
mod players_rules;
mod position_error;
mod record;
pub mod render;
mod repetition;
mod result_reason;
mod seat;
mod seed_commitment;
mod status;

mod chinese_checkers;
mod kechi;
mod kefren;
mod sanqi;

pub use any_game::AnyGame;
pub use game::Game;
pub use kind::GameKind;
pub use move_error::MoveError;
pub use options::Options;
pub use record::GameRecord;
pub use seat::Seat;
pub use status::Status;

/// The computer opponents: Monte Carlo tree search over any [`Game`](crate::Game), guided by
/// each game's [`BotPolicy`](bot::BotPolicy); [`choose_move`](bot::choose_move) and its kin
/// play a game of any kind.
pub mod bot {
    pub use crate::bot_move::{analyse, analyse_knowing, choose_move, random_move};
    pub use crate::mcts::{
        analyse_typed, analyse_typed_knowing, choose_typed_move, final_values, logistic,
        portable_exp, random_typed_move, two_player_values, BadBotLevel, BotChoice, BotError,
        BotLevel, BotPolicy, SeatValues, SplitMix64, MAX_SEATS,
    };
}

/// The four engines, each with its move, cell and error types.
pub mod games {
    pub use crate::chinese_checkers::{
        ChineseCheckers, ChineseCheckersHole, ChineseCheckersIllegal, ChineseCheckersMove,
        ChineseCheckersMoveText,
    };
    pub use crate::kechi::{
        Kechi, KechiCell, KechiIllegal, KechiMoveText, KechiStoneMove, KechiTurn,
    };
    pub use crate::kefren::{Kefren, KefrenCell, KefrenIllegal, KefrenMove, KefrenMoveText};
    pub use crate::sanqi::{SanQi, SanQiCell, SanQiColour, SanQiIllegal, SanQiMove, SanQiMoveText};
}

/// What every engine is built from and checked by: the [`Game`](crate::Game) contract and
/// [`perft`], game options, the notation's lexer, the errors of moves and positions, forced
/// moves, replays of any kind, and each game's rules written for players.
pub mod rules {
    pub use crate::any_game::{EngineError, GameSnapshot, ReplayError};
    pub use crate::forced_moves::{ForcedContinuation, MAX_FORCED_MOVES};
    pub use crate::game::{perft, Game, PlayFailure};
    pub use crate::kind::UNKNOWN_GAME_KIND;
    pub use crate::move_error::MoveError;
    pub use crate::notation::{CellText, Cursor, ParseMoveError};
    pub use crate::options::{
        OptionError, OptionSpec, OptionValues, Options, RatedValues, PLAYERS_OPTION,
    };
    pub use crate::players_rules::rules_for_players;
    pub use crate::position_error::PositionError;
}

/// A game's life around its rules: the clock and what running out of time does, seats that
/// leave, conditional moves, the words sent with a move, how it ended and every seat's place,
/// the plain-text record and the commitment to the dice seed.
pub mod play {
    pub use crate::clock::{
        ClockError, ClockSpec, TimeoutMode, DEFAULT_DAYS_PER_MOVE, UNKNOWN_TIMEOUT_MODE,
    };
    pub use crate::conditional::{
        ConditionalError, ConditionalTree, Followed, MAX_CONDITIONAL_DEPTH, MAX_CONDITIONAL_NODES,
    };
    pub use crate::departure::{Departure, DepartureText, LeaveError, UnknownDeparture};
    pub use crate::free_text::{clean_line, is_hidden_char};
    pub use crate::game_result::{BadGameResult, GameResult};
    pub use crate::game_status::GameStatus;
    pub use crate::move_list::split_move_list;
    pub use crate::move_message::{clean_message, MessageError, MAX_MESSAGE_CHARS};
    pub use crate::on_leave::OnLeave;
    pub use crate::placings::placings;
    pub use crate::record::{GameRecord, RecordError, ReplayRecordError};
    pub use crate::repetition::{
        position_key, LengthEnding, PositionHistory, DEFAULT_MOVE_LIMIT, REPETITIONS,
    };
    pub use crate::result_reason::ResultReason;
    pub use crate::seed_commitment::seed_commitment;
}

// The table of games (`kind.rs`, `for_each_game!`) names each engine at the root.
pub(crate) use chinese_checkers::ChineseCheckers;
pub(crate) use kechi::Kechi;
pub(crate) use kefren::Kefren;
pub(crate) use sanqi::SanQi;
