use serde::{Deserialize, Serialize};

use crate::{
    BoardView, ChineseCheckers, Game, GameKind, Kechi, Kefren, MoveError, OptionError, OptionSpec,
    Options, PieceColour, PositionError, SanQi, Seat, Status,
};

/// A position of any implemented game, for code that learns the kind at run time (the server,
/// the CLI). Moves go in and out as text.
///
/// Serialises as a [`GameSnapshot`]: kind, canonical options and position text.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "GameSnapshot", into = "GameSnapshot")]
pub enum AnyGame {
    Kefren(Kefren),
    Kechi(Kechi),
    SanQi(SanQi),
    ChineseCheckers(ChineseCheckers),
}

/// Calls the same expression on whichever game `$any` holds.
macro_rules! dispatch {
    ($any:expr, $game:ident => $body:expr) => {
        match $any {
            AnyGame::Kefren($game) => $body,
            AnyGame::Kechi($game) => $body,
            AnyGame::SanQi($game) => $body,
            AnyGame::ChineseCheckers($game) => $body,
        }
    };
}

/// The serialised form of an [`AnyGame`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSnapshot {
    pub kind: GameKind,
    pub options: Options,
    pub position: String,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("{0} is not implemented yet")]
    NotImplemented(GameKind),
    #[error(transparent)]
    Options(#[from] OptionError),
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// A move of a game record that could not be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} `{text}`: {error}")]
pub struct ReplayError {
    /// 1-based number of the move in the list.
    pub number: usize,
    pub text: String,
    pub error: MoveError,
}

impl AnyGame {
    /// The start position of `kind` with `options`.
    ///
    /// # Errors
    /// [`EngineError::Options`] for options the game refuses (every kind has an engine now;
    /// [`EngineError::NotImplemented`] stays for kinds added later).
    pub fn new(kind: GameKind, options: &Options) -> Result<AnyGame, EngineError> {
        match kind {
            GameKind::Kefren => Ok(AnyGame::Kefren(Kefren::new(options)?)),
            GameKind::Kechi => Ok(AnyGame::Kechi(Kechi::new(options)?)),
            GameKind::SanQi => Ok(AnyGame::SanQi(SanQi::new(options)?)),
            GameKind::ChineseCheckers => {
                Ok(AnyGame::ChineseCheckers(ChineseCheckers::new(options)?))
            }
        }
    }

    /// Reads position text; its first word names the kind.
    ///
    /// # Errors
    /// [`EngineError::Position`] naming the bad field, [`EngineError::Options`] for bad options.
    pub fn from_position_text(options: &Options, text: &str) -> Result<AnyGame, EngineError> {
        let word = text.split_whitespace().next().unwrap_or("");
        let kind: GameKind = word.parse().map_err(|_| {
            PositionError::new(
                "kind",
                format!(
                    "expected a game kind (kefren, kechi, sanqi, chinese-checkers), found `{word}`"
                ),
            )
        })?;
        // Options are checked first so that an unknown key is reported as such.
        let _start = AnyGame::new(kind, options)?;
        match kind {
            GameKind::Kefren => Ok(AnyGame::Kefren(Kefren::from_position_text(options, text)?)),
            GameKind::Kechi => Ok(AnyGame::Kechi(Kechi::from_position_text(options, text)?)),
            GameKind::SanQi => Ok(AnyGame::SanQi(SanQi::from_position_text(options, text)?)),
            GameKind::ChineseCheckers => Ok(AnyGame::ChineseCheckers(
                ChineseCheckers::from_position_text(options, text)?,
            )),
        }
    }

    /// The options `kind` understands.
    pub fn option_specs(kind: GameKind) -> &'static [OptionSpec] {
        match kind {
            GameKind::Kefren => Kefren::option_specs(),
            GameKind::Kechi => Kechi::option_specs(),
            GameKind::SanQi => SanQi::option_specs(),
            GameKind::ChineseCheckers => ChineseCheckers::option_specs(),
        }
    }

    /// Plays a list of move texts from this position.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first move that cannot be played, numbered from 1.
    pub fn replay<S: AsRef<str>>(&self, moves: &[S]) -> Result<AnyGame, ReplayError> {
        let mut game = self.clone();
        for (index, text) in moves.iter().enumerate() {
            game = game
                .play(text.as_ref())
                .map(|(next, _)| next)
                .map_err(|error| ReplayError {
                    number: index + 1,
                    text: text.as_ref().to_string(),
                    error,
                })?;
        }
        Ok(game)
    }

    pub fn kind(&self) -> GameKind {
        dispatch!(self, game => kind_of(game))
    }

    /// Every option with its value, defaults included.
    pub fn options(&self) -> Options {
        dispatch!(self, game => game.options())
    }

    pub fn seat_count(&self) -> u8 {
        dispatch!(self, game => game.seat_count())
    }

    /// How people call a seat in this game: "Black (seat 1)".
    pub fn seat_name(&self, seat: Seat) -> String {
        dispatch!(self, game => game.seat_name(seat))
    }

    /// What `seat` plays for, in one line addressed to its player.
    pub fn goal(&self, seat: Seat) -> String {
        dispatch!(self, game => game.goal(seat))
    }

    /// The colour a seat's last moves are marked in.
    pub fn seat_colour(&self, seat: Seat) -> PieceColour {
        dispatch!(self, game => game.seat_colour(seat))
    }

    /// The board with each move of `moves` (seat, move text; oldest first) marked in its
    /// seat's colour: how the CLI, mails and pictures show the moves since a player's last turn.
    pub fn board_view_with_moves<'a>(
        &self,
        moves: impl IntoIterator<Item = (Seat, &'a str)>,
    ) -> BoardView {
        let mut view = self.board_view();
        for (seat, text) in moves {
            view.mark_move(text, self.seat_colour(seat));
        }
        view
    }

    pub fn status(&self) -> Status {
        dispatch!(self, game => game.status())
    }

    pub fn scores(&self) -> Option<Vec<i64>> {
        dispatch!(self, game => game.scores())
    }

    /// The canonical texts of every legal move, sorted by byte order.
    pub fn legal_moves(&self) -> Vec<String> {
        dispatch!(self, game => {
            let mut texts: Vec<String> =
                game.legal_moves().iter().map(|mv| game.format_move(mv)).collect();
            texts.sort();
            texts
        })
    }

    /// The canonical text of the legal move that `text` means.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] with offset and expectation, or [`MoveError::Illegal`] with the rule.
    pub fn canonical_move(&self, text: &str) -> Result<String, MoveError> {
        dispatch!(self, game => game.resolve_text(text).map(|mv| game.format_move(&mv)))
    }

    /// Plays a move text; returns the next position and the move's canonical text.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] or [`MoveError::Illegal`]; `self` is unchanged.
    pub fn play(&self, text: &str) -> Result<(AnyGame, String), MoveError> {
        dispatch!(self, game => {
            let mv = game.resolve_text(text)?;
            Ok((AnyGame::from(game.play_move(&mv)), game.format_move(&mv)))
        })
    }

    pub fn position_text(&self) -> String {
        dispatch!(self, game => game.position_text())
    }

    pub fn board_view(&self) -> BoardView {
        dispatch!(self, game => game.board_view())
    }

    pub fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, game => game.perft(depth))
    }

    pub fn snapshot(&self) -> GameSnapshot {
        GameSnapshot {
            kind: self.kind(),
            options: self.options(),
            position: self.position_text(),
        }
    }
}

