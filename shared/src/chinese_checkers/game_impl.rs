//! Chinese Checkers behind the common `Game` contract: start, turn, legal moves, play, status.

use crate::{
    board_view::BoardView, board_view::PieceColour, notation::ParseMoveError, options::OptionError,
    options::OptionSpec, position_error::PositionError, Game, GameKind, Options, Seat, Status,
};

use super::board::ChineseCheckers;
use super::illegal::ChineseCheckersIllegal;
use super::move_text::{format_move, ChineseCheckersMoveText};
use super::moves::ChineseCheckersMove;
use super::points::opposite;
use super::variant::{sets_in, AntiSpoiling, Variant, OPTION_SPECS};

impl Game for ChineseCheckers {
    type Move = ChineseCheckersMove;
    type MoveText = ChineseCheckersMoveText;
    type Illegal = ChineseCheckersIllegal;

    const KIND: GameKind = GameKind::ChineseCheckers;
    const RULES_FOR_PLAYERS: &'static str = include_str!("PLAYING.md");

    fn option_specs() -> &'static [OptionSpec] {
        &OPTION_SPECS
    }

    fn new(options: &Options) -> Result<ChineseCheckers, OptionError> {
        Ok(ChineseCheckers::start(Variant::from_options(options)?))
    }

    fn options(&self) -> Options {
        self.variant.options()
    }

    fn seat_count(&self) -> u8 {
        self.variant.layout.players
    }

    /// 300 moves a seat: five times what a careful game takes (about 60 moves a seat), so only
    /// games that go round in circles meet it.
    fn move_limit(&self) -> u32 {
        300 * u32::from(self.variant.layout.players)
    }

    /// "seat 2 (pegs 3)": a seat is known by the points its sets start in (the digits on the
    /// board).
    fn seat_name(&self, seat: Seat) -> String {
        let points: Vec<String> = sets_in(self.variant.sets_of(seat.index()))
            .map(|point| point.to_string())
            .collect();
        format!("seat {seat} (pegs {})", points.join(", "))
    }

    const PLAYS_ON_AFTER_DEPARTURES: bool = true;

    fn departed(&self) -> Vec<Seat> {
        self.left.seats().map(Seat::from_index).collect()
    }

    fn leave(&self, seat: Seat) -> Option<ChineseCheckers> {
        let seat = seat.index();
        let may_leave = seat < self.variant.seat_count()
            && !self.left.contains(seat)
            && self.winner().is_none();
        may_leave.then(|| self.without(seat))
    }

    /// The colour of the seat's first set (the colour its pegs are drawn in).
    fn seat_colour(&self, seat: Seat) -> PieceColour {
        sets_in(self.variant.sets_of(seat.index()))
            .next()
            .map_or(PieceColour::Grey, |set| {
                super::view::colour(u8::try_from(set).unwrap_or(0))
            })
    }

    /// Rules "Winning": every set of the seat home in the point opposite its start.
    fn goal(&self, seat: Seat) -> String {
        let targets: Vec<String> = sets_in(self.variant.sets_of(seat.index()))
            .map(|point| format!("\u{25B2}{}", opposite(point)))
            .collect();
        let (them, it) = if targets.len() == 1 {
            ("the point", "it")
        } else {
            ("the points", "each")
        };
        let home = if self.variant.anti_spoiling == AntiSpoiling::Parlett {
            "full and holds at least one of yours"
        } else {
            "filled with your own ten pegs"
        };
        format!(
            "fill {them} marked {} (opposite your start) with your pegs: you win when {it} is \
             {home}",
            targets.join(", ")
        )
    }

    fn public_goal(&self, seat: Seat) -> String {
        let targets: Vec<String> = sets_in(self.variant.sets_of(seat.index()))
            .map(|point| format!("\u{25B2}{}", opposite(point)))
            .collect();
        let them = if targets.len() == 1 {
            "the point"
        } else {
            "each of the points"
        };
        let home = if self.variant.anti_spoiling == AntiSpoiling::Parlett {
            "full and holds at least one of its pegs"
        } else {
            "filled with its own ten pegs"
        };
        format!(
            "Seat {seat} wins when {them} marked {} (opposite its start) is {home}",
            targets.join(", ")
        )
    }

    fn status(&self) -> Status {
        match self.winner() {
            Some(seat) => Status::won_by(Seat::from_index(seat)),
            None => Status::Ongoing {
                to_move: Seat::from_index(self.seat()),
            },
        }
    }

    fn legal_moves(&self) -> Vec<ChineseCheckersMove> {
        self.generate()
    }

    /// `pass` is legal exactly when the seat to move has no other move, so it is forced then.
    fn forced_move(&self) -> Option<ChineseCheckersMove> {
        (self.generate() == [ChineseCheckersMove::Pass]).then_some(ChineseCheckersMove::Pass)
    }

    fn count_moves(&self) -> u64 {
        self.fast_count()
    }

    fn parse_move(&self, text: &str) -> Result<ChineseCheckersMoveText, ParseMoveError> {
        ChineseCheckersMoveText::parse(text)
    }

    fn resolve_move(
        &self,
        text: &ChineseCheckersMoveText,
    ) -> Result<ChineseCheckersMove, ChineseCheckersIllegal> {
        self.resolve(text)
    }

    fn play_move(&self, mv: &ChineseCheckersMove) -> ChineseCheckers {
        self.after(mv)
    }

    fn format_move(&self, mv: &ChineseCheckersMove) -> String {
        format_move(mv)
    }

    fn position_text(&self) -> String {
        self.to_position_text()
    }

    fn from_position_text(options: &Options, text: &str) -> Result<ChineseCheckers, PositionError> {
        let variant = Variant::from_options(options)
            .map_err(|error| PositionError::new("options", error.to_string()))?;
        ChineseCheckers::parse_position_text(variant, text)
    }

    fn board_view(&self) -> BoardView {
        self.view()
    }

    fn perft(&self, depth: u32) -> u64 {
        self.fast_perft(depth)
    }
}
