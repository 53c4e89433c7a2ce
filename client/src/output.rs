use std::io::{IsTerminal, Write};

use turnpost_shared::TextStyle;

/// Writes `text` to stdout; a closed pipe becomes a quiet exit.
///
/// # Errors
/// The write error (a broken pipe is reported as such and exits 0).
pub fn print(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Colour only on a terminal, and only when `NO_COLOR` is unset or empty.
pub fn text_style() -> TextStyle {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|value| !value.is_empty());
    if std::io::stdout().is_terminal() && !no_color {
        TextStyle::Ansi
    } else {
        TextStyle::Plain
    }
}
