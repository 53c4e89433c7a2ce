use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use turnpost_shared::api::{GameList, GameSummary};
use turnpost_shared::play::GameStatus;

use crate::failure::Failure;
use crate::game_display::summary_lines;
use crate::output::{print, print_json};
use crate::session::Session;

/// Which games to list.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Only games in this state.
    #[arg(long, value_parser = status_parser())]
    pub status: Option<GameStatus>,
    /// `mine`: only games where it is your move.
    #[arg(long, value_parser = ["mine"])]
    pub turn: Option<String>,
    /// At most this many games (newest activity first).
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

/// Reads `--status` by the names of [`GameStatus`], which help and errors list (exact names,
/// as clap's own enums are read).
fn status_parser() -> impl TypedValueParser<Value = GameStatus> {
    PossibleValuesParser::new(GameStatus::ALL.map(GameStatus::as_str))
        .try_map(|name| name.parse::<GameStatus>())
}

/// Every game matching `status` and `turn`, following pages up to `limit`.
///
/// # Errors
/// Refusals and network failures.
pub fn fetch(
    session: &Session,
    status: Option<GameStatus>,
    mine: bool,
    limit: usize,
) -> Result<Vec<GameSummary>, Failure> {
    let mut games = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut query = vec![format!("limit={}", limit.clamp(1, 100))];
        if let Some(status) = status {
            query.push(format!("status={status}"));
        }
        if mine {
            query.push("turn=mine".to_string());
        }
        if let Some(cursor) = &cursor {
            query.push(format!("cursor={cursor}"));
        }
        let page: GameList = session.client.get(&format!("/games?{}", query.join("&")))?;
        games.extend(page.games);
        match page.next_cursor {
            Some(next) if games.len() < limit => cursor = Some(next),
            _ => break,
        }
    }
    games.truncate(limit);
    Ok(games)
}

/// Prints a list of games.
///
/// # Errors
/// Output errors.
pub fn show_list(games: &[GameSummary], json: bool, empty: &str) -> Result<(), Failure> {
    if json {
        return Ok(print_json("games", &games)?);
    }
    if games.is_empty() {
        print(&format!("{empty}\n"))?;
        return Ok(());
    }
    let mut text = String::new();
    for line in summary_lines(games) {
        text.push_str(&line);
        text.push('\n');
    }
    Ok(print(&text)?)
}

/// Runs `turnpost games`.
///
/// # Errors
/// Refusals and network failures.
pub fn run(args: GamesArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let games = fetch(&session, args.status, args.turn.is_some(), args.limit)?;
    show_list(&games, json, "No games.")
}

/// Runs `turnpost invites`: challenges waiting for players.
///
/// # Errors
/// Refusals and network failures.
pub fn invites(profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let games = fetch(&session, Some(GameStatus::Invited), false, 100)?;
    show_list(&games, json, "No invitations.")
}
