//! A board picture as it waits in the outbox: the position and the moves to mark, from which
//! the worker draws it when it delivers. A few hundred bytes where the drawing (SVG) was about
//! 16 kB, so a turn card's row stays small: PostgreSQL no longer compresses and moves its parts
//! out of the table (TOAST) when it is queued, nor reads them back from there when it is
//! claimed.

use serde::{Deserialize, Serialize};
use turnpost_shared::render::{render_svg, BoardView};
use turnpost_shared::{AnyGame, Options, Seat};

use super::PictureError;

/// The option that holds Kechi's dice seed: kept out of the outbox (the position's die total is
/// all the board needs, and the seed decides every later roll).
const SEED_OPTION: &str = "seed";

/// What a board picture is drawn from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardSource {
    /// The game's options, without its dice seed.
    pub options: Options,
    /// The position text (its first word names the game).
    pub position: String,
    /// The moves marked on the board, oldest first: (seat number, move text).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<(u8, String)>,
}

impl BoardSource {
    /// The source of `game`'s board with `marks` marked, when reading it back gives exactly
    /// `view` (`game.board_view_with_moves(marks)`); `None` otherwise (not expected: the
    /// caller then queues the drawing itself).
    #[must_use]
    pub fn of(game: &AnyGame, marks: &[(Seat, &str)], view: &BoardView) -> Option<Self> {
        let mut options = game.options();
        options.remove(SEED_OPTION);
        let source = Self {
            options,
            position: game.position_text(),
            marks: marks
                .iter()
                .map(|(seat, text)| (seat.number(), (*text).to_owned()))
                .collect(),
        };
        (source.view().ok().as_ref() == Some(view)).then_some(source)
    }

    /// The board, marks included.
    ///
    /// # Errors
    /// [`PictureError::Board`] when the position does not read or a mark names no seat.
    pub fn view(&self) -> Result<BoardView, PictureError> {
        let game = AnyGame::from_position_text_seed_withheld(&self.options, &self.position)
            .map_err(|error| PictureError::Board(error.to_string()))?;
        let marks = self
            .marks
            .iter()
            .map(|(number, text)| {
                Seat::new(*number)
                    .filter(|_| *number <= game.seat_count())
                    .map(|seat| (seat, text.as_str()))
                    .ok_or_else(|| PictureError::Board(format!("no seat {number} to mark")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(game.board_view_with_moves(marks))
    }

    /// The drawing, as the shared renderer makes it.
    ///
    /// # Errors
    /// As [`Self::view`].
    pub fn svg(&self) -> Result<String, PictureError> {
        self.view().map(|view| render_svg(&view))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::{GameKind, Status};

    /// Plays up to `plies` moves of a game of `kind` (a different legal move each ply, so the
    /// positions spread), returning each position with the seat and move that led to it.
    fn positions(kind: GameKind, options: &Options, plies: usize) -> Vec<(AnyGame, Seat, String)> {
        let mut game = AnyGame::new(kind, options).unwrap();
        let mut out = Vec::new();
        for ply in 0..plies {
            let Status::Ongoing { to_move } = game.status() else {
                break;
            };
            let moves = game.legal_moves();
            let Some(text) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            let (next, played) = game.play(text).unwrap();
            game = next;
            out.push((game.clone(), to_move, played));
        }
        out
    }

    #[test]
    fn a_source_draws_the_very_drawing_of_its_position() {
        let variants: [(GameKind, &[(&str, &str)]); 7] = [
            (GameKind::Kefren, &[]),
            (GameKind::Kechi, &[]),
            (GameKind::Kechi, &[("total", "die"), ("seed", "42")]),
            (GameKind::SanQi, &[]),
            (GameKind::ChineseCheckers, &[("players", "2")]),
            (GameKind::ChineseCheckers, &[("players", "3")]),
            (GameKind::ChineseCheckers, &[("players", "6")]),
        ];
        let mut checked = 0;
        for (kind, pairs) in variants {
            let options =
                Options::from_pairs(pairs.iter().map(|(key, value)| format!("{key}={value}")))
                    .unwrap();
            for (game, mover, text) in positions(kind, &options, 40) {
                let marks = [(mover, text.as_str())];
                let view = game.board_view_with_moves(marks);
                let source = BoardSource::of(&game, &marks, &view)
                    .unwrap_or_else(|| panic!("{kind:?} {}", game.position_text()));
                assert_eq!(source.options.get(SEED_OPTION), None);
                let json = serde_json::to_string(&source).unwrap();
                assert!(json.len() < 1_000, "{} bytes: {json}", json.len());
                let back: BoardSource = serde_json::from_str(&json).unwrap();
                assert_eq!(back.svg().unwrap(), render_svg(&view));
                checked += 1;
            }
        }
        assert!(checked > 200, "{checked} positions");
    }

    #[test]
    fn a_game_a_player_left_is_drawn_from_its_source_too() {
        let options = Options::from_pairs(["players=3"]).unwrap();
        let game = AnyGame::new(GameKind::ChineseCheckers, &options).unwrap();
        let (left, _) = game
            .leave(
                Seat::new(2).unwrap(),
                turnpost_shared::play::Departure::Resign,
            )
            .unwrap();
        let view = left.board_view();
        let source = BoardSource::of(&left, &[], &view).unwrap();
        assert_eq!(source.svg().unwrap(), render_svg(&view));
    }

    #[test]
    fn a_source_that_does_not_read_says_why() {
        let source = BoardSource {
            options: Options::default(),
            position: "chess e4".into(),
            marks: Vec::new(),
        };
        assert!(matches!(source.svg(), Err(PictureError::Board(why)) if why.contains("kind")));
        let game = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
        let source = BoardSource {
            marks: vec![(9, "A1".into())],
            ..BoardSource::of(&game, &[], &game.board_view()).unwrap()
        };
        assert!(matches!(source.view(), Err(PictureError::Board(why)) if why.contains("seat 9")));
    }
}
