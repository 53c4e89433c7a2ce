//! SanQi behind the common `Game` contract: start (with the board-side option), turn, legal moves,
//! play, status.

use crate::{
    board_view::BoardView, board_view::PieceColour, notation::ParseMoveError, options::OptionError,
    options::OptionSpec, options::OptionValues, options::RatedValues,
    position_error::PositionError, Game, GameKind, Options, Seat, Status,
};

use super::board::SanQi;
use super::illegal::SanQiIllegal;
use super::move_text::{format_move, SanQiMoveText};
use super::moves::SanQiMove;

const SIDE: OptionSpec = OptionSpec {
    key: "side",
    values: OptionValues::OneOf(&["4", "6", "8", "10"]),
    default: "4",
    help: "cells per side of the hexagonal board",
    rated: RatedValues::Only(&["4"]),
};

const SPECS: &[OptionSpec] = &[SIDE];

/// The side asked for by `options`, checking the keys.
fn side_option(options: &Options) -> Result<u8, OptionError> {
    options.check_keys(GameKind::SanQi.name(), SPECS)?;
    let side = options.choice(&SIDE)?;
    side.parse::<u8>().map_err(|_| OptionError::BadValue {
        key: SIDE.key.to_string(),
        value: side.to_string(),
        allowed: SIDE.values.to_string(),
    })
}

impl Game for SanQi {
    type Move = SanQiMove;
    type MoveText = SanQiMoveText;
    type Illegal = SanQiIllegal;

    const KIND: GameKind = GameKind::SanQi;
    const RULES_FOR_PLAYERS: &'static str = include_str!("PLAYING.md");
    /// Every move raises the number of stones or, by at least 2, the number of neighbouring
    /// stone pairs of one colour (a replacement needs two more neighbours of the new colour
    /// than of the old): no position stands twice (RULES.md, "Games end").
    const POSITIONS_RECUR: bool = false;

    fn option_specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn new(options: &Options) -> Result<SanQi, OptionError> {
        Ok(SanQi::empty(side_option(options)?))
    }

    fn options(&self) -> Options {
        let mut options = Options::new();
        options.set(SIDE.key, self.side.to_string());
        options
    }

    fn seat_count(&self) -> u8 {
        2
    }

    /// No colour belongs to a player, so seats are called by their turn order.
    fn seat_name(&self, seat: Seat) -> String {
        match seat.number() {
            1 => "First (seat 1)".to_string(),
            2 => "Second (seat 2)".to_string(),
            other => format!("seat {other}"),
        }
    }

    /// No colour of stones belongs to a seat: marks are black for First and white for Second,
    /// which show against red, blue and yellow alike.
    fn seat_colour(&self, seat: Seat) -> PieceColour {
        if seat.number() == 1 {
            PieceColour::Black
        } else {
            PieceColour::White
        }
    }

    /// Rules "Winning": First with a circle or a triangle, Second with a line or a triangle.
    fn goal(&self, seat: Seat) -> String {
        let shapes = match seat.number() {
            1 => "a circle or a triangle",
            _ => "a line or a triangle",
        };
        format!("you win with {shapes} of six stones of one colour, whoever placed them")
    }

    fn public_goal(&self, seat: Seat) -> String {
        let (side, shapes) = match seat.number() {
            1 => ("First", "a circle or a triangle"),
            _ => ("Second", "a line or a triangle"),
        };
        format!("{side} wins with {shapes} of six stones of one colour, whoever placed them")
    }

    fn status(&self) -> Status {
        if let Some(winner) = self.winner() {
            return Status::won_by(Seat::from_index(usize::from(winner)));
        }
        if self.has_move() {
            Status::Ongoing {
                to_move: Seat::from_index(usize::from(self.to_move)),
            }
        } else {
            Status::Draw
        }
    }

    fn legal_moves(&self) -> Vec<SanQiMove> {
        self.generate()
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn parse_move(&self, text: &str) -> Result<SanQiMoveText, ParseMoveError> {
        SanQiMoveText::parse(text, self.geometry().last_letter())
    }

    fn resolve_move(&self, text: &SanQiMoveText) -> Result<SanQiMove, SanQiIllegal> {
        self.resolve(text)
    }

    fn play_move(&self, mv: &SanQiMove) -> SanQi {
        self.after(self.geometry(), mv.cell.index, mv.colour.stone())
    }

    fn format_move(&self, mv: &SanQiMove) -> String {
        format_move(mv)
    }

    fn position_text(&self) -> String {
        self.to_position_text()
    }

    /// Without a `side` option the side is the one the row count gives (a position text
    /// carries its board); with one, the rows must match it.
    fn from_position_text(options: &Options, text: &str) -> Result<SanQi, PositionError> {
        let side = side_option(options)
            .map_err(|error| PositionError::new("options", error.to_string()))?;
        let asked = options.get(SIDE.key).map(|_| side);
        SanQi::parse_position_text(asked, text)
    }

    fn board_view(&self) -> BoardView {
        self.view()
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }
}
