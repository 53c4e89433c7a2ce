use clap::Args;
use turnpost_shared::api::{GameView, PlayMoveRequest};
use turnpost_shared::{AnyGame, MoveError};

use crate::failure::Failure;
use crate::game_display::{describe, engine_game, move_count, result_words};
use crate::output::{print, print_json};
use crate::session::Session;

/// Play a move. It is checked with the game's rules on your machine first, so a typo is
/// explained at once; the server checks it again.
#[derive(Args, Debug)]
pub struct MoveArgs {
    /// The game's id.
    pub id: i64,
    /// The move, in the game's notation (e.g. F3:E4:E7, a13-a8,e13-e12, R@d4, A5-G11).
    #[arg(num_args = 1.., required = true, value_name = "MOVE")]
    pub notation: Vec<String>,
    /// The moves played so far, as you saw them (`turnpost show` says "move N+1"); if the game
    /// has moved on since, the move is refused. Default: the current count.
    #[arg(long)]
    pub ply: Option<u32>,
    /// Check the move without playing it.
    #[arg(long)]
    pub dry_run: bool,
    /// A message for the other players, sent with the move (at most 500 characters); only
    /// the game's players see it.
    #[arg(long, short = 'm', value_name = "TEXT")]
    pub message: Option<String>,
}

/// Runs `turnpost move`.
///
/// # Errors
/// Exit 1 for an illegal move, a stale ply or not your turn; network failures.
pub fn run(args: MoveArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let text = args.notation.join(" ");
    let game: GameView = session.client.get(&format!("/games/{}", args.id))?;
    if game.status == turnpost_shared::play::GameStatus::Finished {
        return Err(Failure::refused(format!(
            "game #{} is over: {}",
            game.id,
            result_words(game.result.as_ref(), game.result_reason, &game.seats)
        )));
    }
    if game.status != turnpost_shared::play::GameStatus::Active {
        return Err(Failure::refused(format!(
            "game #{} is {}: there is nothing to play",
            game.id, game.status
        )));
    }
    let ply = args.ply.unwrap_or(game.ply);
    if ply != game.ply {
        return Err(Failure::refused(format!(
            "game #{} has moved on: {} now, you saw {ply} (--ply counts the moves played so \
             far); look at it again (turnpost show {}) before you move",
            game.id,
            move_count(turnpost_shared::play::GameStatus::Finished, game.ply),
            game.id
        )));
    }
    if !game.your_turn {
        return Err(Failure::refused(format!(
            "it is not your turn in game #{} ({})",
            game.id, game.status
        )));
    }
    let canonical = match engine_game(&game) {
        Some(engine) => engine
            .canonical_move(&text)
            .map_err(|error| explain(&text, &error, &engine))?,
        None => text.clone(),
    };
    if args.dry_run {
        if json {
            print_json("move", &canonical)?;
        } else {
            print(&format!(
                "{canonical} is legal in game #{} (not played).\n",
                game.id
            ))?;
        }
        return Ok(());
    }
    let after: GameView = session.client.post(
        &format!("/games/{}/moves", game.id),
        &PlayMoveRequest {
            notation: canonical,
            ply,
            message: args.message.clone(),
        },
    )?;
    if json {
        print_json("game", &after)?;
    } else {
        print(&describe(&after))?;
    }
    Ok(())
}

/// An illegal or unparsable move in `game`: for a syntax error, the player's text (which
/// word, what was expected, a legal move as an example) and a caret under the fault.
pub(crate) fn explain(text: &str, error: &MoveError, game: &AnyGame) -> Failure {
    match error {
        MoveError::Syntax(syntax) => {
            let column = text
                .get(..syntax.offset)
                .map_or(0, |before| before.chars().count());
            let example = game.legal_moves().into_iter().next();
            Failure::refused(format!(
                "{}\n  {text}\n  {}^",
                syntax.for_player(text, example.as_deref()),
                " ".repeat(column)
            ))
        }
        MoveError::Illegal { .. } => Failure::refused(format!("`{text}`: {error}")),
    }
}
