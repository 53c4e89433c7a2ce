//! Kefren behind the common `Game` contract: start, turn, legal moves, play, status.

use crate::{
    board_view::BoardView, board_view::PieceColour, notation::ParseMoveError, options::OptionError,
    options::OptionSpec, position_error::PositionError, Game, GameKind, Options, Seat, Status,
};

use super::board::{opponent, Kefren, BLACK, WHITE};
use super::cell::HEIGHT;
use super::illegal::KefrenIllegal;
use super::move_text::{format_move, KefrenMoveText};
use super::moves::KefrenMove;

fn seat_of(colour: u8) -> Seat {
    if colour == BLACK {
        Seat::FIRST
    } else {
        Seat::from_index(1)
    }
}

impl Kefren {
    /// Rule "End of the game" 1: after a White move (Black to move), more Black stones on row 19
    /// than White stones on row 1 wins for Black, and the reverse for White.
    pub(crate) fn rank_winner(&self) -> Option<u8> {
        if self.side != BLACK {
            return None;
        }
        let black = self.count_on_row(BLACK, HEIGHT - 1);
        let white = self.count_on_row(WHITE, 0);
        match black.cmp(&white) {
            std::cmp::Ordering::Greater => Some(BLACK),
            std::cmp::Ordering::Less => Some(WHITE),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl Game for Kefren {
    type Move = KefrenMove;
    type MoveText = KefrenMoveText;
    type Illegal = KefrenIllegal;

    const KIND: GameKind = GameKind::Kefren;
    const RULES_FOR_PLAYERS: &'static str = include_str!("PLAYING.md");

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    fn new(options: &Options) -> Result<Kefren, OptionError> {
        options.check_keys(GameKind::Kefren.name(), Self::option_specs())?;
        Ok(Kefren::start())
    }

    fn options(&self) -> Options {
        Options::new()
    }

    fn seat_count(&self) -> u8 {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat.number() {
            1 => "Black (seat 1)".to_string(),
            2 => "White (seat 2)".to_string(),
            other => format!("seat {other}"),
        }
    }

    fn seat_colour(&self, seat: Seat) -> PieceColour {
        if seat.number() == 1 {
            PieceColour::Black
        } else {
            PieceColour::White
        }
    }

    fn goal(&self, seat: Seat) -> String {
        let (you, row, them, their_row) = match seat.number() {
            1 => ("Black", 19, "White", 1),
            _ => ("White", 1, "Black", 19),
        };
        format!(
            "you ({you}) win with more of your stones on row {row} than {them} has on row \
             {their_row} (counted after White's move), or when {them} cannot move"
        )
    }

    fn public_goal(&self, seat: Seat) -> String {
        let (side, row, them, their_row) = match seat.number() {
            1 => ("Black", 19, "White", 1),
            _ => ("White", 1, "Black", 19),
        };
        format!(
            "{side} wins with more of its stones on row {row} than {them} has on row \
             {their_row} (counted after White's move), or when {them} cannot move"
        )
    }

    fn status(&self) -> Status {
        if let Some(winner) = self.rank_winner() {
            return Status::won_by(seat_of(winner));
        }
        if self.has_move() {
            Status::Ongoing {
                to_move: seat_of(self.side),
            }
        } else {
            Status::won_by(seat_of(opponent(self.side)))
        }
    }

    fn legal_moves(&self) -> Vec<KefrenMove> {
        if self.rank_winner().is_some() {
            return Vec::new();
        }
        self.generate()
    }

    fn count_moves(&self) -> u64 {
        if self.rank_winner().is_some() {
            return 0;
        }
        self.count()
    }

    fn parse_move(&self, text: &str) -> Result<KefrenMoveText, ParseMoveError> {
        KefrenMoveText::parse(text)
    }

    fn resolve_move(&self, text: &KefrenMoveText) -> Result<KefrenMove, KefrenIllegal> {
        self.resolve(text)
    }

    fn play_move(&self, mv: &KefrenMove) -> Kefren {
        self.after(mv)
    }

    fn format_move(&self, mv: &KefrenMove) -> String {
        format_move(mv)
    }

    fn position_text(&self) -> String {
        self.to_position_text()
    }

    fn from_position_text(options: &Options, text: &str) -> Result<Kefren, PositionError> {
        options
            .check_keys(GameKind::Kefren.name(), Self::option_specs())
            .map_err(|error| PositionError::new("options", error.to_string()))?;
        Kefren::parse_position_text(text)
    }

    fn board_view(&self) -> BoardView {
        self.view()
    }
}
