//! A word with your move: the text a player may send with a move, a resignation, a draw offer
//! or answer, or the acceptance of a challenge. One rule for every channel (API, CLI, mail
//! reply, web form): at most [`MAX_MESSAGE_CHARS`] characters once cleaned; control characters
//! are dropped (a line break stays), spaces at the ends trimmed; nothing left means no message.
//! Links stay text: pages and mails escape the text and never make a link of it.

/// The most characters (not bytes) a message may hold once cleaned.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// Why a message is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    /// Longer than [`MAX_MESSAGE_CHARS`] once cleaned.
    #[error(
        "the message holds {chars} characters; at most {MAX_MESSAGE_CHARS} are allowed \
         (nothing was played)"
    )]
    TooLong {
        /// How many characters it holds once cleaned.
        chars: usize,
    },
}

/// The message `text` as it is stored and shown: control, bidirectional and zero-width
/// characters dropped (`crate::free_text`) (a line break
/// kept, `\r\n` read as one), each line's trailing spaces and the blank lines at both ends
/// trimmed, at most two blank lines in a row kept as one. `None` when nothing is left.
///
/// # Errors
/// [`MessageError::TooLong`] for more than [`MAX_MESSAGE_CHARS`] characters once cleaned.
pub fn clean_message(text: &str) -> Result<Option<String>, MessageError> {
    let unified = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut lines: Vec<String> = Vec::new();
    for line in unified.split('\n') {
        let kept: String = line
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !crate::free_text::is_hidden_char(*c))
            .collect();
        let kept = kept.trim_end().to_owned();
        // One blank line between paragraphs at most.
        if kept.is_empty() && lines.last().is_some_and(String::is_empty) {
            continue;
        }
        lines.push(kept);
    }
    let joined = lines.join("\n");
    let cleaned = joined.trim();
    if cleaned.is_empty() {
        return Ok(None);
    }
    let chars = cleaned.chars().count();
    if chars > MAX_MESSAGE_CHARS {
        return Err(MessageError::TooLong { chars });
    }
    Ok(Some(cleaned.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_dropped_and_line_breaks_kept() {
        assert_eq!(
            clean_message("  good\u{7}\u{1b}[31m luck\r\nsee you\u{0}  \n\n\n\nbye \t"),
            Ok(Some("good[31m luck\nsee you\n\nbye".to_owned()))
        );
        assert_eq!(
            clean_message("a\u{202E}b\u{2066}c"),
            Ok(Some("abc".to_owned()))
        );
        assert_eq!(clean_message("\u{1}\u{2} \n \r\n"), Ok(None));
        assert_eq!(clean_message(""), Ok(None));
        assert_eq!(
            clean_message("see https://example.org/<b>"),
            Ok(Some("see https://example.org/<b>".to_owned()))
        );
    }

    #[test]
    fn five_hundred_characters_not_bytes() {
        let most = "é".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(clean_message(&most), Ok(Some(most.clone())));
        let over = format!("{most}x");
        assert_eq!(
            clean_message(&over),
            Err(MessageError::TooLong {
                chars: MAX_MESSAGE_CHARS + 1
            })
        );
        // What is dropped does not count.
        assert!(clean_message(&format!("{most}\u{7}\u{7}   ")).is_ok());
        let error = clean_message(&over).unwrap_err().to_string();
        assert!(error.contains("501") && error.contains("500"), "{error}");
    }
}
