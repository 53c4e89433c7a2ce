//! Read-only views of one game: legal moves, history, record, board picture.

use std::path::PathBuf;

use turnpost_shared::{GameView, MoveList};

use crate::failure::Failure;
use crate::game_display::engine_game;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost moves ID`: the legal moves in the game's position, one per line.
///
/// # Errors
/// Refusals and network failures.
pub fn moves(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let (game, moves) = legal_moves(&session, id)?;
    if json {
        #[derive(serde::Serialize)]
        struct Moves<'a> {
            game: i64,
            ply: u32,
            your_turn: bool,
            moves: &'a [String],
        }
        return Ok(print_json(
            "moves",
            &Moves {
                game: game.id,
                ply: game.ply,
                your_turn: game.your_turn,
                moves: &moves,
            },
        )?);
    }
    let mut text = String::new();
    for mv in &moves {
        text.push_str(mv);
        text.push('\n');
    }
    Ok(print(&text)?)
}

/// The game and the legal moves of the seat to move (yours or not), in canonical notation:
/// what `turnpost moves` lists and `turnpost move ID <TAB>` completes. None when the game is
/// not active.
///
/// # Errors
/// Refusals and network failures.
pub fn legal_moves(session: &Session, id: i64) -> Result<(GameView, Vec<String>), Failure> {
    let game: GameView = session.client.get(&format!("/games/{id}"))?;
    let engine = engine_game(&game);
    let moves = match (&game.legal_moves, &engine) {
        // Only what this client's own engine reads as a legal move of the position is offered:
        // a server's list goes into shell completions and scripts.
        (Some(moves), Some(engine)) => moves
            .iter()
            .filter(|mv| engine.canonical_move(mv).is_ok())
            .cloned()
            .collect(),
        (None, Some(engine)) if game.status == "active" => engine.legal_moves(),
        _ => Vec::new(),
    };
    Ok((game, moves))
}

/// Runs `turnpost history ID`: every move with its ply, seat and time.
///
/// # Errors
/// Refusals and network failures.
pub fn history(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let list: MoveList = session.client.get(&format!("/games/{id}/moves"))?;
    if json {
        return Ok(print_json("moves", &list.moves)?);
    }
    let mut text = String::new();
    for mv in &list.moves {
        let auto = if mv.automatic { " (automatic)" } else { "" };
        text.push_str(&format!(
            "{:>4}. seat {}  {:<20} {}{auto}\n",
            mv.ply + 1,
            mv.seat,
            mv.notation,
            mv.played_at
        ));
    }
    Ok(print(&text)?)
}

/// Runs `turnpost record ID`: the plain-text game record.
///
/// # Errors
/// Refusals and network failures.
pub fn record(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let text = session.client.get_text(&format!("/games/{id}/record"))?;
    if json {
        return Ok(print_json("record", &text)?);
    }
    Ok(print(&text)?)
}

/// Runs `turnpost board ID --svg FILE`: the board as an SVG picture.
///
/// # Errors
/// Refusals, network failures, and a usage failure when the file cannot be written.
pub fn board(id: i64, svg: PathBuf, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let picture = session.client.get_text(&format!("/games/{id}/board.svg"))?;
    std::fs::write(&svg, picture)
        .map_err(|error| Failure::usage(format!("cannot write {}: {error}", svg.display())))?;
    if json {
        print_json("board", &svg.display().to_string())?;
    } else {
        print(&format!(
            "Board of game #{id} written to {}.\n",
            svg.display()
        ))?;
    }
    Ok(())
}
