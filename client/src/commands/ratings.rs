use turnpost_shared::api::{Account, Leaderboard, PlayerProfile};

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Players a page of a leaderboard.
const PAGE_SIZE: u32 = 50;

/// Runs `turnpost ratings [KIND [--page N]] [--player NAME]`: a page of a rating kind's
/// leaderboard, or a player's ratings (yours without `--player`).
///
/// # Errors
/// Usage failures without a profile; refusals (an unknown kind or player, exit 1); network
/// failures.
pub fn run(
    kind: Option<&str>,
    player: Option<&str>,
    page: u32,
    profile_flag: Option<&str>,
    json: bool,
) -> Result<(), Failure> {
    let session = Session::open(profile_flag)?;
    if let Some(kind) = kind {
        let offset = page.saturating_sub(1).saturating_mul(PAGE_SIZE);
        let board: Leaderboard = session.client.get(&format!(
            "/ratings/{kind}?limit={PAGE_SIZE}&offset={offset}"
        ))?;
        if json {
            print_json("leaderboard", &board)?;
        } else {
            print(&leaderboard_text(&board, page))?;
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

/// A page of a leaderboard as a table: rank, player, rating (`?` provisional), deviation,
/// games; and which page of how many when there is more than one.
fn leaderboard_text(board: &Leaderboard, page: u32) -> String {
    let pages = board.total.div_ceil(PAGE_SIZE).max(1);
    if board.total == 0 {
        return format!("No rated {} games yet.\n", board.kind);
    }
    if board.players.is_empty() {
        return format!(
            "Page {page} is past the last: {} has {} ranked on {}.\n",
            board.kind,
            turnpost_shared::render::counted(board.total, "player", "players"),
            turnpost_shared::render::counted(pages, "page", "pages")
        );
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
    if pages > 1 {
        text.push_str(&format!(
            "Page {page} of {pages} ({} players){}\n",
            board.total,
            if board.next_offset.is_some() {
                format!("; the next: --page {}", page + 1)
            } else {
                String::new()
            }
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
            turnpost_shared::render::counted(kind.games, "rated game", "rated games")
        ));
    }
    text
}
