//! `turnpost engine play`: a whole game against the bot in the terminal. The board after every
//! move; moves typed with the checks and messages of `turnpost move`; `hint`, `undo`, `resign`,
//! `moves`, `help`; end of input (Ctrl-D) quits.

use std::io::{BufRead, IsTerminal, Write};

use clap::Args;
use turnpost_shared::bot::{choose_move, BotLevel};
use turnpost_shared::render::{moves_to_mark, render_text};
use turnpost_shared::{AnyGame, Seat, Status};

use super::engine_position::PositionArgs;
use super::engine_status::describe_status;
use super::play::explain;
use crate::failure::Failure;
use crate::move_listing::move_listing;
use crate::output::{print, text_style};

/// Which game, which seat is yours, how strong the bot is.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The game, its options, and optionally a position or moves to start from.
    #[command(flatten)]
    pub position: PositionArgs,
    /// Bot strength, 1 (instant) to 5 (up to a few seconds a move).
    #[arg(long, default_value = "3", value_name = "N")]
    pub level: BotLevel,
    /// Your seat (1 moves first). Every other seat is played by the bot.
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub seat: u8,
    /// The bot's seed (default 0): the same seed and the same moves give the same game.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
}

const HELP: &str = "Type a move in the game's notation, or:\n  \
    hint    the move the bot would play for you\n  \
    undo    take back your last move (and the bot's replies)\n  \
    moves   list your legal moves (many: grouped; moves all: every one)\n  \
    resign  give up the game\n  \
    help    this text\nEnd of input (Ctrl-D) quits.\n";

/// A position and the move played from it (for `undo`, and to mark the moves since yours).
struct Played {
    before: AnyGame,
    by: Seat,
    text: String,
}

/// Runs `turnpost engine play`.
///
/// # Errors
/// A usage failure for bad options or a seat the game does not have; output errors.
pub fn run(args: &PlayArgs) -> Result<(), Failure> {
    let mut game = args.position.game()?;
    let kind = game.kind();
    let seats = game.seat_count();
    let human = Seat::new(args.seat)
        .filter(|seat| seat.number() <= seats)
        .ok_or_else(|| {
            Failure::usage(format!(
                "--seat: this {} variant has seats 1 to {seats}, not {}",
                kind, args.seat
            ))
        })?;
    print(&format!(
        "{} against the bot (level {}): you play {}. Type `help` for commands.\n",
        kind.title(),
        args.level,
        game.seat_name(human)
    ))?;
    let mut history: Vec<Played> = Vec::new();
    let mut shown = false;
    let stdin = std::io::stdin();
    // Typed input is echoed by the terminal; piped input is echoed here so the dialogue reads.
    let echo = !stdin.is_terminal();
    let mut lines = stdin.lock().lines();
    loop {
        let bot_to_move = game.status().to_move().is_some_and(|seat| seat != human);
        if !shown && !bot_to_move {
            show(&game, &history)?;
            shown = true;
        }
        let to_move = match game.status() {
            Status::Ongoing { to_move } => to_move,
            Status::Won { winners } => {
                let message = if winners.contains(&human) {
                    "You won!"
                } else {
                    "The bot won."
                };
                print(&format!("{message}\n"))?;
                return Ok(());
            }
            Status::Draw => {
                print("Draw.\n")?;
                return Ok(());
            }
        };
        if to_move != human {
            let seed = args
                .seed
                .wrapping_add(history.len() as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mv = choose_move(&game, args.level, seed).map_err(Failure::refused)?;
            print(&format!("{} plays {mv}\n", game.seat_name(to_move)))?;
            let (next, canonical) = game.play(&mv).map_err(Failure::refused)?;
            history.push(Played {
                before: std::mem::replace(&mut game, next),
                by: to_move,
                text: canonical,
            });
            shown = false;
            continue;
        }
        // The status line above says whose move it is; the prompt does not say it again.
        print("your move> ")?;
        let Some(line) = lines.next() else {
            print("\nBye.\n")?;
            return Ok(());
        };
        let line = line.map_err(|error| Failure::usage(format!("cannot read input: {error}")))?;
        let text = line.trim();
        if echo {
            print(&format!("{text}\n"))?;
        }
        match text.to_ascii_lowercase().as_str() {
            "" => {}
            "help" | "?" => print(HELP)?,
            "hint" => {
                let hint = choose_move(&game, args.level, args.seed).map_err(Failure::refused)?;
                print(&format!("Hint: {hint}\n"))?;
            }
            "moves" => print(&move_listing(&game.legal_moves(), false, "moves all"))?,
            "moves all" => print(&move_listing(&game.legal_moves(), true, ""))?,
            "resign" => {
                let outcome = if seats == 2 {
                    "The bot won."
                } else {
                    "Game over."
                };
                print(&format!("{} resigns. {outcome}\n", game.seat_name(human)))?;
                return Ok(());
            }
            "undo" => {
                if !history.iter().any(|played| played.by == human) {
                    print("Nothing to undo: you have not moved yet.\n")?;
                    continue;
                }
                while let Some(played) = history.pop() {
                    game = played.before;
                    if played.by == human {
                        break;
                    }
                }
                shown = false;
            }
            _ => match game.play(text) {
                Ok((next, canonical)) => {
                    history.push(Played {
                        before: std::mem::replace(&mut game, next),
                        by: human,
                        text: canonical,
                    });
                    shown = false;
                }
                Err(error) => {
                    let failure = explain(text, &error, &game);
                    let mut stderr = std::io::stderr().lock();
                    writeln!(stderr, "{}", failure.message)?;
                }
            },
        }
    }
}

/// The board, with the last moves marked in their movers' colours (`moves_to_mark`, the rule
/// of `turnpost show`, mails and pages), and whose turn it is.
fn show(game: &AnyGame, history: &[Played]) -> Result<(), Failure> {
    let view = game.board_view_with_moves(
        moves_to_mark(history, game.seat_count())
            .iter()
            .map(|played| (played.by, played.text.as_str())),
    );
    let mut text = render_text(&view, text_style());
    text.push('\n');
    text.push_str(&describe_status(game));
    text.push('\n');
    print(&text)?;
    Ok(())
}
