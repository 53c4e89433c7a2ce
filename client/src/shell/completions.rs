//! `turnpost completions` and `turnpost man`, generated from the clap definition.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::failure::Failure;

/// Added to clap's bash script: move completion, registered in place of `_turnpost`.
const BASH_MOVES: &str = include_str!("../../completion/moves.bash");
/// Replaces the end of clap's zsh script, which registers `_turnpost`.
const ZSH_MOVES: &str = include_str!("../../completion/moves.zsh");
/// Added to clap's fish script: one more completion rule for the move of `turnpost move`.
const FISH_MOVES: &str = include_str!("../../completion/moves.fish");

/// How clap's zsh script ends: it completes (when autoloaded) or registers `_turnpost`.
const ZSH_ENTRY: &str = r#"if [ "$funcstack[1]" = "_turnpost" ]; then
    _turnpost "$@"
else
    compdef _turnpost turnpost
fi
"#;

/// Runs `turnpost completions SHELL`: the completion script on stdout.
///
/// # Errors
/// Output errors.
pub fn run(shell: Shell) -> Result<(), Failure> {
    let mut command = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut command, "turnpost", &mut out);
    let script = with_move_completion(shell, &String::from_utf8_lossy(&out));
    crate::output::print(&script)?;
    Ok(())
}

/// clap's script with the dynamic completion of `turnpost move ID <TAB>` added, in the shells
/// that can run a command to complete a word.
fn with_move_completion(shell: Shell, script: &str) -> String {
    match shell {
        Shell::Bash => format!("{script}{BASH_MOVES}"),
        Shell::Fish => format!("{script}{FISH_MOVES}"),
        // Should clap's script ever end differently, it stays as it is: static completion only.
        Shell::Zsh => match script.rfind(ZSH_ENTRY).and_then(|at| script.get(..at)) {
            Some(body) => format!("{body}{ZSH_MOVES}"),
            None => script.to_string(),
        },
        _ => script.to_string(),
    }
}

/// Runs `turnpost man`: the man page (roff) on stdout.
///
/// # Errors
/// Output errors.
pub fn man() -> Result<(), Failure> {
    let mut out = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut out)?;
    crate::output::print(&String::from_utf8_lossy(&out))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use clap_complete::Shell;

    use super::with_move_completion;
    use crate::cli::Cli;

    fn generated(shell: Shell) -> String {
        let mut out = Vec::new();
        clap_complete::generate(shell, &mut Cli::command(), "turnpost", &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn bash_zsh_and_fish_scripts_complete_moves_through_the_hidden_command() {
        for shell in [Shell::Bash, Shell::Zsh, Shell::Fish] {
            // Not a command of the CLI: clap's own script does not offer it.
            assert!(!generated(shell).contains("complete-moves"), "{shell}");
            let script = with_move_completion(shell, &generated(shell));
            assert!(script.contains("__complete-moves --current"), "{shell}");
        }
        let zsh = with_move_completion(Shell::Zsh, &generated(Shell::Zsh));
        assert!(zsh.contains("compdef _turnpost_moves turnpost"));
        assert!(!zsh.contains("compdef _turnpost turnpost"));
        assert!(zsh.trim_end().ends_with("fi"));
        let bash = with_move_completion(Shell::Bash, &generated(Shell::Bash));
        assert!(bash.contains("complete -F _turnpost_moves"));
    }

    #[test]
    fn other_shells_get_clap_scripts_unchanged() {
        let script = generated(Shell::Elvish);
        assert_eq!(with_move_completion(Shell::Elvish, &script), script);
    }
}
