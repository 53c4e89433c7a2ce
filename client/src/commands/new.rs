use std::collections::BTreeMap;

use clap::Args;
use turnpost_shared::{AnyGame, CreateGameRequest, GameKind, GameView, OptionValue, Options};

use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json};
use crate::session::Session;

/// Challenge players to a new game; it starts when everyone has accepted.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// Opponents' account names, comma-separated, in turn order after you.
    #[arg(long = "with", value_delimiter = ',', required = true)]
    pub opponents: Vec<String>,
    /// A game option as key=value (repeatable), e.g. --option players=3.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Days each player has per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub days_per_move: Option<u32>,
    /// Your seat in the turn order (1 moves first).
    #[arg(long, default_value_t = 1)]
    pub seat: usize,
}

/// Runs `turnpost new`.
///
/// # Errors
/// Bad options (checked locally first, exit 2); refusals from the server; network failures.
pub fn run(args: NewArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    // The engine checks the options here too, so a typo is explained without a round trip.
    let options = Options::from_pairs(&args.options).map_err(Failure::usage)?;
    AnyGame::new(args.kind, &options).map_err(Failure::usage)?;
    let session = Session::open(profile)?;
    let me: turnpost_shared::Account = session.client.get("/me")?;
    let mut seats = args.opponents.clone();
    if args.seat == 0 || args.seat > seats.len() + 1 {
        return Err(Failure::usage(format!(
            "--seat {}: expected 1 to {}",
            args.seat,
            seats.len() + 1
        )));
    }
    seats.insert(args.seat - 1, me.name);
    let request = CreateGameRequest {
        kind: args.kind.name().to_string(),
        options: options
            .iter()
            .map(|(key, value)| (key.to_string(), OptionValue::Text(value.to_string())))
            .collect::<BTreeMap<_, _>>(),
        seats,
        clock: args.days_per_move.map(|days| format!("{days}d")),
    };
    let game: GameView = session.client.post("/games", &request)?;
    if json {
        print_json("game", &game)?;
    } else {
        print(&format!(
            "Challenge #{} sent; the game starts when everyone has accepted.\n\n{}",
            game.id,
            describe(&game)
        ))?;
    }
    Ok(())
}
