//! A position of any implemented game, chosen at run time: the dispatch the server and the CLI use
//! when they learn the game's kind from a record, a request or the command line.

use serde::{Deserialize, Serialize};

use crate::kind::for_each_game;
use crate::{
    board_view::BoardView, board_view::PieceColour, departure::Departure, departure::DepartureText,
    departure::LeaveError, options::OptionError, options::OptionSpec, placings::placings,
    position_error::PositionError, Game, GameKind, MoveError, Options, Seat, Status,
};

/// A position of any implemented game, for code that learns the kind at run time (the server,
/// the CLI). Moves and departures (`resign 2`, see [`Departure`]) go in and out as text.
///
/// Serialises as a [`GameSnapshot`]: kind, canonical options and position text.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(try_from = "GameSnapshot", into = "GameSnapshot")]
pub struct AnyGame {
    engine: Engine,
    /// The seat whose departure ended the game, in games whose engine keeps no departures
    /// (two seats: leaving always ends the game). Such engines' position text gets ` left=N`.
    ended_by: Option<Seat>,
}

/// Generates the engine enum and its conversions from the table of games (`for_each_game!`
/// in `kind.rs`); `dispatch!` and `for_kind!` below match on its lines too, so no code here
/// names a game.
macro_rules! define_engine {
    ($($kind:ident($engine:ident) $name:tt $title:tt,)*) => {
        /// The engine's own position.
        #[derive(Clone, Debug)]
        enum Engine {
            $($kind(crate::$engine),)*
        }

        $(
            impl From<crate::$engine> for AnyGame {
                fn from(game: crate::$engine) -> AnyGame {
                    AnyGame {
                        engine: Engine::$kind(game),
                        ended_by: None,
                    }
                }
            }
        )*
    };
}

for_each_game!(define_engine);

/// Calls the same expression on whichever game `$any` holds.
macro_rules! dispatch {
    ($any:expr, $game:ident => $body:expr) => {
        for_each_game!(dispatch_engine, ($any, $game, $body))
    };
}

/// The `match` behind `dispatch!`, one arm per line of the table.
macro_rules! dispatch_engine {
    (($any:expr, $game:ident, $body:expr) $($kind:ident($engine:ident) $name:tt $title:tt,)*) => {
        match &$any.engine {
            $(Engine::$kind($game) => $body,)*
        }
    };
}

/// Evaluates `$body` with the type alias `$engine` naming the engine of `$kind` (a
/// [`GameKind`]).
macro_rules! for_kind {
    ($kind:expr, $engine:ident => $body:expr) => {
        for_each_game!(match_kind, ($kind, $engine, $body))
    };
}

/// The `match` behind `for_kind!`, one arm per line of the table.
macro_rules! match_kind {
    (($value:expr, $alias:ident, $body:expr) $($kind:ident($engine:ident) $name:tt $title:tt,)*) => {
        match $value {
            $(GameKind::$kind => {
                type $alias = crate::$engine;
                $body
            })*
        }
    };
}

/// Code that works on any engine through its traits (the bots: [`crate::mcts::BotPolicy`] extends
/// [`Game`]): [`AnyGame::visit`] hands it the engine's own position.
pub(crate) trait GameVisitor {
    type Output;
    fn visit<G: crate::mcts::BotPolicy>(self, game: &G) -> Self::Output;
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
    /// Runs `visitor` on the engine's own position. A game that a departure ended (see
    /// `ended_by`) is over whatever its engine says: callers check [`AnyGame::status`] first.
    pub(crate) fn visit<V: GameVisitor>(&self, visitor: V) -> V::Output {
        dispatch!(self, game => visitor.visit(game))
    }

    /// The start position of `kind` with `options`.
    ///
    /// # Errors
    /// [`EngineError::Options`] for options the game refuses (every kind has an engine now;
    /// [`EngineError::NotImplemented`] stays for kinds added later).
    pub fn new(kind: GameKind, options: &Options) -> Result<AnyGame, EngineError> {
        for_kind!(kind, G => Ok(AnyGame::from(<G as Game>::new(options)?)))
    }

