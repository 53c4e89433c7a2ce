//! `GameError`: why a game operation was refused, whichever channel asked (HTTP, a mail reply,
//! a bot). The HTTP layer maps it to statuses and codes in one place (`crate::http::error`).

use turnpost_shared::api::GameView;
use turnpost_shared::MoveError;

use super::GameStatus;

use crate::db::DbError;

/// Why a game operation did not happen. The variants that carry the current game let a caller
/// catch up without another read.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// No game with this id.
    #[error("there is no game {game_id}")]
    NotFound {
        /// The id asked for.
        game_id: i64,
    },
    /// The actor holds no seat in the game.
    #[error("you have no seat in game {game_id}")]
    NotYourGame {
        /// The game.
        game_id: i64,
    },
    /// Another seat is to move.
    #[error("it is seat {to_move}'s turn, not yours (seat {seat})")]
    NotYourTurn {
        /// The seat to move.
        to_move: i32,
        /// The actor's seat.
        seat: i32,
    },
    /// The move was meant for a later ply than the game is at.
    #[error("the game is at ply {current}, not {asked}")]
    StalePly {
        /// The game's ply.
        current: i32,
        /// The ply the move was meant for.
        asked: i32,
        /// The game as it stands.
        game: Box<GameView>,
    },
    /// Another move was already played at that ply.
    #[error("ply {asked} is already played; the game is at ply {current}")]
    MoveTaken {
        /// The game's ply.
        current: i32,
        /// The ply the move was meant for.
        asked: i32,
        /// The game as it stands.
        game: Box<GameView>,
    },
    /// The challenge is still waiting for players.
    #[error("game {game_id} waits for its players to accept")]
    NotStarted {
        /// The game.
        game_id: i64,
        /// The game as it stands.
        game: Box<GameView>,
    },
    /// A move in a game that is over (or that just ended on time, committed before answering).
    #[error("{message}")]
    GameOver {
        /// What ended it.
        message: String,
        /// The game as it stands.
        game: Box<GameView>,
    },
    /// A move came after the seat to move ran out of time in an `auto` game of three or more
    /// seats: that seat left and the game goes on (committed before answering).
    #[error("{message}")]
    LeftOnTime {
        /// Who left and who is to move now.
        message: String,
        /// The game as it stands.
        game: Box<GameView>,
    },
    /// The actor's seat has left the game (it resigned or ran out of time) and takes no
    /// further part in it.
    #[error("you left game {game_id} (seat {seat}); the game goes on without you")]
    LeftGame {
        /// The game.
        game_id: i64,
        /// The actor's seat.
        seat: i32,
    },
    /// The engine refused the move text.
    #[error("{0}")]
    Illegal(MoveError),
    /// Resigning, offering a draw or claiming in a game that is not being played.
    #[error("game {game_id} is {status}, not being played")]
    NotActive {
        /// The game.
        game_id: i64,
        /// Its status as shown.
        status: GameStatus,
    },
    /// Accepting or declining a game that is no longer a challenge.
    #[error("game {game_id} is {status}, no longer a challenge")]
    NotAChallenge {
        /// The game.
        game_id: i64,
        /// Its status.
        status: GameStatus,
    },
    /// Accepting or declining a lapsed challenge.
    #[error("the challenge to game {game_id} expired")]
    ChallengeExpired {
        /// The game.
        game_id: i64,
    },
    /// Joining an open challenge in which the actor already holds a seat.
    #[error("you already hold seat {seat} of game {game_id}; each player holds one seat")]
    AlreadySeated {
        /// The game.
        game_id: i64,
        /// The actor's seat.
        seat: i32,
    },
    /// Joining a challenge with no open seat left to take.
    #[error("game {game_id} has no open seat left to take")]
    NoOpenSeat {
        /// The game.
        game_id: i64,
    },
    /// Leaving a seat one was named for rather than one taken as open.
    #[error(
        "you were invited to seat {seat} of game {game_id}, not joined it as an open seat: \
         decline the challenge instead"
    )]
    NotAnOpenSeat {
        /// The game.
        game_id: i64,
        /// The actor's seat.
        seat: i32,
    },
    /// A rematch of a game that is not finished.
    #[error("game {game_id} is {status}; a rematch follows a finished game")]
    NotFinished {
        /// The game.
        game_id: i64,
        /// Its status as shown.
        status: GameStatus,
    },
    /// No win on time to claim, and why.
    #[error("no win on time to claim in game {game_id}: {why}")]
    NotClaimable {
        /// The game.
        game_id: i64,
        /// Why not.
        why: String,
    },
    /// Accepting or declining a draw nobody offered.
    #[error("your opponent has not offered a draw")]
    NoDrawOffer,
    /// Offering a draw while another seat's offer stands. Players read this in mail replies
    /// and on pages too, so it names the commands of the CLI and of mail, not the API's JSON.
    #[error(
        "your opponent already offers a draw in game {game_id}: accept it instead \
         (turnpost draw accept {game_id}, or reply draw accept)"
    )]
    DrawOffered {
        /// The game.
        game_id: i64,
    },
    /// A challenge's options are refused (the message names the key).
    #[error("{0}")]
    InvalidOptions(String),
    /// A challenge names more or fewer players than the game has seats.
    #[error("{0}")]
    SeatCount(String),
    /// A challenge names a player who does not exist (or has not finished signing up).
    #[error("there is no player called {name}")]
    UnknownPlayer {
        /// The name as given.
        name: String,
    },
    /// No account has this name (a player's ratings asked for).
    #[error("there is no player called {name}")]
    NoSuchPlayer {
        /// The name as given.
        name: String,
    },
    /// A rating kind that does not exist (a leaderboard asked for).
    #[error("{0}")]
    UnknownRatingKind(String),
    /// A challenge names one player for two seats.
    #[error("{name} is named for two seats; each player holds one seat")]
    DuplicatePlayer {
        /// The name.
        name: String,
    },
    /// A challenge that does not seat its maker.
    #[error("name yourself ({name}) for one of the seats")]
    CreatorNotSeated {
        /// The maker's name.
        name: String,
    },
    /// A challenge whose seats are all built-in bots: a bot game needs a person in it.
    #[error("every seat named ({names}) is a bot; name at least one person (yourself) for a seat")]
    BotsOnly {
        /// The names given.
        names: String,
    },
    /// A challenge with a bot from someone who has as many bot games at once as the server
    /// allows.
    #[error(
        "this server allows {cap} games against bots at once per player, and you have that \
         many: finish or resign one (or let a challenge expire) before challenging a bot again"
    )]
    BotGamesLimit {
        /// The most bot games one account may have at once.
        cap: u32,
    },
    /// A challenge with an open seat from someone who has as many open challenges waiting as
    /// the server allows (so that a few accounts cannot fill the lobby).
    #[error(
        "you have {cap} open challenges waiting for players, the most one player may post at          once: wait until one is taken or lapses, or cancel one, before posting another"
    )]
    OpenChallengesLimit {
        /// The most open challenges one account may have waiting.
        cap: u32,
    },
    /// A clock spec that does not read.
    #[error("{0}")]
    InvalidClock(String),
    /// Taking no vacation days.
    #[error("take at least 1 vacation day")]
    InvalidVacation,
    /// Taking more vacation days than are left.
    #[error("you have {left} of {per_year} vacation days left in {year}, not {asked}")]
    VacationExhausted {
        /// Days left this year.
        left: u32,
        /// Days per year.
        per_year: u32,
        /// The year.
        year: i32,
        /// Days asked for.
        asked: u32,
    },
    /// Conditional moves refused: the game takes none, or a line fails (the message names the
    /// line, the move and the engine's reason).
    #[error("{0}")]
    BadConditional(String),
    /// A message sent with an action is refused (too long): nothing was done.
    #[error("{0}")]
    BadMessage(String),
    /// A concurrent request changed the same rows (a unique key held where no lock did).
    #[error("a concurrent request changed the same data; read it again and retry")]
    Conflict,
    /// Storage failed, or a stored value is unreadable.
    #[error(transparent)]
    Storage(DbError),
}

crate::db::conflict_or_storage!(GameError);
