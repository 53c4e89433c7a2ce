//! The plain-text game record: a PGN-like header of `[Key "value"]` lines, a blank line, then
//! one canonical move per line, with departures (`resign 2`, `timeout 2`, `claim 2`: see
//! [`crate::departure::Departure`]) at their place among the moves. Replaying it reproduces every position,
//! and the final one gives the placings ([`AnyGame::placings`]). A draw by agreement is no line:
//! the position does not change, so it stays in the `Result` header (`draw`), as before.

use std::fmt::Write;

use crate::{any_game::EngineError, any_game::ReplayError, AnyGame, GameKind, Options};

/// A game as a record: everything needed to replay it, and who played it when.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecord {
    /// Header fields in order; `Kind` and `Options` are required for replaying.
    pub headers: Vec<(String, String)>,
    /// Canonical move texts and departure lines, first move first.
    pub moves: Vec<String>,
}

/// A record text that cannot be read, with the 1-based line at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game record line {line}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayRecordError {
    #[error("the record has no {0} header")]
    MissingHeader(&'static str),
    #[error("the record's Kind header: {0}")]
    Kind(String),
    #[error("the record's Options header: {0}")]
    Options(String),
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error(transparent)]
    Move(#[from] ReplayError),
}

impl GameRecord {
    /// The value of the first header called `key` (case-insensitive).
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The record as text.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for (key, value) in &self.headers {
            let value = value.replace('\\', "\\\\").replace('"', "\\\"");
            // Writing to a String cannot fail.
            let _ = writeln!(text, "[{key} \"{value}\"]");
        }
        text.push('\n');
        for mv in &self.moves {
            text.push_str(mv);
            text.push('\n');
        }
        text
    }

    /// Reads a record printed by [`GameRecord::to_text`] (blank lines and `#` comments may
    /// stand anywhere; header lines come before the moves).
    ///
    /// # Errors
    /// A [`RecordError`] naming the line: a malformed header, or a header after the moves.
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut record = GameRecord::default();
        for (index, line) in text.lines().enumerate() {
            let line_number = index + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[') {
                if !record.moves.is_empty() {
                    return Err(RecordError {
                        line: line_number,
                        message: "a header line after the moves".to_string(),
                    });
                }
                record
                    .headers
                    .push(parse_header(inner).map_err(|message| RecordError {
                        line: line_number,
                        message,
                    })?);
            } else {
                record.moves.push(line.to_string());
            }
        }
        Ok(record)
    }

    /// Replays the moves from the start position of the record's kind and options.
    ///
    /// # Errors
    /// A missing or bad `Kind`/`Options` header, or the first move that cannot be played.
    pub fn replay(&self) -> Result<AnyGame, ReplayRecordError> {
        let kind: GameKind = self
            .header("Kind")
            .ok_or(ReplayRecordError::MissingHeader("Kind"))?
            .parse()
            .map_err(|e: crate::named_value::UnknownName| ReplayRecordError::Kind(e.to_string()))?;
        let options = Options::from_pairs(self.header("Options").unwrap_or("").split_whitespace())
            .map_err(|e| ReplayRecordError::Options(e.to_string()))?;
        Ok(AnyGame::new(kind, &options)?.replay(&self.moves)?)
    }
}

/// `Key "value"]` → (key, value), with `\"` and `\\` escapes in the value.
fn parse_header(inner: &str) -> Result<(String, String), String> {
    let expected = "expected [Key \"value\"]";
    let (key, rest) = inner
        .split_once(' ')
        .ok_or_else(|| format!("{expected}: no space after the key"))?;
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(format!("{expected}: the key must be letters, digits and -"));
    }
    let rest = rest
        .trim()
        .strip_prefix('"')
        .ok_or_else(|| format!("{expected}: the value must start with \""))?;
    let mut value = String::new();
    let mut chars = rest.chars();
    loop {
        match chars.next() {
            None => return Err(format!("{expected}: the value is not closed with \"")),
            Some('\\') => match chars.next() {
                Some(c @ ('"' | '\\')) => value.push(c),
                _ => return Err(format!("{expected}: only \\\" and \\\\ are escapes")),
            },
            Some('"') => break,
            Some(c) => value.push(c),
        }
    }
    if chars.as_str().trim() != "]" {
        return Err(format!("{expected}: nothing may follow the closing ]"));
    }
    Ok((key.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            headers: vec![
                ("Game".into(), "42".into()),
                ("Kind".into(), "kefren".into()),
                ("Options".into(), String::new()),
                ("Seat1".into(), "alice \"the\" \\ first".into()),
                ("Result".into(), "ongoing 1".into()),
            ],
            moves: vec!["F2-F3".into(), "E18-E17".into()],
        }
    }

    #[test]
    fn text_round_trips_and_replays() {
        let text = record().to_text();
        assert!(text.starts_with("[Game \"42\"]\n[Kind \"kefren\"]\n"));
        assert!(text.ends_with("\n\nF2-F3\nE18-E17\n"));
        let back = GameRecord::parse(&text).unwrap();
        assert_eq!(back, record());
        let game = back.replay().unwrap();
        assert_eq!(game.status().to_string(), "ongoing 1");
    }

    #[test]
    fn bad_records_name_the_line() {
        let error = GameRecord::parse("[Kind \"kefren\"]\nF2-F3\n[Seat1 \"x\"]").unwrap_err();
        assert_eq!(error.line, 3);
        let error = GameRecord::parse("\n[Kind kefren]").unwrap_err();
        assert_eq!(error.line, 2);
        let error = GameRecord::parse("[Kind \"kefren]").unwrap_err();
        assert!(error.message.contains("not closed"));
        let record = GameRecord::parse("[Kind \"kefren\"]\nF2-F3\nF3-F9\n").unwrap();
        let error = record.replay().unwrap_err();
        assert!(error.to_string().contains("move 2 `F3-F9`"), "{error}");
        let error = GameRecord::parse("F2-F3").unwrap().replay().unwrap_err();
        assert_eq!(error, ReplayRecordError::MissingHeader("Kind"));
    }
}
