use clap::Args;
use turnpost_shared::api::{CreateGameRequest, GameView};
use turnpost_shared::{AnyGame, GameKind};

use super::game_settings::{option_values, ChallengeSettings};
use crate::failure::Failure;
use crate::game_display::describe;
use crate::output::{print, print_json};
use crate::session::Session;

/// Challenge players to a new game; it starts when everyone has accepted.
#[derive(Args, Debug)]
pub struct NewArgs {
    /// Game kind: kefren, kechi, sanqi or chinese-checkers.
    pub kind: GameKind,
    /// Opponents' account names, comma-separated, in turn order after you; the built-in
    /// computer players are bot-1 … bot-5 (strength) and bot (= bot-3).
    #[arg(long = "with", value_delimiter = ',', required = true)]
    pub opponents: Vec<String>,
    #[command(flatten)]
    pub challenge: ChallengeSettings,
    /// A rated game (the default between people; with a bot, ask for it here). A
    /// non-standard option (a board size) cannot be rated.
    #[arg(long, conflicts_with = "unrated")]
    pub rated: bool,
    /// An unrated game (the default with a bot or a non-standard option).
    #[arg(long)]
    pub unrated: bool,
}

/// Runs `turnpost new`.
///
/// # Errors
/// Bad options (checked locally first, exit 2); refusals from the server; network failures.
pub fn run(args: NewArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    // The engine checks the options here too, so a typo is explained without a round trip.
    let settings = &args.challenge;
    let options = settings.game.options()?;
    AnyGame::new(args.kind, &options).map_err(Failure::usage)?;
    let session = Session::open(profile)?;
    let me: turnpost_shared::api::Account = session.client.get("/me")?;
    let mut seats = args.opponents.clone();
    if settings.seat == 0 || settings.seat > seats.len() + 1 {
        return Err(Failure::usage(format!(
            "--seat {}: expected 1 to {}",
            settings.seat,
            seats.len() + 1
        )));
    }
    seats.insert(settings.seat - 1, me.name);
    let request = CreateGameRequest {
        kind: args.kind,
        options: option_values(&options),
        seats,
        clock: settings.game.clock(),
        timeout: settings.game.timeout,
        on_leave: settings.on_leave,
        rated: match (args.rated, args.unrated) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
    };
    let game: GameView = session.client.post("/games", &request)?;
    if json {
        print_json("game", &game)?;
    } else if game.status == turnpost_shared::play::GameStatus::Active {
        // Every other seat is a built-in bot: they accept at once.
        print(&format!(
            "Game #{} started (the bots accepted at once).\n\n{}",
            game.id,
            describe(&game)
        ))?;
    } else {
        print(&format!(
            "Challenge #{} sent; the game starts when everyone has accepted.\n\n{}",
            game.id,
            describe(&game)
        ))?;
    }
    Ok(())
}
