//! `turnpost mute|unmute [GAME] [--player NAME]`: hide (or show again) the messages players
//! send with their moves, of one game or of one player in every game. Without either, lists
//! what is muted.

use clap::Args;
use turnpost_shared::api::MessageMutes;

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;
use crate::terminal_text::escape_controls;

/// What to mute or unmute.
#[derive(Args, Debug)]
pub struct MuteArgs {
    /// The game whose messages to mute (you must play in it).
    #[arg(conflicts_with = "player")]
    pub id: Option<i64>,
    /// The player whose messages to mute, in every game.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
}

/// A name as one path segment: letters, digits, `-` and `_` as they are, anything else
/// percent-encoded (no account has such a name, so the server answers it is unknown).
fn path_segment(name: &str) -> String {
    let mut out = String::new();
    for byte in name.trim().bytes() {
        if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Runs `turnpost mute` (`on`) or `turnpost unmute`.
///
/// # Errors
/// Refusals (not your game, unknown player: exit 1) and network failures.
pub fn run(args: &MuteArgs, on: bool, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let path = match (&args.id, &args.player) {
        (Some(id), _) => Some(format!("/games/{id}/mute")),
        (None, Some(name)) => Some(format!("/players/{}/mute", path_segment(name))),
        (None, None) => None,
    };
    let mutes: MessageMutes = match path {
        Some(path) if on => session.client.post_empty(&path)?,
        Some(path) => session.client.delete_json(&path)?,
        None => session.client.get("/me/mutes")?,
    };
    if json {
        return Ok(print_json("mutes", &mutes)?);
    }
    Ok(print(&describe(&mutes))?)
}

/// What is muted, in words.
fn describe(mutes: &MessageMutes) -> String {
    let games = if mutes.games.is_empty() {
        "none".to_owned()
    } else {
        mutes
            .games
            .iter()
            .map(|id| format!("#{id}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let players = if mutes.players.is_empty() {
        "none".to_owned()
    } else {
        escape_controls(&mutes.players.join(", "), false)
    };
    format!("Messages muted from games: {games}\nMessages muted from players: {players}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_one_path_segment() {
        assert_eq!(path_segment(" bob_2-x "), "bob_2-x");
        assert_eq!(path_segment("a/b c"), "a%2Fb%20c");
    }
}
