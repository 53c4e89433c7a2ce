//! `turnpost rules [KIND]`: the players' rules of a game, offline.

use serde::Serialize;
use turnpost_shared::rules::rules_for_players;
use turnpost_shared::GameKind;

use crate::failure::Failure;
use crate::output::{print, print_json};

#[derive(Serialize)]
struct RulesJson {
    kind: GameKind,
    title: &'static str,
    text: &'static str,
}

/// Prints the rules of `kind`, or the list of kinds when none is given.
///
/// # Errors
/// Output errors.
pub fn run(kind: Option<GameKind>, json: bool) -> Result<(), Failure> {
    match (kind, json) {
        (Some(kind), false) => print(rules_for_players(kind))?,
        (Some(kind), true) => print_json("rules", &entry(kind))?,
        (None, false) => {
            let mut text = String::from("Games (turnpost rules KIND shows how to play one):\n");
            for kind in GameKind::ALL {
                text.push_str(&format!("  {:<18}{}\n", kind.name(), kind.title()));
            }
            print(&text)?;
        }
        (None, true) => {
            let all: Vec<RulesJson> = GameKind::ALL.into_iter().map(entry).collect();
            print_json("rules", &all)?;
        }
    }
    Ok(())
}

fn entry(kind: GameKind) -> RulesJson {
    RulesJson {
        kind,
        title: kind.title(),
        text: rules_for_players(kind),
    }
}
