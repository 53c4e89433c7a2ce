use turnpost_shared::{Account, Leaderboard, PlayerProfile};

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Runs `turnpost ratings [KIND] [--player NAME]`: a rating kind's leaderboard, or a player's
/// ratings (yours without `--player`).
///
/// # Errors
/// Usage failures without a profile; refusals (an unknown kind or player, exit 1); network
/// failures.
pub fn run(
    kind: Option<&str>,
    player: Option<&str>,
    profile_flag: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile_flag)?;
    if let Some(kind) = kind {
        let board: Leaderboard = session.client.get(&format!("/ratings/{kind}"))?;
        if json {
            print_json("leaderboard", &board)?;
        } else {
            print(&leaderboard_text(&board))?;
        }
        return Ok(());
    }
    let name = match player {
        Some(name) => name.to_owned(),
        None => session.client.get::<Account>("/me")?.name,
    };
    let found: PlayerProfile = session.client.get(&format!("/players/{name}"))?;
    if json {
        print_json("player", &found)?;
    } else {
        print(&profile_text(&found))?;
    }
    Ok(())
}

/// A leaderboard as a table: rank, player, rating (`?` provisional), deviation, games.
fn leaderboard_text(board: &Leaderboard) -> String {
    if board.players.is_empty() {
        return format!("No rated {} games yet.\n", board.kind);
    }
    let mut text = format!(
        "{} ratings (? provisional: deviation above 110)\n{:>4}  {:<24} {:>7} {:>9} {:>6}\n",
        board.kind, "#", "player", "rating", "deviation", "games"
    );
    for entry in &board.players {
        let name = if entry.bot {
            format!("{} (bot)", entry.player)
        } else {
            entry.player.clone()
        };
        let rating = format!(
            "{}{}",
            entry.rating,
            if entry.provisional { "?" } else { "" }
        );
        text.push_str(&format!(
            "{:>4}  {:<24} {:>7} {:>9} {:>6}\n",
            entry.rank, name, rating, entry.deviation, entry.games
        ));
    }
    text
}

/// A player's ratings, one kind a line.
fn profile_text(found: &PlayerProfile) -> String {
    if found.ratings.is_empty() {
        return format!("{} has no rated games yet.\n", found.name);
    }
    let mut text = format!("Ratings of {}:\n", found.name);
    for kind in &found.ratings {
        text.push_str(&format!(
            "  {:<24} {}{} (deviation {}{}), {}\n",
            kind.kind,
            kind.rating,
            if kind.provisional { "?" } else { "" },
            kind.deviation,
            if kind.provisional {
                ", provisional"
            } else {
                ""
            },
            turnpost_shared::counted(kind.games, "rated game", "rated games")
        ));
    }
    text
}
