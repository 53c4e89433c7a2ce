//! `turnpost __complete-moves`: the legal moves for `turnpost move ID <TAB>`, and for `turnpost if
//! ID MOVES… <TAB>` the legal moves after the conditional line typed so far, called by the
//! completion scripts of `turnpost completions`. Not part of the CLI definition, so neither
//! `--help` nor the generated completions offer it.

use std::ffi::OsString;
use std::time::Duration;

use clap::Parser;

use crate::cli::{Cli, Command};
use turnpost_shared::play::split_move_list;

use crate::commands::game_info::legal_moves;
use crate::game_display::engine_game;
use crate::output::print;
use crate::session::Session;

/// A completion runs while the user waits at the prompt: give up quickly.
const TIMEOUT: Duration = Duration::from_secs(2);

/// Stands for the word being completed when the command line is parsed, so that a move
/// position parses whatever has been typed there so far.
const PLACEHOLDER: &str = "MOVE";

/// The first argument that selects this entry point.
pub const NAME: &str = "__complete-moves";

/// The command line being completed, as the shell sees it.
#[derive(Parser, Debug)]
#[command(name = "turnpost __complete-moves")]
struct CompleteMovesArgs {
    /// What has been typed of the word being completed.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    current: String,
    /// The words before it, without the program name (after `--`).
    #[arg(last = true)]
    words: Vec<String>,
}

/// Runs `turnpost __complete-moves [--current WORD] -- WORDS…` (`args` are the arguments from
/// `__complete-moves` on): prints the legal moves starting with WORD, one per line, when WORDS
/// end at the move of `turnpost move ID`, and nothing otherwise.
///
/// Whatever goes wrong (bad arguments, not a move position, no profile, the server away or
/// refusing) completes nothing and says nothing, because anything printed would land in the
/// user's prompt; so there is no error to return.
pub fn run(args: impl IntoIterator<Item = OsString>) {
    let Ok(args) = CompleteMovesArgs::try_parse_from(args) else {
        return;
    };
    let Some((id, profile, line)) = move_position(&args.words, &args.current) else {
        return;
    };
    let Ok(session) = Session::open_with_timeout(profile.as_deref(), TIMEOUT) else {
        return;
    };
    let moves = match line {
        None => match legal_moves(&session, id) {
            Ok((_, moves)) => moves,
            Err(_) => return,
        },
        Some(line) => match moves_after_line(&session, id, &line) {
            Some(moves) => moves,
            None => return,
        },
    };
    let text: String = matching(&moves, &args.current)
        .into_iter()
        .map(|mv| mv + "\n")
        .collect();
    // A closed pipe (the shell gave up) is no reason to complain either.
    let _ = print(&text);
}

/// The legal moves of game `id` after the moves of `line` (a conditional line from the game as
/// it stands, forced passes played between them); none when a move of it is not legal.
fn moves_after_line(session: &Session, id: i64, line: &[String]) -> Option<Vec<String>> {
    let game: turnpost_shared::api::GameView = session.client.get(&format!("/games/{id}")).ok()?;
    let mut position = engine_game(&game)?;
    for mv in split_move_list(&line.join(" ")) {
        position = position.play(&mv).ok()?.0.forced_continuation().position;
    }
    Some(position.legal_moves())
}

/// The game id and profile when `words` are `move ID` (with any options) and the cursor is at
/// the move, or `if ID MOVES…` with the cursor at the next move of the line (then the moves
/// before it too); the profile comes from `--profile` on that line or `TURNPOST_PROFILE`.
fn move_position(
    words: &[String],
    current: &str,
) -> Option<(i64, Option<String>, Option<Vec<String>>)> {
    if current.starts_with('-') {
        // An option is being typed: the static completion knows those.
        return None;
    }
    let line = std::iter::once("turnpost")
        .chain(words.iter().map(String::as_str))
        .chain(std::iter::once(PLACEHOLDER));
    let cli = Cli::try_parse_from(line).ok()?;
    match cli.command {
        Command::Move(args) if args.notation.len() == 1 => Some((args.id, cli.profile, None)),
        Command::If(mut args) if args.line.last().is_some_and(|w| w == PLACEHOLDER) => {
            args.line.pop();
            Some((args.id, cli.profile, Some(args.line)))
        }
        _ => None,
    }
}

/// The moves that extend what is typed. Exact prefix matches first; failing those, matches
/// ignoring case (the engines parse any case), spelled with the typed prefix because shells
/// keep only candidates that start with what was typed.
fn matching(moves: &[String], typed: &str) -> Vec<String> {
    let exact: Vec<String> = moves
        .iter()
        .filter(|mv| mv.starts_with(typed))
        .cloned()
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    moves
        .iter()
        .filter_map(|mv| {
            let head = mv.get(..typed.len())?;
            let rest = mv.get(typed.len()..)?;
            head.eq_ignore_ascii_case(typed)
                .then(|| format!("{typed}{rest}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::{matching, move_position, CompleteMovesArgs};

    #[test]
    fn arguments_are_consistent() {
        CompleteMovesArgs::command().debug_assert();
    }

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn only_the_move_of_turnpost_move_id_is_a_move_position() {
        assert_eq!(move_position(&words("move 7"), ""), Some((7, None, None)));
        assert_eq!(
            move_position(&words("move 7 --dry-run"), "F2"),
            Some((7, None, None))
        );
        assert_eq!(
            move_position(&words("--profile club move --ply 3 7"), ""),
            Some((7, Some("club".to_string()), None))
        );
        assert_eq!(
            move_position(&words("move 7 --profile=club"), ""),
            Some((7, Some("club".to_string()), None))
        );
        // A conditional line: the moves typed before the cursor come along.
        assert_eq!(
            move_position(&words("if 7"), ""),
            Some((7, None, Some(Vec::new())))
        );
        assert_eq!(
            move_position(&words("if 7 A18-A17 F3-F4"), "A1"),
            Some((7, None, Some(words("A18-A17 F3-F4"))))
        );
        assert_eq!(move_position(&words("if 7 --list"), ""), None);
        // The id, a --ply value, a second word of a move, an option, other commands: no.
        assert_eq!(move_position(&words("move"), ""), None);
        assert_eq!(move_position(&words("move 7 --ply"), ""), None);
        assert_eq!(move_position(&words("move 7 F2-F3"), ""), None);
        assert_eq!(move_position(&words("move 7"), "--d"), None);
        assert_eq!(move_position(&words("show 7"), ""), None);
        assert_eq!(move_position(&words("moves 7"), ""), None);
    }

    #[test]
    fn completions_extend_what_is_typed() {
        let moves: Vec<String> = ["F2-F3", "F2-G3", "G2-G3", "a13-a8"]
            .map(str::to_string)
            .to_vec();
        assert_eq!(matching(&moves, ""), moves);
        assert_eq!(matching(&moves, "F2"), ["F2-F3", "F2-G3"]);
        assert_eq!(matching(&moves, "f2-g"), ["f2-g3"]);
        assert_eq!(matching(&moves, "A13"), ["A13-a8"]);
        assert!(matching(&moves, "H").is_empty());
        assert!(matching(&moves, "F2-F3-F4").is_empty());
    }
}
