//! The one rule for free text a person writes (a message, a tournament's name): characters
//! that are not seen but change what is seen — control characters, bidirectional overrides,
//! marks and isolates, zero-width characters — are never kept, so no text can hide words,
//! reverse the words after it, or break a mail's header or a page's line.

/// Whether `c` is dropped from free text: a control character (line breaks are the caller's
/// to keep or not), a bidirectional mark, embedding, override or isolate (U+061C, U+200E,
/// U+200F, U+202A–U+202E, U+2066–U+2069), or a zero-width or invisible character (U+00AD,
/// U+180E, U+200B–U+200D, U+2060–U+2064, U+FEFF).
#[must_use]
pub fn is_hidden_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

/// One line of free text (a name): hidden characters dropped, each run of white space (line
/// breaks and tabs included) one space, both ends trimmed.
#[must_use]
pub fn clean_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if is_hidden_char(c) {
            continue;
        }
        if space && !out.is_empty() {
            out.push(' ');
        }
        space = false;
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_loses_breaks_bidi_and_zero_width_characters() {
        assert_eq!(
            clean_line("  Autumn\r\nCup\u{202E}\u{200B}\u{200E}\u{200F}\u{061C} 2026\t "),
            "Autumn Cup 2026"
        );
        assert_eq!(clean_line("\u{FEFF}\u{2060}"), "");
        assert_eq!(clean_line("Zoë’s — cup"), "Zoë’s — cup");
    }
}
