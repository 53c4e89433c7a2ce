//! `turnpost engine replay RECORD`: replays a game record as `turnpost record` prints it and
//! prints every position on the way, so anyone can check a finished game's dice: the seed
//! revealed at the end must match the commitment published at the start (`Seed-SHA256`, the
//! SHA-256 of the seed's decimal digits), and each position's total is the roll of its ply.

use std::io::Read as _;
use std::path::PathBuf;

use clap::Args;
use turnpost_shared::play::seed_commitment;
use turnpost_shared::{AnyGame, GameKind, GameRecord, Options};

use crate::failure::Failure;
use crate::output::{print, print_json};

/// The record to replay.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// The record file (`turnpost record ID > FILE`), or `-` for standard input.
    #[arg(value_name = "FILE")]
    pub record: PathBuf,
}

/// What a replay found, for `--json`.
#[derive(serde::Serialize)]
struct Replayed {
    /// The revealed seed, checked against its commitment, if the record has one.
    seed: Option<u64>,
    /// The position before the first move, then after each move.
    positions: Vec<String>,
    /// The moves (and departures) as the record lists them.
    moves: Vec<String>,
    /// `ongoing N`, `won N` or `draw` after the last move.
    status: String,
}

/// Runs `turnpost engine replay`.
///
/// # Errors
/// A usage failure for an unreadable file or record, or a record of a game still running
/// (its seed is withheld); a refusal for a seed that does not match its commitment or a move
/// that cannot be played.
pub fn run(args: &ReplayArgs, json: bool) -> Result<(), Failure> {
    let text = read(&args.record)?;
    let record = GameRecord::parse(&text).map_err(Failure::usage)?;
    let kind: GameKind = record
        .header("Kind")
        .ok_or_else(|| Failure::usage("the record has no Kind header"))?
        .parse()
        .map_err(Failure::usage)?;
    let options = Options::from_pairs(record.header("Options").unwrap_or("").split_whitespace())
        .map_err(|error| Failure::usage(format!("the record's Options header: {error}")))?;
    let seed = checked_seed(&record, &options)?;
    let mut game = AnyGame::new(kind, &options).map_err(Failure::usage)?;
    let mut positions = vec![game.position_text()];
    for (index, line) in record.moves.iter().enumerate() {
        let (next, _) = game
            .play_line(line)
            .map_err(|error| Failure::refused(format!("move {} `{line}`: {error}", index + 1)))?;
        game = next;
        positions.push(game.position_text());
    }
    let replayed = Replayed {
        seed,
        positions,
        moves: record.moves.clone(),
        status: game.status().to_string(),
    };
    if json {
        return Ok(print_json("replay", &replayed)?);
    }
    let mut out = String::new();
    if let Some(seed) = seed {
        out.push_str(&format!(
            "seed {seed} matches Seed-SHA256 {}\n",
            seed_commitment(seed)
        ));
    }
    let mut positions = replayed.positions.iter();
    if let Some(start) = positions.next() {
        out.push_str(&format!("start: {start}\n"));
    }
    for ((number, mv), position) in (1..).zip(&replayed.moves).zip(positions) {
        out.push_str(&format!("{number} {mv}: {position}\n"));
    }
    out.push_str(&replayed.status);
    out.push('\n');
    Ok(print(&out)?)
}

/// The seed of the record, checked: the `Seed` header, the `seed` option and the commitment
/// must agree. A record with a commitment and no seed is a running game's.
fn checked_seed(record: &GameRecord, options: &Options) -> Result<Option<u64>, Failure> {
    let commitment = record.header("Seed-SHA256");
    let Some(seed_text) = record.header("Seed").or(options.get("seed")) else {
        return match commitment {
            Some(_) => Err(Failure::usage(
                "the record has Seed-SHA256 but no Seed: a running game's seed is withheld \
                 until the game is finished; replay the record of the finished game",
            )),
            None => Ok(None),
        };
    };
    let seed: u64 = seed_text.parse().map_err(|_| {
        Failure::usage(format!(
            "the record's seed `{seed_text}` is not a whole number"
        ))
    })?;
    if options
        .get("seed")
        .is_some_and(|option| option != seed_text)
    {
        return Err(Failure::refused(format!(
            "the Seed header {seed_text} differs from the option seed={}",
            options.get("seed").unwrap_or_default()
        )));
    }
    if options.get("seed").is_none() {
        return Err(Failure::usage(
            "the record has a Seed header but its Options give no seed",
        ));
    }
    match commitment {
        Some(expected) if !expected.eq_ignore_ascii_case(&seed_commitment(seed)) => {
            Err(Failure::refused(format!(
                "seed {seed} does not match its commitment: SHA-256 of `{seed}` is {}, the \
                 record's Seed-SHA256 is {expected}",
                seed_commitment(seed)
            )))
        }
        _ => Ok(Some(seed)),
    }
}

/// The text of `path`, or of standard input for `-`.
fn read(path: &PathBuf) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|error| Failure::usage(format!("cannot read standard input: {error}")))?;
        return Ok(text);
    }
    std::fs::read_to_string(path)
        .map_err(|error| Failure::usage(format!("cannot read {}: {error}", path.display())))
}
