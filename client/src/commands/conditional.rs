//! `turnpost if`: conditional moves in a two-player game — "if they play X, I play Y" — that
//! the server plays for you the moment your opponent moves as a line expects.

use clap::Args;
use turnpost_shared::api::ConditionalMoves;
use turnpost_shared::play::split_move_list;

use crate::failure::Failure;
use crate::output::{print, print_json};
use crate::session::Session;

/// Add a line of conditional moves, or list or clear them.
///
/// A line starts with your opponent's next move, then yours, then theirs…: `turnpost if 42
/// "A18-A17 F3-F4 A17-A16 F4-F5"` answers A18-A17 with F3-F4 and then A17-A16 with F4-F5.
/// The server checks every move of the line; once your opponent plays a move no line
/// expects, all lines are dropped (your next turn mail says so).
#[derive(Args, Debug)]
pub struct IfArgs {
    /// The game's id.
    pub id: i64,
    /// The line to add: moves, your opponent's first (quoted as one word, or as several).
    #[arg(value_name = "MOVES", conflicts_with_all = ["list", "clear"])]
    pub line: Vec<String>,
    /// List the lines set (the default without MOVES).
    #[arg(long)]
    pub list: bool,
    /// Clear every line.
    #[arg(long, conflicts_with = "list")]
    pub clear: bool,
}

/// Runs `turnpost if`.
///
/// # Errors
/// Exit 1 for a line the server refuses (with the engine's reason) or a game that moved on;
/// network failures.
pub fn run(args: IfArgs, profile: Option<&str>, json: bool) -> Result<(), Failure> {
    let session = Session::open(profile)?;
    let path = format!("/games/{}/conditional", args.id);
    let lines: ConditionalMoves = if args.clear {
        session.client.delete_json(&path)?
    } else if args.line.is_empty() {
        session.client.get(&path)?
    } else {
        let mut set: ConditionalMoves = session.client.get(&path)?;
        set.lines.push(split_move_list(&args.line.join(" ")));
        session.client.put(&path, &set)?
    };
    if json {
        print_json("conditional", &lines)?;
    } else {
        print(&describe(args.id, &lines))?;
    }
    Ok(())
}

/// The lines as a person reads them.
fn describe(id: i64, set: &ConditionalMoves) -> String {
    if set.lines.is_empty() {
        return format!("No conditional moves in game #{id}.\n");
    }
    let mut text = format!(
        "Conditional moves in game #{id}, from move {} (their move first):\n",
        set.ply + 1
    );
    for line in &set.lines {
        text.push_str("  ");
        text.push_str(&line.join("  "));
        text.push('\n');
    }
    text
}
