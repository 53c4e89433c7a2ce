//! `turnpost engine …`: the offline engine commands. Their output format is fixed (scripts and
//! independent implementations compare against it); the README's "Explore the games offline"
//! documents it.

use clap::Subcommand;
use turnpost_shared::play::{split_move_list, DepartureText};
use turnpost_shared::render::{render_svg, render_text};
use turnpost_shared::{GameKind, Options, Seat, Status};

use super::engine_bot::{self, BotArgs};
use super::engine_match::{self, MatchArgs};
use super::engine_play::{self, PlayArgs};
use super::engine_position::PositionArgs;
use super::engine_replay::{self, ReplayArgs};
use super::engine_status::describe_status;
use crate::failure::Failure;
use crate::output::{print, print_json, text_style};

#[derive(Subcommand, Debug)]
pub enum EngineCommand {
    /// Print every legal move, one canonical move per line, sorted.
    Moves(PositionArgs),
    /// Print the number of move sequences of a given length (the last line is a bare integer).
    Perft {
        #[command(flatten)]
        position: PositionArgs,
        /// Length of the move sequences to count.
        #[arg(long)]
        depth: u32,
    },
    /// Print the board, whose turn it is or the result, and the position text.
    Show {
        #[command(flatten)]
        position: PositionArgs,
        /// Also draw the board as an SVG picture into this file.
        #[arg(long, value_name = "FILE")]
        svg: Option<std::path::PathBuf>,
    },
    /// Print one line: `ongoing <seat>`, `won <seat>` or `draw`.
    Status(PositionArgs),
    /// Print the computer's move for a position (canonical text); exit 1 if the game is over.
    Bot(BotArgs),
    /// Play a whole game against the computer in the terminal.
    Play(PlayArgs),
    /// Play bots and random players against each other: wins, draws, mean game length.
    Match(MatchArgs),
    /// Replay a game record (`turnpost record ID > FILE`) and print every position: checks a
    /// finished game's revealed dice seed against its commitment and every roll against it.
    Replay(ReplayArgs),
}

/// The moves of the last round of `--moves` (at most one per seat, the latest of each), with
/// their seats: what `show` marks, as a player sees the moves since their previous turn.
///
/// # Errors
/// As [`PositionArgs::game`].
fn last_round(args: &PositionArgs) -> Result<Vec<(Seat, String)>, Failure> {
    let moves = split_move_list(args.moves.as_deref().unwrap_or(""));
    let mut game = PositionArgs {
        kind: args.kind,
        options: args.options.clone(),
        moves: None,
        position: args.position.clone(),
    }
    .game()?;
    let mut played: Vec<(Seat, String)> = Vec::new();
    for text in &moves {
        let Some(seat) = game.status().to_move() else {
            break;
        };
        let (next, canonical) = game
            .play_line(text)
            .map_err(|error| Failure::refused(format!("--moves: `{text}`: {error}")))?;
        // A departure line is no move to mark.
        if !DepartureText::is_departure(text) {
            played.push((seat, canonical));
        }
        game = next;
    }
    let seats = usize::from(game.seat_count());
    let start = played.len().saturating_sub(seats);
    let mut round = played.split_off(start);
    // One move per seat: a seat that moved twice in the round (a pass order) keeps its latest.
    let mut seen = Vec::new();
    round.reverse();
    round.retain(|(seat, _)| {
        let first = !seen.contains(seat);
        seen.push(*seat);
        first
    });
    round.reverse();
    Ok(round)
}

/// Runs an engine command.
///
/// # Errors
/// See [`PositionArgs::game`]; output errors.
pub fn run(command: EngineCommand, json: bool) -> Result<(), Failure> {
    match &command {
        EngineCommand::Bot(args) => return engine_bot::run(args, json),
        EngineCommand::Play(args) => return engine_play::run(args),
        EngineCommand::Match(args) => return engine_match::run(args, json),
        EngineCommand::Replay(args) => return engine_replay::run(args, json),
        _ => {}
    }
    if json {
        return run_json(command);
    }
    match command {
        EngineCommand::Moves(args) => {
            let game = args.game()?;
            let mut text = String::new();
            for mv in game.legal_moves() {
                text.push_str(&mv);
                text.push('\n');
            }
            print(&text)?;
        }
        EngineCommand::Perft { position, depth } => {
            let game = position.game()?;
            print(&format!("{}\n", game.perft(depth)))?;
        }
        EngineCommand::Show {
            position: args,
            svg,
        } => {
            let game = args.game()?;
            let view = game.board_view_with_moves(
                last_round(&args)?
                    .iter()
                    .map(|(seat, text)| (*seat, text.as_str())),
            );
            if let Some(path) = svg {
                std::fs::write(&path, render_svg(&view)).map_err(|error| {
                    Failure::usage(format!("cannot write {}: {error}", path.display()))
                })?;
            }
            let mut text = render_text(&view, text_style());
            text.push('\n');
            text.push_str(&describe_status(&game));
            text.push('\n');
            text.push_str(&game.position_text());
            text.push('\n');
            print(&text)?;
        }
        EngineCommand::Status(args) => {
            let game = args.game()?;
            print(&format!("{}\n", game.status()))?;
        }
        // Handled by their own modules at the top of `run`.
        EngineCommand::Bot(_)
        | EngineCommand::Play(_)
        | EngineCommand::Match(_)
        | EngineCommand::Replay(_) => {}
    }
    Ok(())
}

/// The engine commands with `--json`: one document each, for scripts.
fn run_json(command: EngineCommand) -> Result<(), Failure> {
    match command {
        EngineCommand::Moves(args) => print_json("moves", &args.game()?.legal_moves())?,
        EngineCommand::Perft { position, depth } => {
            print_json("perft", &position.game()?.perft(depth))?
        }
        EngineCommand::Status(args) => print_json("status", &args.game()?.status())?,
        // Handled by their own modules at the top of `run`.
        EngineCommand::Bot(_)
        | EngineCommand::Play(_)
        | EngineCommand::Match(_)
        | EngineCommand::Replay(_) => {}
        EngineCommand::Show { position, svg } => {
            let game = position.game()?;
            let view = game.board_view();
            if let Some(path) = svg {
                std::fs::write(&path, render_svg(&view)).map_err(|error| {
                    Failure::usage(format!("cannot write {}: {error}", path.display()))
                })?;
            }
            #[derive(serde::Serialize)]
            struct Shown {
                kind: GameKind,
                options: Options,
                position: String,
                status: Status,
                scores: Option<Vec<i64>>,
                /// The seats that have left, first to leave first.
                departed: Vec<Seat>,
                /// Each seat's final place (index: seat - 1), once the game is over.
                placings: Option<Vec<u8>>,
                board: String,
            }
            print_json(
                "position",
                &Shown {
                    kind: game.kind(),
                    options: game.options(),
                    position: game.position_text(),
                    status: game.status(),
                    scores: game.scores(),
                    departed: game.departed(),
                    placings: game.placings(),
                    board: render_text(&view, turnpost_shared::render::TextStyle::Plain),
                },
            )?
        }
    }
    Ok(())
}
