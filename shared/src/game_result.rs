//! How a finished game came out, as the API shows it and the server stores it: the seats that
//! won (`won 2`, `won 2 3` when several seats share the win), or `draw`.

use std::fmt;
use std::str::FromStr;

use crate::Status;

/// A game's result: the winning seats (ascending, at least one) or a draw. It keeps its
/// canonical text, the form the API, the records and the server's `games.result` column use;
/// JSON writes that text and reads only a well-formed one.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GameResult {
    /// Winning seats; empty for a draw.
    winners: Vec<i32>,
    /// `won 2 3` or `draw`.
    text: String,
}

impl GameResult {
    /// A draw.
    #[must_use]
    pub fn draw() -> Self {
        Self {
            winners: Vec::new(),
            text: "draw".to_owned(),
        }
    }

    /// A win shared by `winners` (sorted, duplicates dropped); no winner means a draw.
    #[must_use]
    pub fn won(winners: impl IntoIterator<Item = i32>) -> Self {
        let mut winners: Vec<i32> = winners.into_iter().collect();
        winners.sort_unstable();
        winners.dedup();
        if winners.is_empty() {
            return Self::draw();
        }
        let mut text = "won".to_owned();
        for seat in &winners {
            text.push(' ');
            text.push_str(&seat.to_string());
        }
        Self { winners, text }
    }

    /// The result an engine status means, if the game is over.
    #[must_use]
    pub fn of_status(status: &Status) -> Option<Self> {
        match status {
            Status::Ongoing { .. } => None,
            Status::Won { winners } => Some(Self::won(
                winners.iter().map(|seat| i32::from(seat.number())),
            )),
            Status::Draw => Some(Self::draw()),
        }
    }

    /// The seats that won (none for a draw).
    #[must_use]
    pub fn winners(&self) -> &[i32] {
        &self.winners
    }

    /// Whether `seat` is among the winners.
    #[must_use]
    pub fn is_winner(&self, seat: i32) -> bool {
        self.winners.contains(&seat)
    }

    /// Whether the game was drawn.
    #[must_use]
    pub fn is_draw(&self) -> bool {
        self.winners.is_empty()
    }

    /// The canonical text: `won 2 3` or `draw`.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A result text that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unreadable game result `{0}`: expected `draw` or `won` and seat numbers")]
pub struct BadGameResult(pub String);

impl FromStr for GameResult {
    type Err = BadGameResult;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || BadGameResult(text.to_owned());
        let mut words = text.split_whitespace();
        match words.next() {
            Some("draw") if words.next().is_none() => Ok(Self::draw()),
            Some("won") => {
                let winners = words
                    .map(|w| w.parse::<i32>().ok().filter(|seat| *seat > 0))
                    .collect::<Option<Vec<i32>>>()
                    .ok_or_else(bad)?;
                if winners.is_empty() {
                    return Err(bad());
                }
                Ok(Self::won(winners))
            }
            _ => Err(bad()),
        }
    }
}

impl serde::Serialize for GameResult {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> serde::Deserialize<'de> for GameResult {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The OpenAPI schema: a string of the canonical form.
#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for GameResult {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some(r"^(draw|won( [1-9][0-9]*)+)$"))
            .description(Some(
                "`won` and the winning seats in ascending order (`won 2`, `won 1 3`), or `draw`.",
            ))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for GameResult {}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn results_read_and_write_their_text() {
        let shared = GameResult::won([3, 2]);
        assert_eq!(shared.as_str(), "won 2 3");
        assert_eq!(shared.winners(), [2, 3]);
        assert_eq!("won 2 3".parse(), Ok(shared.clone()));
        assert_eq!("draw".parse(), Ok(GameResult::draw()));
        assert!(GameResult::draw().is_draw());
        for bad in ["", "won", "won x", "won 0", "draw 1", "lost 1"] {
            assert!(bad.parse::<GameResult>().is_err(), "{bad}");
        }
        assert_eq!(serde_json::to_string(&shared).unwrap(), "\"won 2 3\"");
        assert_eq!(
            serde_json::from_str::<GameResult>("\"won 2 3\"").unwrap(),
            shared
        );
        let error = serde_json::from_str::<GameResult>("\"won\"")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("unreadable game result `won`: expected `draw`"),
            "{error}"
        );
    }

    #[test]
    fn engine_statuses_map_to_results() {
        let seat = crate::Seat::new(2).unwrap();
        assert_eq!(
            GameResult::of_status(&Status::won_by(seat)).map(|r| r.to_string()),
            Some("won 2".to_owned())
        );
        assert_eq!(
            GameResult::of_status(&Status::Draw),
            Some(GameResult::draw())
        );
        assert_eq!(
            GameResult::of_status(&Status::Ongoing { to_move: seat }),
            None
        );
    }
}