    /// The start position of `kind` with `options` whose dice seed is not drawn yet (a
    /// challenge on a server): for Kechi `total=die` without a `seed` option the first roll is
    /// unknown (its position text shows `?` as the total, it has no legal moves and is ongoing);
    /// every other game and variant starts exactly as with [`AnyGame::new`].
    ///
    /// # Errors
    /// As [`AnyGame::new`].
    pub fn new_seed_withheld(kind: GameKind, options: &Options) -> Result<AnyGame, EngineError> {
        for_kind!(kind, G => Ok(AnyGame::from(<G as Game>::new_seed_withheld(options)?)))
    }

    /// Reads position text; its first word names the kind.
    ///
    /// # Errors
    /// [`EngineError::Position`] naming the bad field, [`EngineError::Options`] for bad options.
    pub fn from_position_text(options: &Options, text: &str) -> Result<AnyGame, EngineError> {
        AnyGame::read_position_text(options, text, false)
    }

    /// Reads position text of a game whose dice seed is withheld, as a server shows a running
    /// game (Kechi `total=die` without a `seed` option): the text's total is taken as the roll
    /// of the turn in progress and later rolls are unknown. Such a position lists its legal
    /// moves, resolves moves and draws its board; a position played on from it has no known
    /// total (its position text shows `?`), no legal moves, and stays ongoing while the side to
    /// move has stones. Every other game, and a Kechi game whose options give a `seed`, reads
    /// exactly as with [`AnyGame::from_position_text`]. A Kechi position read this way has no
    /// `seed` in its `options()`, so its serialised [`GameSnapshot`] does not read back.
    ///
    /// # Errors
    /// As [`AnyGame::from_position_text`], without the check of a die total against the seed.
    pub fn from_position_text_seed_withheld(
        options: &Options,
        text: &str,
    ) -> Result<AnyGame, EngineError> {
        AnyGame::read_position_text(options, text, true)
    }

    fn read_position_text(
        options: &Options,
        text: &str,
        seed_withheld: bool,
    ) -> Result<AnyGame, EngineError> {
        let word = text.split_whitespace().next().unwrap_or("");
        let kind: GameKind = word.parse().map_err(|_| {
            PositionError::new(
                "kind",
                format!(
                    "expected a game kind ({}), found `{word}`",
                    GameKind::name_list()
                ),
            )
        })?;
        // Options are checked first so that an unknown key is reported as such.
        let start = AnyGame::new(kind, options)?;
        let (text, ended_by) = if plays_on_after_departures(kind) {
            (text, None)
        } else {
            split_ended_by(text, start.seat_count())?
        };
        let mut game = for_kind!(kind, G => AnyGame::from(if seed_withheld {
            <G as Game>::from_position_text_seed_withheld(options, text)?
        } else {
            <G as Game>::from_position_text(options, text)?
        }));
        if ended_by.is_some() && game.status().is_over() {
            return Err(PositionError::new(
                "left",
                "the position is already over, so no seat can have left it",
            )
            .into());
        }
        game.ended_by = ended_by;
        Ok(game)
    }

