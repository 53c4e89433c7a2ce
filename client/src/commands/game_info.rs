//! Read-only views of one game: legal moves, history, record, board picture.

use std::path::PathBuf;

use turnpost_shared::api::{GameView, MoveList};

use crate::failure::Failure;
use crate::game_display::{engine_game, marked_view};
use crate::move_listing::move_listing;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost moves ID`: the legal moves in the game's position, one per line (many are
/// grouped or cut short unless `all`; see `move_listing`).
///
/// # Errors
/// Refusals and network failures.
pub fn moves(id: i64, all: bool, profile: Option<&str>, json: bool) -> Result<(), Failure> {
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
    if !game.your_turn && !moves.is_empty() {
        // Listed anyway (to study the position), but nobody should mistake them for theirs.
        let whose = game
            .to_move
            .and_then(|seat| game.seats.iter().find(|s| s.seat == seat))
            .map_or_else(|| "the other player".to_string(), |s| s.player.clone());
        eprintln!(
            "not your turn in game #{}: these are the moves of {whose}, who is to move",
            game.id
        );
    } else if moves.is_empty() && game.status != turnpost_shared::play::GameStatus::Active {
        eprintln!("game #{} is {}: there are no moves", game.id, game.status);
    }
    let hint = format!("turnpost moves {id} --all");
    Ok(print(&move_listing(&moves, all, &hint))?)
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
        (None, Some(engine)) if game.status == turnpost_shared::play::GameStatus::Active => {
            engine.legal_moves()
        }
        _ => Vec::new(),
    };
    Ok((game, moves))
}

/// Runs `turnpost history ID`: every move with its number (from 1), player and time.
///
/// # Errors
/// Refusals and network failures.
pub fn history(id: i64, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let list: MoveList = session.client.get(&format!("/games/{id}/moves"))?;
    if json {
        return Ok(print_json("moves", &list.moves)?);
    }
    let game: GameView = session.client.get(&format!("/games/{id}"))?;
    let who = |seat: u8| {
        game.seats.iter().find(|s| s.seat == seat).map_or_else(
            || format!("seat {seat}"),
            |s| format!("{}, {}", s.player, s.seat_name),
        )
    };
    // Columns as wide as their longest entry, so long Kechi turns keep the times aligned.
    let who_width = list
        .moves
        .iter()
        .map(|mv| who(mv.seat).chars().count())
        .max()
        .unwrap_or(0);
    let move_width = list
        .moves
        .iter()
        .map(|mv| mv.notation.chars().count())
        .max()
        .unwrap_or(0);
    let mut text = String::new();
    for mv in &list.moves {
        let how = match (mv.automatic, mv.prepared) {
            (true, _) => " (automatic)",
            (false, true) => " (prepared answer)",
            (false, false) => "",
        };
        text.push_str(&format!(
            "move {:>3}  {:<who_width$}  {:<move_width$}  {}{how}\n",
            mv.ply + 1,
            who(mv.seat),
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
    // Drawn here from the game, like `show`, so the last moves are marked in their movers'
    // colours; the server's picture is the fallback for a position this CLI cannot read.
    let game: GameView = session.client.get(&format!("/games/{id}"))?;
    let picture = match engine_game(&game) {
        Some(engine) => turnpost_shared::render::render_svg(&marked_view(&engine, &game)),
        None => session.client.get_text(&format!("/games/{id}/board.svg"))?,
    };
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
