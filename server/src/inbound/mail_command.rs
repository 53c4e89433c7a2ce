//! The commands a reply may hold, one per line: a move in the game's notation (or
//! `move <text>`), `resign`, `draw offer|accept|decline`, `accept` / `decline` (a challenge),
//! `rematch` (after the game), `show`, `moves`, `help`, and conditional moves (`if A18-A17 then
//! F3-F4`, chained: `… if A17-A16 then F4-F5`). Keywords in any case. Anything else is taken for a move, so the
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
    /// Add this line of conditional moves (their move first, then the answer, …).
    Conditional(Vec<String>),
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
            "if" => conditional_line(&rest).map_or_else(
                || MailCommand::Unclear {
                    line: line.to_owned(),
                    expected: "`if <their move> then <your move>`, e.g. `if A18-A17 then \
                               F3-F4`, and as many `if … then …` after it as you like",
                },
                MailCommand::Conditional,
            ),
            _ => MailCommand::Move(line.to_owned()),
        }
    }
}

/// The moves of `if X then Y if Z then W` (the words after the first `if`): each `if` and
/// `then` followed by a move; `None` for anything else.
fn conditional_line(words: &[&str]) -> Option<Vec<String>> {
    let mut moves: Vec<String> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    // The keyword expected next: `then` after the move of an `if`, `if` after an answer.
    let mut expect_then = true;
    for word in words {
        let keyword = if expect_then { "then" } else { "if" };
        if word.eq_ignore_ascii_case(keyword) {
            if current.is_empty() {
                return None;
            }
            moves.push(current.join(" "));
            current.clear();
            expect_then = !expect_then;
        } else {
            current.push(word);
        }
    }
    if current.is_empty() || expect_then {
        return None;
    }
    moves.push(current.join(" "));
    Some(moves)
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
            MailCommand::parse("If A18-A17 THEN F3-F4 if A17-A16 then F4-F5"),
            MailCommand::Conditional(vec![
                "A18-A17".into(),
                "F3-F4".into(),
                "A17-A16".into(),
                "F4-F5".into()
            ])
        );
        assert_eq!(
            MailCommand::parse("if a1-a5 then a13-a8, e13-e12"),
            MailCommand::Conditional(vec!["a1-a5".into(), "a13-a8, e13-e12".into()])
        );
        for unclear in [
            "if",
            "if A18-A17",
            "if A18-A17 then",
            "if then F3-F4",
            "if A then B if C",
        ] {
            assert!(
                matches!(MailCommand::parse(unclear), MailCommand::Unclear { .. }),
                "{unclear}"
            );
        }
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