fn kind_of<G: Game>(_: &G) -> GameKind {
    G::KIND
}

impl From<Kefren> for AnyGame {
    fn from(game: Kefren) -> AnyGame {
        AnyGame::Kefren(game)
    }
}

impl From<Kechi> for AnyGame {
    fn from(game: Kechi) -> AnyGame {
        AnyGame::Kechi(game)
    }
}

impl From<SanQi> for AnyGame {
    fn from(game: SanQi) -> AnyGame {
        AnyGame::SanQi(game)
    }
}

impl From<ChineseCheckers> for AnyGame {
    fn from(game: ChineseCheckers) -> AnyGame {
        AnyGame::ChineseCheckers(game)
    }
}

impl From<AnyGame> for GameSnapshot {
    fn from(game: AnyGame) -> GameSnapshot {
        game.snapshot()
    }
}

impl TryFrom<GameSnapshot> for AnyGame {
    type Error = EngineError;

    fn try_from(snapshot: GameSnapshot) -> Result<AnyGame, EngineError> {
        let game = AnyGame::from_position_text(&snapshot.options, &snapshot.position)?;
        if game.kind() == snapshot.kind {
            Ok(game)
        } else {
            Err(EngineError::Position(PositionError::new(
                "kind",
                format!(
                    "the position is of {} but the snapshot says {}",
                    game.kind(),
                    snapshot.kind
                ),
            )))
        }
    }
}
