//! turnpost's rule engines and everything about games that needs no I/O: notation parsers,
//! position text, board views for rendering, and the HTTP API's request/response types.
//!
//! Every game implements [`Game`]; [`AnyGame`] handles a game whose kind is known only at run time.

mod any_game;
mod api;
mod board_view;
mod bot;
mod bot_move;
mod clock;
mod conditional;
mod counted;
mod departure;
mod forced_moves;
mod game;
mod game_result;
mod game_status;
mod kind;
mod marked_moves;
mod move_error;
mod move_list;
mod move_message;
mod notation;
mod notification_api;
mod on_leave;
mod options;
mod placings;
mod players_rules;
mod position_error;
mod rating_api;
mod record;
mod render;
mod result_reason;
mod seat;
mod seed_commitment;
mod status;
mod tournament_api;

mod chinese_checkers;
mod kechi;
mod kefren;
mod sanqi;

pub use any_game::{AnyGame, EngineError, GameSnapshot, ReplayError};
pub use api::{
    Account, ActionMessage, ChallengeList, CodeSent, ConditionalMoves, CreateGameRequest,
    DrawAction, DrawRequest, ErrorBody, ErrorDetail, GameList, GameSummary, GameView, Health,
    MessageAction, MessageMutes, MessageView, MoveList, MoveView, NewToken, OptionValue,
    PlayMoveRequest, RatingChanges, SeatRating, SeatView, SignInRequest, SignUpRequest, TokenInfo,
    TokenList, VerifyRequest, OPEN_SEAT,
};
pub use board_view::{BoardView, CellContent, CellView, LabelView, PieceColour};
pub use bot::{
    analyse_typed, choose_typed_move, final_values, logistic, portable_exp, random_typed_move,
    two_player_values, BadBotLevel, BotChoice, BotError, BotLevel, BotPolicy, SeatValues,
    SplitMix64, MAX_SEATS,
};
pub use bot_move::{analyse, choose_move, random_move};
pub use clock::{ClockError, ClockSpec, TimeoutMode, DEFAULT_DAYS_PER_MOVE, UNKNOWN_TIMEOUT_MODE};
pub use conditional::{
    ConditionalError, ConditionalTree, Followed, MAX_CONDITIONAL_DEPTH, MAX_CONDITIONAL_NODES,
};
pub use counted::counted;
pub use departure::{Departure, DepartureText, LeaveError, UnknownDeparture};
pub use forced_moves::{ForcedContinuation, MAX_FORCED_MOVES};
pub use game::{perft, Game, PlayFailure};
pub use game_result::{BadGameResult, GameResult};
pub use game_status::{GameStatus, UnknownGameStatus};
pub use kind::{GameKind, UnknownGameKind, UNKNOWN_GAME_KIND};
pub use marked_moves::moves_to_mark;
pub use move_error::MoveError;
pub use move_list::split_move_list;
pub use move_message::{clean_message, MessageError, MAX_MESSAGE_CHARS};
pub use notation::{CellText, Cursor, ParseMoveError};
pub use notification_api::{
    CategoriesPatch, NotificationCategories, NotificationSettings, NotificationSettingsPatch,
    TurnMail, UnknownTurnMail, Vacation, VacationRequest,
};
pub use on_leave::{OnLeave, UnknownOnLeave};
pub use options::{OptionError, OptionSpec, OptionValues, Options, RatedValues, PLAYERS_OPTION};
pub use placings::placings;
pub use players_rules::rules_for_players;
pub use position_error::PositionError;
pub use rating_api::{KindRating, Leaderboard, LeaderboardEntry, PlayerProfile, RatingPoint};
pub use record::{GameRecord, RecordError, ReplayRecordError};
pub use render::{render_svg, render_text, svg_cell_pitch, svg_size, TextStyle};
pub use result_reason::{ResultReason, UnknownResultReason};
pub use seat::Seat;
pub use seed_commitment::seed_commitment;
pub use status::Status;
pub use tournament_api::{
    CreateTournamentRequest, EntrantView, RoundView, StandingView, TournamentFormat,
    TournamentGameView, TournamentList, TournamentStatus, TournamentSummary, TournamentView,
};

pub use chinese_checkers::{
    ChineseCheckers, ChineseCheckersHole, ChineseCheckersIllegal, ChineseCheckersMove,
    ChineseCheckersMoveText,
};
pub use kechi::{Kechi, KechiCell, KechiIllegal, KechiMoveText, KechiStoneMove, KechiTurn};
pub use kefren::{Kefren, KefrenCell, KefrenIllegal, KefrenMove, KefrenMoveText};
pub use sanqi::{SanQi, SanQiCell, SanQiColour, SanQiIllegal, SanQiMove, SanQiMoveText};
