//! The contract every rule engine implements (the `Game` trait): start from options, whose turn,
//! legal moves, parse → resolve → play, status and scores.

use std::fmt::Debug;

use crate::{
    board_view::BoardView, board_view::PieceColour, notation::ParseMoveError, options::OptionError,
    options::OptionSpec, position_error::PositionError, GameKind, MoveError, Options, Seat, Status,
};

/// The contract every rule engine implements. A value is one position of one game variant:
/// immutable, cheap to clone, and playing a move gives a new value.
///
/// Moves go through three steps, kept apart so errors say exactly what is wrong:
/// 1. [`Game::parse_move`]: text to [`Game::MoveText`] (syntax only, errors with byte offsets);
/// 2. [`Game::resolve_move`]: move text and position to a legal [`Game::Move`] (or the rule it
///    breaks);
/// 3. [`Game::play_move`]: a legal move to the next position.
pub trait Game: Clone + Debug + Sized + Send + Sync + 'static {
    /// A legal move, as produced by [`Game::legal_moves`] and [`Game::resolve_move`].
    type Move: Clone + Debug + PartialEq + Eq;
    /// What a move text says, before it is checked against a position.
    type MoveText: Clone + Debug + PartialEq + Eq;
    /// Why a move text is not legal in a position: one variant per rule.
    type Illegal: std::error::Error + Clone;

    const KIND: GameKind;

    /// The rules written for players (Markdown, the game folder's `PLAYING.md`): see
    /// [`crate::rules_for_players`].
    const RULES_FOR_PLAYERS: &'static str;

    /// The options this game understands, with their defaults.
    fn option_specs() -> &'static [OptionSpec];

    /// The start position of the variant described by `options` (the seed, where a variant is
    /// random, is the option `seed`).
    ///
    /// # Errors
    /// An [`OptionError`] naming the key: unknown, bad value, or a combination the rules refuse.
    fn new(options: &Options) -> Result<Self, OptionError>;

    /// The start position of the variant described by `options` when the dice seed is not
    /// drawn yet (a challenge on a server): engines with dice override this (see
    /// [`crate::AnyGame::new_seed_withheld`]); the others start as with [`Game::new`].
    ///
    /// # Errors
    /// As [`Game::new`].
    fn new_seed_withheld(options: &Options) -> Result<Self, OptionError> {
        Self::new(options)
    }

    /// Every option of this game with its value, defaults included (the canonical form).
    fn options(&self) -> Options;

    /// Number of seats (players).
    fn seat_count(&self) -> u8;

    /// How people call a seat in this game: "Black (seat 1)".
    fn seat_name(&self, seat: Seat) -> String {
        format!("seat {seat}")
    }

    /// Whether a seat can leave while three or more seats are playing and the game goes on
    /// without it (the engine then implements [`Game::leave`] and [`Game::departed`], and its
    /// position text says who has left). Where it cannot (two-seat games), leaving always ends
    /// the game, and [`crate::AnyGame`] records that for every kind.
    const PLAYS_ON_AFTER_DEPARTURES: bool = false;

    /// Whether a position can stand again later in the same game, so that the draw by
    /// threefold repetition ([`crate::play::PositionHistory`]) can apply. Kechi answers no:
    /// every turn marks a cell for good, so no two positions of a game are the same.
    const POSITIONS_RECUR: bool = true;

    /// The most moves (forced passes included, departures not) a game of this variant may
    /// last: the move that reaches it ends the game drawn by the move limit, unless the rules
    /// ended it. See [`crate::play::DEFAULT_MOVE_LIMIT`]; engines whose games run longer
    /// (more seats) answer more.
    fn move_limit(&self) -> u32 {
        crate::repetition::DEFAULT_MOVE_LIMIT
    }

    /// The seats that have left, first to leave first.
    fn departed(&self) -> Vec<Seat> {
        Vec::new()
    }

    /// The position after `seat` leaves: a seat of this game, still playing, in a game not
    /// over ([`crate::AnyGame::leave`] checks all three). With one seat left playing, that
    /// seat has won. `None` from engines without departures (the default), and where the seat
    /// cannot leave.
    fn leave(&self, seat: Seat) -> Option<Self> {
        let _ = seat;
        None
    }

    /// What `seat` plays for, in one line addressed to that seat's player ("you win with …"),
    /// for `turnpost show`, turn mails and the web page.
    fn goal(&self, seat: Seat) -> String;

    /// What `seat` plays for, said of the seat to anyone ("Black wins with …"): the public
    /// game page shows it to spectators, who are not the seat's player.
    fn public_goal(&self, seat: Seat) -> String;

    /// The colour a seat's last moves are marked in: its pieces' colour, where it has one.
    fn seat_colour(&self, seat: Seat) -> PieceColour;

    /// Ongoing with the seat to move, won, or drawn.
    fn status(&self) -> Status;

    /// Scores, one per seat, where the variant keeps score.
    fn scores(&self) -> Option<Vec<i64>> {
        None
    }

    /// Every legal move, each exactly once; empty when the game is over.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// The move the seat to move must make because the rules leave it no choice and let it be
    /// made for the player (a forced `pass`); `None` when the player has a choice or the game
    /// is over. A server plays such moves itself instead of waiting for the player.
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }

    /// The number of legal moves (engines override this with a faster count for perft).
    fn count_moves(&self) -> u64 {
        self.legal_moves().len() as u64
    }

    /// Reads a move text (syntax only). Lenient: case, spaces, alternative separators.
    ///
    /// # Errors
    /// A [`ParseMoveError`] with the byte offset and what was expected there.
    fn parse_move(&self, text: &str) -> Result<Self::MoveText, ParseMoveError>;

    /// Finds the legal move a move text means in this position.
    ///
    /// # Errors
    /// [`Game::Illegal`] naming the rule the move breaks.
    fn resolve_move(&self, text: &Self::MoveText) -> Result<Self::Move, Self::Illegal>;

    /// The position after `mv`, which must be legal here (from `legal_moves` or `resolve_move`).
    fn play_move(&self, mv: &Self::Move) -> Self;

    /// The canonical text of a legal move.
    fn format_move(&self, mv: &Self::Move) -> String;

    /// The one-line position text, starting with the kind's name.
    fn position_text(&self) -> String;

    /// Reads position text printed by [`Game::position_text`], for the variant in `options`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field that is not a possible position of this game.
    fn from_position_text(options: &Options, text: &str) -> Result<Self, PositionError>;

    /// Reads position text of a game whose dice seed is withheld, as a server shows a running
    /// game (see [`crate::AnyGame::from_position_text_seed_withheld`]): engines with dice
    /// override this; the others read as with [`Game::from_position_text`].
    ///
    /// # Errors
    /// As [`Game::from_position_text`].
    fn from_position_text_seed_withheld(
        options: &Options,
        text: &str,
    ) -> Result<Self, PositionError> {
        Self::from_position_text(options, text)
    }

    /// The position as a game-independent picture for the text and SVG renderers.
    fn board_view(&self) -> BoardView;

    /// The number of move sequences of length `depth` (engines may override with a faster count).
    fn perft(&self, depth: u32) -> u64 {
        perft(self, depth)
    }

    /// Parses and resolves a move text: the legal move it means.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] with offset and expectation, or [`MoveError::Illegal`] with the rule.
    fn resolve_text(&self, text: &str) -> Result<Self::Move, MoveError> {
        let parsed = self.parse_move(text).map_err(MoveError::Syntax)?;
        self.resolve_move(&parsed)
            .map_err(|illegal| MoveError::Illegal {
                reason: illegal.to_string(),
            })
    }

    /// Parses, resolves and plays a move text.
    ///
    /// # Errors
    /// On a syntax error or an illegal move, the unchanged position comes back with the error.
    fn play(self, text: &str) -> Result<Self, PlayFailure<Self>> {
        match self.resolve_text(text) {
            Ok(mv) => Ok(self.play_move(&mv)),
            Err(error) => Err(PlayFailure {
                position: self,
                error,
            }),
        }
    }

    /// The seat to move, if the game goes on.
    fn to_move(&self) -> Option<Seat> {
        self.status().to_move()
    }
}

/// A move that could not be played, with the position it was tried on, unchanged.
#[derive(Clone, Debug)]
pub struct PlayFailure<G> {
    pub position: G,
    pub error: MoveError,
}

/// Counts the move sequences of length `depth` from `game`, counting the last ply in bulk: the
/// generic count over [`Game::legal_moves`] and [`Game::play_move`] behind [`Game::perft`]'s
/// default, which engines' faster counts are checked against. A finished game has no moves,
/// so it contributes nothing past depth 0.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_moves(),
        _ => game
            .legal_moves()
            .iter()
            .map(|mv| perft(&game.play_move(mv), depth - 1))
            .sum(),
    }
}
