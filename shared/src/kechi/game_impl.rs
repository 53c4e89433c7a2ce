//! Kechi behind the common `Game` contract: start (with the seeded die), turn, legal turns,
//! play, status.

use std::cmp::Ordering;

use crate::{
    board_view::BoardView, board_view::PieceColour, notation::ParseMoveError, options::OptionError,
    options::OptionSpec, position_error::PositionError, Game, GameKind, Options, Seat, Status,
};

use super::board::{other, Kechi, BLACK, WHITE};
use super::illegal::KechiIllegal;
use super::move_text::{format_turn, KechiMoveText};
use super::rules::{Rules, SPECS, UNKNOWN_TOTAL};
use super::turn::KechiTurn;

fn seat_of(side: usize) -> Seat {
    Seat::from_index(side)
}

impl Game for Kechi {
    type Move = KechiTurn;
    type MoveText = KechiMoveText;
    type Illegal = KechiIllegal;

    const KIND: GameKind = GameKind::Kechi;
    const RULES_FOR_PLAYERS: &'static str = include_str!("PLAYING.md");
    /// Every turn marks the cells its stones leave, for good: the number of marked cells grows
    /// with each turn, so no position stands twice (and a game lasts at most as many turns as
    /// the board has cells, far below the move limit).
    const POSITIONS_RECUR: bool = false;

    fn option_specs() -> &'static [OptionSpec] {
        SPECS
    }

    fn new(options: &Options) -> Result<Kechi, OptionError> {
        Ok(Kechi::start(Rules::from_options(options)?))
    }

    /// With `total=die` and no `seed` the first roll is unknown (see
    /// [`Game::from_position_text_seed_withheld`] for what such a position can do).
    fn new_seed_withheld(options: &Options) -> Result<Kechi, OptionError> {
        Ok(Kechi::start(Rules::withheld(options)?))
    }

    fn options(&self) -> Options {
        self.rules.options()
    }

    fn seat_count(&self) -> u8 {
        2
    }

    fn seat_name(&self, seat: Seat) -> String {
        match seat.number() {
            1 => "White (seat 1)".to_string(),
            2 => "Black (seat 2)".to_string(),
            other => format!("seat {other}"),
        }
    }

    fn seat_colour(&self, seat: Seat) -> PieceColour {
        if seat.number() == 1 {
            PieceColour::White
        } else {
            PieceColour::Black
        }
    }

    fn goal(&self, seat: Seat) -> String {
        let them = if seat.number() == 1 { "Black" } else { "White" };
        let total = if self.rules.die {
            "their die roll"
        } else {
            "their total"
        };
        if self.rules.tokens {
            format!(
                "score more than {them}: every stone move scores a point; the game ends when a \
                 player cannot move {total}"
            )
        } else {
            format!("capture or block: {them} loses when they cannot move {total} in full")
        }
    }

    fn public_goal(&self, seat: Seat) -> String {
        let (side, them) = if seat.number() == 1 {
            ("White", "Black")
        } else {
            ("Black", "White")
        };
        let total = if self.rules.die {
            "their die roll"
        } else {
            "their total"
        };
        if self.rules.tokens {
            format!(
                "{side} wins by scoring more than {them}: every stone move scores a point; the \
                 game ends when a player cannot move {total}"
            )
        } else {
            format!("{side} wins by capture or block: when {them} cannot move {total} in full")
        }
    }

    /// Rules "A turn": a player with no legal turn loses; with tokens, the game ends there and
    /// the higher score wins (equal scores draw).
    fn status(&self) -> Status {
        // A roll not known yet (seed withheld) may still give a turn: only a side without
        // stones is sure to be stuck.
        let unknown = self.total == UNKNOWN_TOTAL && self.side_stones(self.side).count() > 0;
        if unknown || self.has_turn() {
            return Status::Ongoing {
                to_move: seat_of(self.side),
            };
        }
        if !self.rules.tokens {
            return Status::won_by(seat_of(other(self.side)));
        }
        match self.scores[WHITE].cmp(&self.scores[BLACK]) {
            Ordering::Greater => Status::won_by(seat_of(WHITE)),
            Ordering::Less => Status::won_by(seat_of(BLACK)),
            Ordering::Equal => Status::Draw,
        }
    }

    /// With `scoring=tokens`: the tokens (and stones) taken by White and by Black.
    fn scores(&self) -> Option<Vec<i64>> {
        self.rules.tokens.then(|| {
            self.scores
                .iter()
                .map(|score| i64::try_from(*score).unwrap_or(i64::MAX))
                .collect()
        })
    }

    fn legal_moves(&self) -> Vec<KechiTurn> {
        self.generate()
    }

    fn count_moves(&self) -> u64 {
        self.count()
    }

    fn parse_move(&self, text: &str) -> Result<KechiMoveText, ParseMoveError> {
        KechiMoveText::parse(text, self.geometry().last_letter())
    }

    fn resolve_move(&self, text: &KechiMoveText) -> Result<KechiTurn, KechiIllegal> {
        self.resolve(text)
    }

    fn play_move(&self, mv: &KechiTurn) -> Kechi {
        self.after(mv)
    }

    fn format_move(&self, mv: &KechiTurn) -> String {
        format_turn(mv)
    }

    fn position_text(&self) -> String {
        self.to_position_text()
    }

    fn from_position_text(options: &Options, text: &str) -> Result<Kechi, PositionError> {
        let rules = Rules::from_options(options)
            .map_err(|error| PositionError::new("options", error.to_string()))?;
        Kechi::parse_position_text(rules, text)
    }

    /// With `total=die` and no `seed` the text's total is taken as the roll of the turn in
    /// progress, unchecked, and later rolls are unknown (a running game on a server shows no
    /// seed). With a `seed`, or with `total=6`, it reads exactly as
    /// [`Game::from_position_text`] does.
    fn from_position_text_seed_withheld(
        options: &Options,
        text: &str,
    ) -> Result<Kechi, PositionError> {
        let rules = Rules::withheld(options)
            .map_err(|error| PositionError::new("options", error.to_string()))?;
        Kechi::parse_position_text(rules, text)
    }

    fn board_view(&self) -> BoardView {
        self.view()
    }
}
