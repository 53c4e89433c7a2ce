//! The commands a reply may hold, one per line: a move in the game's notation (or
//! `move <text>`), `resign`, `draw offer|accept|decline`, `accept` / `decline` (a challenge),
//! `rematch` (after the game), `show`, `moves`, `help`. Keywords in any case. Anything else is taken for a move, so the
//! engine says what it expected there.

/// One line of a reply, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailCommand {
    /// Play this move text.
    Move(String),
    /// Resign the game.
    Resign,
    /// Offer a draw.
    DrawOffer,
    /// Accept the draw offered.
    DrawAccept,
    /// Decline the draw offered.
    DrawDecline,
    /// Accept the challenge.
    Accept,
    /// Decline the challenge.
    Decline,
    /// Challenge the players of the finished game again.
    Rematch,
    /// Send the current turn card again.
    Show,
    /// List the legal moves.
    Moves,
    /// Explain what a reply may say.
    Help,
    /// A keyword used wrongly (`draw` without what to do with it): what was expected.
    Unclear {
        /// The line.
        line: String,
        /// What it should have been.
        expected: &'static str,
    },
}

impl MailCommand {
    /// Reads one line (already trimmed, not empty).
    #[must_use]
    pub fn parse(line: &str) -> Self {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default().to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let alone = |command: MailCommand, expected: &'static str| {
            if rest.is_empty() {
                command
            } else {
                MailCommand::Unclear {
                    line: line.to_owned(),
                    expected,
                }
            }
        };
        match first.as_str() {
            "move" if !rest.is_empty() => MailCommand::Move(rest.join(" ")),
            "move" => MailCommand::Unclear {
                line: line.to_owned(),
                expected: "a move after `move`, e.g. `move F3-E4`",
            },
            "resign" => alone(MailCommand::Resign, "`resign` alone on its line"),
            "accept" => alone(MailCommand::Accept, "`accept` alone on its line"),
            "decline" => alone(MailCommand::Decline, "`decline` alone on its line"),
            "rematch" => alone(MailCommand::Rematch, "`rematch` alone on its line"),
            "show" => alone(MailCommand::Show, "`show` alone on its line"),
            "moves" => alone(MailCommand::Moves, "`moves` alone on its line"),
            "help" => alone(MailCommand::Help, "`help` alone on its line"),
            "draw" => match rest.join(" ").to_ascii_lowercase().as_str() {
                "offer" => MailCommand::DrawOffer,
                "accept" => MailCommand::DrawAccept,
                "decline" => MailCommand::DrawDecline,
                _ => MailCommand::Unclear {
                    line: line.to_owned(),
                    expected: "`draw offer`, `draw accept` or `draw decline`",
                },
            },
            _ => MailCommand::Move(line.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_in_any_case_and_moves_otherwise() {
        assert_eq!(MailCommand::parse("RESIGN"), MailCommand::Resign);
        assert_eq!(MailCommand::parse("Draw Offer"), MailCommand::DrawOffer);
        assert_eq!(MailCommand::parse("draw accept"), MailCommand::DrawAccept);
        assert_eq!(
            MailCommand::parse("draw  DECLINE"),
            MailCommand::DrawDecline
        );
        assert_eq!(MailCommand::parse("Accept"), MailCommand::Accept);
        assert_eq!(MailCommand::parse("decline"), MailCommand::Decline);
        assert_eq!(MailCommand::parse("Rematch"), MailCommand::Rematch);
        assert_eq!(MailCommand::parse("show"), MailCommand::Show);
        assert_eq!(MailCommand::parse("Moves"), MailCommand::Moves);
        assert_eq!(MailCommand::parse("help"), MailCommand::Help);
        assert_eq!(
            MailCommand::parse("move a13-a10, e13-b13"),
            MailCommand::Move("a13-a10, e13-b13".into())
        );
        assert_eq!(
            MailCommand::parse("F3:E4:E7"),
            MailCommand::Move("F3:E4:E7".into())
        );
        assert_eq!(
            MailCommand::parse("red d4"),
            MailCommand::Move("red d4".into())
        );
        assert!(matches!(
            MailCommand::parse("draw"),
            MailCommand::Unclear { expected, .. } if expected.contains("draw offer")
        ));
        assert!(matches!(
            MailCommand::parse("resign now please"),
            MailCommand::Unclear { .. }
        ));
        assert!(matches!(
            MailCommand::parse("move"),
            MailCommand::Unclear { .. }
        ));
    }
}
