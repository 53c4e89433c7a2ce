//! The history of a game of any kind ([`AnyGame`]): [`PositionHistory`] built from a game's
//! start and its record lines, so the server, the CLI and the bots replay alike.

use crate::any_game::ReplayError;
use crate::departure::DepartureText;
use crate::repetition::{LengthEnding, PositionHistory};
use crate::AnyGame;

impl PositionHistory {
    /// The history of a game standing at its start position `start`.
    #[must_use]
    pub fn new(start: &AnyGame) -> Self {
        Self::starting(
            start.positions_recur(),
            start.move_limit(),
            &start.position_text(),
        )
    }

    /// The history of a game of which only the position now is known, after `moves` moves (a
    /// position set up from its text): it has stood once, and no earlier position is known.
    #[must_use]
    pub fn from_position(position: &AnyGame, moves: u32) -> Self {
        let mut history = Self::new(position);
        history.set_moves(moves);
        history
    }

    /// Replays the record lines `lines` (moves and departure lines) from `start`: the position
    /// reached and its history. A record that went past an ending (a game stored before the
    /// rules) replays all the same; [`PositionHistory::ending`] gives the first ending.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first line that cannot be played.
    pub fn replay<S: AsRef<str>>(
        start: &AnyGame,
        lines: &[S],
    ) -> Result<(AnyGame, Self), ReplayError> {
        let mut history = Self::new(start);
        let mut game = start.clone();
        for (index, line) in lines.iter().enumerate() {
            let line = line.as_ref();
            game = game
                .play_line(line)
                .map(|(next, _)| next)
                .map_err(|error| ReplayError {
                    number: index + 1,
                    text: line.to_owned(),
                    error,
                })?;
            history.after_line(line, &game);
        }
        Ok((game, history))
    }

    /// The history of a game whose record lines are `lines`, from `start`: as
    /// [`PositionHistory::replay`], but a kind whose positions never recur is not replayed
    /// (only its moves are counted), which keeps a server's move cheap.
    ///
    /// # Errors
    /// A [`ReplayError`] for the first line that cannot be played.
    pub fn of_record<S: AsRef<str>>(start: &AnyGame, lines: &[S]) -> Result<Self, ReplayError> {
        if start.positions_recur() {
            return Self::replay(start, lines).map(|(_, history)| history);
        }
        let mut history = Self::new(start);
        for line in lines {
            if !DepartureText::is_departure(line.as_ref()) {
                history.count_move();
            }
        }
        Ok(history)
    }

    /// Takes in the record line `line` just played, which left `position`; answers the ending
    /// it reached, if this line reached one (a game the rules ended is not ended again: the
    /// caller checks `position`'s status first). A departure is not a move: it counts no move,
    /// and the position it leaves counts only if it changed (a bot taking a seat over does not).
    pub fn after_line(&mut self, line: &str, position: &AnyGame) -> Option<LengthEnding> {
        self.after(
            DepartureText::is_departure(line),
            &position.position_text(),
            position.status().is_over(),
        )
    }
}