    /// The options `kind` understands.
    pub fn option_specs(kind: GameKind) -> &'static [OptionSpec] {
        for_kind!(kind, G => <G as Game>::option_specs())
    }

    /// Why a game of `kind` with `options` cannot be rated, if it cannot: the first option
    /// (given, or its default) whose value its spec does not keep rated
    /// ([`OptionSpec::keeps_rated`]), such as a non-standard board size.
    #[must_use]
    pub fn unrated_reason(kind: GameKind, options: &Options) -> Option<String> {
        AnyGame::option_specs(kind).iter().find_map(|spec| {
            let value = options.get(spec.key).unwrap_or(spec.default);
            (!spec.keeps_rated(value)).then(|| {
                format!(
                    "{kind} with {}={value} is not rated (only the standard {} is)",
                    spec.key, spec.key
                )
            })
        })
    }

    /// `options` completed for a game of `kind` made for `seats` named players: where the
    /// kind's options ([`AnyGame::option_specs`]) include the number of players and `options`
    /// do not give it, it is `seats` (see [`Options::for_seats`]: Chinese Checkers'
    /// `players`). [`AnyGame::new`] checks them as any options.
    #[must_use]
    pub fn options_for_seats(kind: GameKind, options: &Options, seats: usize) -> Options {
        options.for_seats(AnyGame::option_specs(kind), seats)
    }

    /// Plays a list of move texts and departure lines (`resign 2`) from this position.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first move that cannot be played, numbered from 1.
    pub fn replay<S: AsRef<str>>(&self, moves: &[S]) -> Result<AnyGame, ReplayError> {
        let mut game = self.clone();
        for (index, text) in moves.iter().enumerate() {
            game = game
                .play_line(text.as_ref())
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

    /// What `seat` plays for, said of the seat (for spectators).
    pub fn public_goal(&self, seat: Seat) -> String {
        dispatch!(self, game => game.public_goal(seat))
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

    /// Ongoing with the seat to move, won, or drawn. When a departure ended the game, the
    /// seats that did not leave have won.
    pub fn status(&self) -> Status {
        match self.ended_by {
            Some(left) => Status::Won {
                winners: (0..usize::from(self.seat_count()))
                    .map(Seat::from_index)
                    .filter(|&seat| seat != left)
                    .collect(),
            },
            None => dispatch!(self, game => game.status()),
        }
    }

    /// The seats that have left, first to leave first.
    pub fn departed(&self) -> Vec<Seat> {
        let mut seats = dispatch!(self, game => game.departed());
        seats.extend(self.ended_by);
        seats
    }

    /// Every seat's final place (index: seat − 1), once the game is over: the winner first,
    /// the seats still playing sharing the next place, then the seats that left, the last to
    /// leave highest (see [`placings`]). `None` while the game goes on.
    pub fn placings(&self) -> Option<Vec<u8>> {
        placings(self.seat_count(), &self.status(), &self.departed())
    }

    /// `seat` leaves the game (`how`: resignation, timeout, claim). With three or more seats
    /// playing, in games that go on without a seat (Chinese Checkers), play goes on; otherwise
    /// the game ends and the seats still playing win. Returns the next position and the
    /// departure's record line (`resign 2`).
    ///
    /// # Errors
    /// [`LeaveError::NotInGame`], [`LeaveError::AlreadyLeft`], [`LeaveError::GameOver`].
    pub fn leave(&self, seat: Seat, how: Departure) -> Result<(AnyGame, String), LeaveError> {
        if seat.number() > self.seat_count() {
            return Err(LeaveError::NotInGame {
                seat: u32::from(seat.number()),
                seats: self.seat_count(),
            });
        }
        if self.departed().contains(&seat) {
            return Err(LeaveError::AlreadyLeft(seat));
        }
        if self.status().is_over() {
            return Err(LeaveError::GameOver);
        }
        let next = match dispatch!(self, game => game.leave(seat).map(AnyGame::from)) {
            Some(next) => next,
            None if !plays_on_after_departures(self.kind()) => AnyGame {
                engine: self.engine.clone(),
                ended_by: Some(seat),
            },
            // The engine refused after the checks above: only a game over can explain it.
            None => return Err(LeaveError::GameOver),
        };
        Ok((next, how.line(seat)))
    }

    /// `seat`'s player leaves (`how`) and a server bot takes the seat over (`on-leave=bot`):
    /// the seat keeps its pegs and turns, so the position is unchanged; only the record line
    /// (`resign 2 bot`) says it. Allowed only while three or more seats play (with two, leaving
    /// ends the game). The engine does not know who plays a seat, so it does not refuse a
    /// second takeover of the same seat.
    ///
    /// # Errors
    /// [`LeaveError::NotInGame`], [`LeaveError::AlreadyLeft`], [`LeaveError::GameOver`],
    /// [`LeaveError::TooFewForBot`].
    pub fn take_over(&self, seat: Seat, how: Departure) -> Result<(AnyGame, String), LeaveError> {
        if seat.number() > self.seat_count() {
            return Err(LeaveError::NotInGame {
                seat: u32::from(seat.number()),
                seats: self.seat_count(),
            });
        }
        let departed = self.departed();
        if departed.contains(&seat) {
            return Err(LeaveError::AlreadyLeft(seat));
        }
        if self.status().is_over() {
            return Err(LeaveError::GameOver);
        }
        let playing = usize::from(self.seat_count()).saturating_sub(departed.len());
        if playing < 3 || !plays_on_after_departures(self.kind()) {
            return Err(LeaveError::TooFewForBot { playing });
        }
        Ok((self.clone(), how.bot_line(seat)))
    }

    /// Plays a line of a game record or of `--moves`: a move text, or a departure line
    /// (`resign 2`, `timeout 2`, `claim 2`; `resign 2 bot` for a bot taking the seat over).
    /// Returns the next position and the canonical text.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] with the offset, or [`MoveError::Illegal`] (for a departure: the
    /// seat is not in the game, has already left, or the game is over); `self` is unchanged.
    pub fn play_line(&self, text: &str) -> Result<(AnyGame, String), MoveError> {
        if DepartureText::is_departure(text) {
            self.play_departure(text)
        } else {
            self.play(text)
        }
    }

    /// Parses and plays a departure line.
    fn play_departure(&self, text: &str) -> Result<(AnyGame, String), MoveError> {
        let parsed = DepartureText::parse(text).map_err(MoveError::Syntax)?;
        let seat = u8::try_from(parsed.seat)
            .ok()
            .and_then(Seat::new)
            .ok_or(LeaveError::NotInGame {
                seat: parsed.seat,
                seats: self.seat_count(),
            })
            .and_then(|seat| {
                if parsed.bot {
                    self.take_over(seat, parsed.departure)
                } else {
                    self.leave(seat, parsed.departure)
                }
            });
        seat.map_err(|error| MoveError::Illegal {
            reason: error.to_string(),
        })
    }

    pub fn scores(&self) -> Option<Vec<i64>> {
        dispatch!(self, game => game.scores())
    }

    /// The canonical texts of every legal move, sorted by byte order (departures are not
    /// moves: none are listed).
    pub fn legal_moves(&self) -> Vec<String> {
        if self.ended_by.is_some() {
            return Vec::new();
        }
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
        self.play(text).map(|(_, canonical)| canonical)
    }

    /// Plays a move text; returns the next position and the move's canonical text. Departure
    /// lines are not moves: they go through [`AnyGame::play_line`] or [`AnyGame::leave`], so a
    /// move request can never make a seat leave.
    ///
    /// # Errors
    /// [`MoveError::Syntax`] or [`MoveError::Illegal`] (also for a departure line);
    /// `self` is unchanged.
    pub fn play(&self, text: &str) -> Result<(AnyGame, String), MoveError> {
        if DepartureText::is_departure(text) {
            return Err(MoveError::Illegal {
                reason: format!(
                    "`{}` is a departure, not a move: a player leaves by resigning",
                    text.trim()
                ),
            });
        }
        dispatch!(self, game => {
            let parsed = game.parse_move(text).map_err(MoveError::Syntax)?;
            if let Some(left) = self.ended_by {
                return Err(MoveError::Illegal {
                    reason: format!("the game is over: seat {left} has left"),
                });
            }
            let mv = game.resolve_move(&parsed).map_err(|illegal| MoveError::Illegal {
                reason: illegal.to_string(),
            })?;
            Ok((AnyGame::from(game.play_move(&mv)), game.format_move(&mv)))
        })
    }

    /// Plays the seat to move's forced move, if it has one ([`Game::forced_move`]); returns
    /// the next position and the move's canonical text.
    #[must_use]
    pub fn play_forced(&self) -> Option<(AnyGame, String)> {
        if self.ended_by.is_some() {
            return None;
        }
        dispatch!(self, game => game
            .forced_move()
            .map(|mv| (AnyGame::from(game.play_move(&mv)), game.format_move(&mv))))
    }

    /// The position text; where a departure ended a game whose engine keeps none, followed by
    /// ` left=<seat>`.
    pub fn position_text(&self) -> String {
        let text = dispatch!(self, game => game.position_text());
        match self.ended_by {
            Some(seat) => format!("{text} left={seat}"),
            None => text,
        }
    }

    pub fn board_view(&self) -> BoardView {
        dispatch!(self, game => game.board_view())
    }

    /// Whether a position of this kind can stand again later in the same game (see
    /// [`Game::POSITIONS_RECUR`]).
    #[must_use]
    pub fn positions_recur(&self) -> bool {
        for_kind!(self.kind(), G => <G as Game>::POSITIONS_RECUR)
    }

    /// The most moves a game of this variant may last (see [`Game::move_limit`]).
    #[must_use]
    pub fn move_limit(&self) -> u32 {
        dispatch!(self, game => game.move_limit())
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if self.ended_by.is_some() {
            return u64::from(depth == 0);
        }
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

fn plays_on_after_departures(kind: GameKind) -> bool {
    for_kind!(kind, G => <G as Game>::PLAYS_ON_AFTER_DEPARTURES)
}

/// Takes a last field `left=<seat>` off a position text of an engine without departures.
fn split_ended_by(text: &str, seats: u8) -> Result<(&str, Option<Seat>), PositionError> {
    let trimmed = text.trim_end();
    let Some((rest, last)) = trimmed.rsplit_once([' ', '\t']) else {
        return Ok((text, None));
    };
    let Some(seat) = last.strip_prefix("left=") else {
        return Ok((text, None));
    };
    match seat.parse::<u8>().ok().filter(|n| (1..=seats).contains(n)).and_then(Seat::new) {
        Some(seat) => Ok((rest, Some(seat))),
        None => Err(PositionError::new(
            "left",
            format!("expected left=<the seat whose departure ended the game, 1 to {seats}>, found `{last}`"),
        )),
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::rules::{rules_for_players, PLAYERS_OPTION};

    #[test]
    fn every_kind_of_the_table_has_an_engine() {
        for kind in GameKind::ALL {
            let game = AnyGame::new(kind, &Options::new()).unwrap();
            assert_eq!(game.kind(), kind);
            assert!(game.position_text().starts_with(kind.name()), "{kind}");
            let read = AnyGame::from_position_text(&Options::new(), &game.position_text());
            assert_eq!(read.unwrap().kind(), kind);
            assert_eq!(
                AnyGame::new_seed_withheld(kind, &Options::new())
                    .unwrap()
                    .kind(),
                kind
            );
            assert!(rules_for_players(kind).contains(kind.title()), "{kind}");
        }
        let error = AnyGame::from_position_text(&Options::new(), "chess 1").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("(kefren, kechi, sanqi, chinese-checkers)"),
            "{error}"
        );
    }

    #[test]
    fn options_for_seats_fill_in_the_number_of_players() {
        let three = AnyGame::options_for_seats(GameKind::ChineseCheckers, &Options::new(), 3);
        assert_eq!(three.get(PLAYERS_OPTION), Some("3"));
        let game = AnyGame::new(GameKind::ChineseCheckers, &three).unwrap();
        assert_eq!(game.seat_count(), 3);
        // A number given stays, even one that does not match the seats (the caller says so).
        let given = Options::from_pairs(["players=4"]).unwrap();
        assert_eq!(
            AnyGame::options_for_seats(GameKind::ChineseCheckers, &given, 3),
            given
        );
        // Games without the option get none: their seat count is fixed.
        for kind in [GameKind::Kefren, GameKind::Kechi, GameKind::SanQi] {
            assert_eq!(
                AnyGame::options_for_seats(kind, &Options::new(), 2),
                Options::new()
            );
        }
    }
}
