//! Text from a server made safe for a terminal. A server (or anyone who got a name, a label or
//! a move into one) must not be able to move the cursor, clear the screen, set the window
//! title, write the clipboard (OSC 52) or forge lines with `\r`: every control character —
//! C0, DEL and C1 — is shown as a visible escape instead of being sent to the terminal.

use std::fmt::Write as _;

use serde_json::Value;

/// Whether `c` would be acted on by a terminal rather than shown.
fn is_control(c: char) -> bool {
    c.is_control()
}

/// `text` with every control character written as `\u{..}` (tabs and newlines too unless
/// `keep_lines`, for multi-line documents such as a board or a record).
#[must_use]
pub fn escape_controls(text: &str, keep_lines: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_control(c) && !(keep_lines && (c == '\n' || c == '\t')) {
            // Writing to a String cannot fail.
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// Escapes every string in a JSON answer, keys included; the text board (`board`) keeps its
/// line breaks.
pub fn escape_json(value: &mut Value) {
    escape_value(value, false);
}

fn escape_value(value: &mut Value, keep_lines: bool) {
    match value {
        Value::String(text) => {
            if text.chars().any(is_control) {
                *text = escape_controls(text, keep_lines);
            }
        }
        Value::Array(items) => {
            for item in items {
                escape_value(item, false);
            }
        }
        Value::Object(map) => {
            let entries = std::mem::take(map);
            for (key, mut item) in entries {
                escape_value(&mut item, key == "board");
                map.insert(escape_controls(&key, false), item);
            }
        }
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminal_controls_become_visible() {
        let hostile = "bob\u{1b}]0;pwned\u{7}\u{1b}[2J\rfake\u{9b}31m\u{7f}";
        let shown = escape_controls(hostile, false);
        assert!(!shown.chars().any(char::is_control), "{shown:?}");
        assert_eq!(
            shown,
            "bob\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{d}fake\\u{9b}31m\\u{7f}"
        );
        assert_eq!(escape_controls("a\nb\tc\rd", true), "a\nb\tc\\u{d}d");
        assert_eq!(escape_controls("a\nb", false), "a\\u{a}b");
        assert_eq!(escape_controls("Ünïcode ▲ fine", false), "Ünïcode ▲ fine");
    }

    #[test]
    fn every_string_of_an_answer_is_escaped_and_boards_keep_their_lines() {
        let mut value = serde_json::json!({
            "board": "1 . .\n2 . \u{1b}[31m.",
            "seats": [{"player": "eve\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}"}],
            "x\u{1b}": "y",
        });
        escape_json(&mut value);
        assert_eq!(value["board"], "1 . .\n2 . \\u{1b}[31m.");
        assert_eq!(
            value["seats"][0]["player"],
            "eve\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}"
        );
        assert_eq!(value["x\\u{1b}"], "y");
    }
}
