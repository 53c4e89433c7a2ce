use std::io::{IsTerminal, Write};

use serde::Serialize;
use turnpost_shared::render::TextStyle;

/// The version of every `--json` document; bumped when a field changes meaning or goes away.
pub const JSON_VERSION: u32 = 1;

/// Writes `text` to stdout; a closed pipe becomes a quiet exit.
///
/// # Errors
/// The write error (a broken pipe is reported as such and exits 0).
pub fn print(text: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_bytes())?;
    stdout.flush()
}

/// Prints one JSON document for scripts: `{"version": 1, "<kind>": <value>}`.
///
/// # Errors
/// The write error.
pub fn print_json<T: Serialize>(kind: &str, value: &T) -> std::io::Result<()> {
    let mut document = serde_json::Map::new();
    document.insert("version".to_string(), JSON_VERSION.into());
    document.insert(
        kind.to_string(),
        serde_json::to_value(value).map_err(std::io::Error::other)?,
    );
    let text = serde_json::to_string_pretty(&document).map_err(std::io::Error::other)?;
    print(&format!("{text}\n"))
}

/// Prints one JSON document for scripts with two values:
/// `{"version": 1, "<kind>": <value>, "<extra_kind>": <extra>}`.
///
/// # Errors
/// The write error.
pub fn print_json_with<T: Serialize, U: Serialize>(
    kind: &str,
    value: &T,
    extra_kind: &str,
    extra: &U,
) -> std::io::Result<()> {
    let mut document = serde_json::Map::new();
    document.insert("version".to_string(), JSON_VERSION.into());
    document.insert(
        kind.to_string(),
        serde_json::to_value(value).map_err(std::io::Error::other)?,
    );
    document.insert(
        extra_kind.to_string(),
        serde_json::to_value(extra).map_err(std::io::Error::other)?,
    );
    let text = serde_json::to_string_pretty(&document).map_err(std::io::Error::other)?;
    print(&format!("{text}\n"))
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
