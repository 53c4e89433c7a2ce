//! The moves nobody has to choose: after a move or a departure, while the seat to move has
//! only a forced move (a `pass` with no other move: the engine's call, [`crate::Game::forced_move`]),
//! that move is played for it at once, so nobody waits for a player who has no choice.

use crate::{AnyGame, Seat};

/// The most forced moves played in a row: one round of the largest table (six seats), so a
/// position where nobody can move (every seat passes, forever) still ends the continuation.
pub const MAX_FORCED_MOVES: usize = 6;

/// The forced moves that follow a position, and the position after them.
#[derive(Clone, Debug)]
pub struct ForcedContinuation {
    /// Each forced move's seat and canonical text, in the order they are played.
    pub moves: Vec<(Seat, String)>,
    /// The position after them: the one given when there are none.
    pub position: AnyGame,
}

impl AnyGame {
    /// Plays the forced moves that follow this position: while the game goes on and the seat
    /// to move has a forced move ([`AnyGame::play_forced`]), it is played, at most
    /// [`MAX_FORCED_MOVES`] of them.
    #[must_use]
    pub fn forced_continuation(self) -> ForcedContinuation {
        let mut position = self;
        let mut moves = Vec::new();
        while moves.len() < MAX_FORCED_MOVES {
            let Some(seat) = position.status().to_move() else {
                break;
            };
            let Some((next, text)) = position.play_forced() else {
                break;
            };
            moves.push((seat, text));
            position = next;
        }
        ForcedContinuation { moves, position }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;
    use crate::{departure::Departure, GameKind, Options};

    /// Two seats of Chinese Checkers: seat 2's only peg sits boxed in on Q13 (in its target);
    /// seat 1 has pegs on P12, P13, O11, O13 and a free one on I9. `to_move` is the seat field.
    fn boxed_in(to_move: u8) -> AnyGame {
        let text = format!(
            "chinese-checkers ./../.../..../............./............/.........../........../\
             ....1..../........../.........../............/............./..../1.1/11/4 {to_move}"
        );
        AnyGame::from_position_text(&Options::new(), &text).unwrap()
    }

    #[test]
    fn a_two_player_chinese_checkers_pass_is_played_and_the_turn_comes_back() {
        let game = boxed_in(1);
        let mv = game
            .legal_moves()
            .into_iter()
            .find(|mv| mv.starts_with("I9-"))
            .unwrap();
        let (after, _) = game.play(&mv).unwrap();
        assert_eq!(after.status().to_move(), Seat::new(2));
        let continued = after.forced_continuation();
        assert_eq!(
            continued.moves,
            [(Seat::new(2).unwrap(), "pass".to_string())]
        );
        assert_eq!(continued.position.status().to_move(), Seat::new(1));
        // Seat 1 has a choice: nothing more is forced.
        assert!(continued.position.legal_moves().len() > 1);
        let again = continued.position.clone().forced_continuation();
        assert!(again.moves.is_empty());
        assert_eq!(
            again.position.position_text(),
            continued.position.position_text()
        );
    }

    #[test]
    fn nobody_able_to_move_stops_at_the_cap() {
        // No pegs at all: every seat can only pass, forever (the rules have no draw).
        let empty = "chinese-checkers ./../.../..../............./............/.........../\
                     ........../........./........../.........../............/\
                     ............./..../.../../. 1";
        let game = AnyGame::from_position_text(&Options::new(), empty).unwrap();
        assert_eq!(game.legal_moves(), ["pass"]);
        let continued = game.forced_continuation();
        assert_eq!(continued.moves.len(), MAX_FORCED_MOVES);
        let seats: Vec<u8> = continued
            .moves
            .iter()
            .map(|(seat, _)| seat.number())
            .collect();
        assert_eq!(seats, [1, 2, 1, 2, 1, 2]);
        assert!(continued.moves.iter().all(|(_, text)| text == "pass"));
        assert_eq!(continued.position.status().to_move(), Seat::new(1));
    }

    #[test]
    fn games_without_forced_moves_and_finished_games_continue_with_nothing() {
        let start = AnyGame::new(GameKind::Kefren, &Options::new()).unwrap();
        let continued = start.clone().forced_continuation();
        assert!(continued.moves.is_empty());
        assert_eq!(continued.position.position_text(), start.position_text());
        let (resigned, _) = start.leave(Seat::FIRST, Departure::Resign).unwrap();
        assert!(resigned.status().is_over());
        assert!(resigned.forced_continuation().moves.is_empty());
    }
}
