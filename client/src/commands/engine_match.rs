//! `turnpost engine match`: games between bots and random players, seats rotating from game to
//! game; wins per player, draws and mean game length. Single-threaded and deterministic for a
//! seed.

use std::fmt;
use std::io::{IsTerminal, Write};
use std::str::FromStr;

use clap::Args;
use serde::Serialize;
use turnpost_shared::bot::{choose_move, random_move, BotLevel};
use turnpost_shared::{AnyGame, GameKind, Options, Status};

use crate::failure::Failure;
use crate::output::{print, print_json};

/// A game that reaches this many plies is stopped and counted as a draw (Kefren twirls and
/// SanQi replacements can go on for ever).
pub const MAX_PLIES: u32 = 1000;

/// Who plays a seat: a bot of some level, or uniformly random legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Bot(BotLevel),
    Random,
}

impl Player {
    /// This player's move in `game`; `seed` makes it reproducible.
    ///
    /// # Errors
    /// A refusal when the game is over (callers check first).
    pub fn choose(self, game: &AnyGame, seed: u64) -> Result<String, Failure> {
        match self {
            Player::Bot(level) => choose_move(game, level, seed),
            Player::Random => random_move(game, seed),
        }
        .map_err(Failure::refused)
    }
}

impl FromStr for Player {
    type Err = String;

    fn from_str(text: &str) -> Result<Player, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("random") {
            return Ok(Player::Random);
        }
        text.strip_prefix("bot-")
            .and_then(|level| level.parse().ok())
            .map(Player::Bot)
            .ok_or_else(|| format!("expected a player bot-1 … bot-5 or random, found `{text}`"))
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Bot(level) => write!(f, "bot-{level}"),
            Player::Random => f.write_str("random"),
        }
    }
}

/// Which game, who plays, how many games.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// One player per seat, comma-separated: bot-1 … bot-5 or random. Game g seats player i
    /// at seat (i + g) modulo the number of seats.
    #[arg(long, value_delimiter = ',', required = true, value_name = "A,B[,…]")]
    pub players: Vec<Player>,
    /// Number of games.
    #[arg(long, value_name = "N")]
    pub games: u32,
    /// A game option as key=value (repeatable), e.g. --option players=3.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Seed of the whole match: the same seed gives the same games.
    #[arg(long, default_value_t = 0, value_name = "S")]
    pub seed: u64,
}

/// The `--json` document of a match.
#[derive(Serialize)]
struct MatchResult {
    players: Vec<String>,
    games: u32,
    wins: Vec<u32>,
    draws: u32,
    plies_mean: f64,
}

/// A seed for one move of one game, mixed so nearby games and plies differ.
fn move_seed(seed: u64, game: u32, ply: u32) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (u64::from(game) << 32)
        ^ u64::from(ply).wrapping_mul(0xBF58_476D_1CE4_E5B9)
}

/// Runs `turnpost engine match`.
///
/// # Errors
/// A usage failure for bad options or a player count that is not the game's seat count.
pub fn run(args: &MatchArgs, json: bool) -> Result<(), Failure> {
    let options = Options::from_pairs(&args.options).map_err(Failure::usage)?;
    let start = AnyGame::new(args.kind, &options).map_err(Failure::usage)?;
    let seats = usize::from(start.seat_count());
    if args.players.len() != seats {
        return Err(Failure::usage(format!(
            "--players: this {} variant has {seats} seats, but {} players were given",
            args.kind,
            args.players.len()
        )));
    }
    // A variant drawing dice from the option `seed` (Kechi `total=die`) gets a new seed each game
    // unless one was given, so the games do not all roll alike.
    let vary_seed = options.get("seed").is_none()
        && AnyGame::option_specs(args.kind)
            .iter()
            .any(|spec| spec.key == "seed");
    let progress = std::io::stderr().is_terminal();
    let mut wins = vec![0u32; seats];
    let (mut draws, mut plies_total) = (0u32, 0u64);
    for number in 0..args.games {
        let rotation = number as usize % seats;
        let mut game = if vary_seed {
            let mut options = options.clone();
            options.set("seed", number.to_string());
            AnyGame::new(args.kind, &options).map_err(Failure::usage)?
        } else {
            start.clone()
        };
        let mut ply = 0u32;
        while let Status::Ongoing { to_move } = game.status() {
            if ply >= MAX_PLIES {
                break;
            }
            let player_index = (to_move.index() + seats - rotation) % seats;
            let player = args
                .players
                .get(player_index)
                .copied()
                .unwrap_or(Player::Random);
            let mv = player.choose(&game, move_seed(args.seed, number, ply))?;
            game = game.play(&mv).map_err(Failure::refused)?.0;
            ply += 1;
        }
        plies_total += u64::from(ply);
        match game.status() {
            Status::Won { winners } => {
                for seat in winners {
                    let player_index = (seat.index() + seats - rotation) % seats;
                    if let Some(count) = wins.get_mut(player_index) {
                        *count += 1;
                    }
                }
            }
            Status::Draw | Status::Ongoing { .. } => draws += 1,
        }
        if progress {
            show_progress(number + 1, args.games);
        }
    }
    if progress {
        eprint!("\r{}\r", " ".repeat(60));
    }
    let result = MatchResult {
        players: args.players.iter().map(Player::to_string).collect(),
        games: args.games,
        wins,
        draws,
        plies_mean: if args.games == 0 {
            0.0
        } else {
            plies_total as f64 / f64::from(args.games)
        },
    };
    if json {
        print_json("match", &result)?;
    } else {
        print(&describe(args.kind, &result))?;
    }
    Ok(())
}

/// `[#########...........] 12/40` on stderr, redrawn in place.
fn show_progress(done: u32, games: u32) {
    const WIDTH: u32 = 30;
    let filled = (done * WIDTH).checked_div(games).unwrap_or(WIDTH);
    let bar = format!(
        "{}{}",
        "#".repeat(filled as usize),
        ".".repeat((WIDTH - filled.min(WIDTH)) as usize)
    );
    let mut stderr = std::io::stderr().lock();
    // Progress is a courtesy: a failed write must not stop the match.
    let _ = write!(stderr, "\r[{bar}] {done}/{games}");
    let _ = stderr.flush();
}

fn describe(kind: GameKind, result: &MatchResult) -> String {
    let mut text = format!(
        "{}: {} games, {}\n",
        kind.title(),
        result.games,
        result.players.join(" vs ")
    );
    let width = result.players.iter().map(String::len).max().unwrap_or(0);
    for (player, wins) in result.players.iter().zip(&result.wins) {
        let share = if result.games == 0 {
            0.0
        } else {
            100.0 * f64::from(*wins) / f64::from(result.games)
        };
        text.push_str(&format!("  {player:<width$}  {wins} wins ({share:.0}%)\n"));
    }
    text.push_str(&format!("  draws: {}\n", result.draws));
    text.push_str(&format!("  mean plies: {:.1}\n", result.plies_mean));
    text
}
