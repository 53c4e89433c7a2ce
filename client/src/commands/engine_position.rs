//! The position an engine command works on: `KIND [--option K=V]… [--position TEXT]
//! [--moves MOVES]`.

use clap::Args;
use turnpost_shared::play::split_move_list;
use turnpost_shared::{AnyGame, GameKind, Options};

use crate::failure::Failure;

/// Which position: a game kind, its options, a start (or `--position`) and moves played from it.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// A game option as key=value (repeatable), e.g. --option lines=5.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Moves to play first, separated by spaces, e.g. --moves "F2-F3 E18-E17"; a seat leaves
    /// with `resign N`, `timeout N` or `claim N` among them.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// Start from this position text instead of the start position.
    #[arg(long, value_name = "TEXT")]
    pub position: Option<String>,
}

impl PositionArgs {
    /// The position these arguments describe.
    ///
    /// # Errors
    /// A usage failure for bad options, position text or an unimplemented kind; a refusal
    /// naming the move (1-based) for a move in `--moves` that cannot be played.
    pub fn game(&self) -> Result<AnyGame, Failure> {
        let options = Options::from_pairs(&self.options).map_err(Failure::usage)?;
        let start = match &self.position {
            None => AnyGame::new(self.kind, &options).map_err(Failure::usage)?,
            Some(text) => {
                let game = AnyGame::from_position_text(&options, text).map_err(Failure::usage)?;
                if game.kind() != self.kind {
                    return Err(Failure::usage(format!(
                        "--position is a {} position, but the kind given is {}",
                        game.kind(),
                        self.kind
                    )));
                }
                game
            }
        };
        let moves = split_move_list(self.moves.as_deref().unwrap_or(""));
        start
            .replay(&moves)
            .map_err(|error| Failure::refused(format!("--moves: {error}")))
    }
}
