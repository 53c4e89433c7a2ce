//! The one command a reply to a tournament's announcement may hold, on its first written line:
//! `join` (also `enter` or `yes`) to enter, `withdraw` to leave; in any case, a full stop or
//! exclamation mark after it allowed.

/// The first line of a reply to a tournament announcement, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryCommand {
    /// Enter the tournament.
    Join,
    /// Leave it (before the start), or withdraw from it (once it runs).
    Withdraw,
    /// Anything else.
    Unclear,
}

/// What a reply to an announcement may say, for the refusal of anything else.
pub const EXPECTED: &str = "`join` to enter the tournament, or `withdraw` to leave it";

impl EntryCommand {
    /// Reads one line.
    #[must_use]
    pub fn parse(line: &str) -> Self {
        let word = line
            .trim()
            .trim_end_matches(['.', '!'])
            .trim()
            .to_ascii_lowercase();
        match word.as_str() {
            "join" | "enter" | "yes" => Self::Join,
            "withdraw" => Self::Withdraw,
            _ => Self::Unclear,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_and_withdraw_in_any_case_and_nothing_else() {
        for join in ["join", "JOIN", " Join! ", "enter", "Yes.", "yes"] {
            assert_eq!(EntryCommand::parse(join), EntryCommand::Join, "{join}");
        }
        for withdraw in ["withdraw", "Withdraw."] {
            assert_eq!(EntryCommand::parse(withdraw), EntryCommand::Withdraw);
        }
        for unclear in ["join me", "no", "", "resign", "F3-F4", "yes please"] {
            assert_eq!(
                EntryCommand::parse(unclear),
                EntryCommand::Unclear,
                "{unclear}"
            );
        }
    }
}
