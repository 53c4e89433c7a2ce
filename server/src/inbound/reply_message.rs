//! A word with your move by mail (issue 28): the text a player writes after the line of an
//! action (a move, `resign`, `draw offer|accept|decline`, `accept`) is their message, sent with
//! that action. The lines come from [`super::written_lines`], so quoted text, signatures and
//! client boilerplate are already gone. After the action's line, a line that reads as a
//! command of its own (`if … then …`, `show`, `moves`, `help`, `move X`, another keyword alone)
//! stays a command; every other line belongs to the message.

use super::MailCommand;

/// A reply's lines split into the commands to run and the message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReplyParts {
    /// The command lines, in order.
    pub commands: Vec<String>,
    /// The index in `commands` of the action the message goes with (the first action line).
    pub carrier: Option<usize>,
    /// The message's lines joined by line breaks, as written (not yet cleaned); `None` when
    /// there is no action or nothing after it.
    pub message: Option<String>,
}

/// Whether `command` is an action that may carry a message.
fn carries(command: &MailCommand) -> bool {
    matches!(
        command,
        MailCommand::Move(_)
            | MailCommand::Resign
            | MailCommand::DrawOffer
            | MailCommand::DrawAccept
            | MailCommand::DrawDecline
            | MailCommand::Accept
    )
}

/// Whether `line`, after the action, is a command of its own rather than words of the message:
/// a keyword read as one (not a line taken for a move, nor a keyword used wrongly), or a move
/// written with its `move` keyword.
fn own_command(line: &str) -> bool {
    match MailCommand::parse(line) {
        MailCommand::Unclear { .. } => false,
        MailCommand::Move(_) => line
            .split_whitespace()
            .next()
            .is_some_and(|first| first.eq_ignore_ascii_case("move")),
        _ => true,
    }
}

/// Splits the written `lines` of a reply.
#[must_use]
pub fn split(lines: &[String]) -> ReplyParts {
    let mut parts = ReplyParts::default();
    let mut message: Vec<&str> = Vec::new();
    for line in lines {
        if parts.carrier.is_none() {
            if carries(&MailCommand::parse(line)) {
                parts.carrier = Some(parts.commands.len());
            }
            parts.commands.push(line.clone());
        } else if own_command(line) {
            parts.commands.push(line.clone());
        } else {
            message.push(line);
        }
    }
    if !message.is_empty() {
        parts.message = Some(message.join("\n"));
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn the_words_after_the_action_are_its_message() {
        let parts = split(&lines(
            "F3-F4\nyour turn, good luck\nif A18-A17 then F4-F5\nsee you\nshow",
        ));
        assert_eq!(parts.commands, ["F3-F4", "if A18-A17 then F4-F5", "show"]);
        assert_eq!(parts.carrier, Some(0));
        assert_eq!(
            parts.message.as_deref(),
            Some("your turn, good luck\nsee you")
        );
    }

    #[test]
    fn lines_before_the_action_stay_commands() {
        let parts = split(&lines(
            "help\nresign\nWell played. Draw is near? no.\nhelp me",
        ));
        assert_eq!(parts.commands, ["help", "resign"]);
        assert_eq!(parts.carrier, Some(1));
        assert_eq!(
            parts.message.as_deref(),
            Some("Well played. Draw is near? no.\nhelp me")
        );
        let parts = split(&lines("draw offer\nmove a13-a10, e13-b13"));
        assert_eq!(parts.commands.len(), 2);
        assert_eq!(parts.message, None);
        let parts = split(&lines("show\nmoves"));
        assert_eq!(parts.carrier, None);
        assert_eq!(parts.message, None);
    }
}
