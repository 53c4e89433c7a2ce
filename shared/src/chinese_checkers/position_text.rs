//! Position text (rules: "Position text"): `chinese-checkers <rows> <seat>`.

use crate::position_error::PositionError;

use super::board::ChineseCheckers;
use super::hole::{Hole, ROWS, ROW_RANGE};
use super::left::LeftSeats;
use super::points::POINTS;
use super::variant::{sets_in, Variant};

/// Each set has ten pegs and never gains any.
const MAX_PEGS: u32 = 10;

fn row_letter(row: usize) -> char {
    char::from(b'A' + u8::try_from(row).unwrap_or(0))
}

impl ChineseCheckers {
    pub(crate) fn to_position_text(&self) -> String {
        let mut rows = Vec::with_capacity(ROWS);
        for (row, &(first, last)) in ROW_RANGE.iter().enumerate() {
            let row = i32::try_from(row).unwrap_or(0);
            let text: String = (first..=last)
                .filter_map(|number| Hole::at(row, number))
                .map(|hole| match self.at(hole) {
                    0 => '.',
                    7 => 'x',
                    set => char::from(b'0' + set),
                })
                .collect();
            rows.push(text);
        }
        let mut text = format!("chinese-checkers {} {}", rows.join("/"), self.seat() + 1);
        if !self.left.is_empty() {
            let seats: Vec<String> = self
                .left
                .seats()
                .map(|seat| (seat + 1).to_string())
                .collect();
            text.push_str(" left=");
            text.push_str(&seats.join(","));
        }
        text
    }

    /// Reads `chinese-checkers <rows> <seat> [left=<seat>,…]` for `variant`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field: `kind`, `rows` (with the row or the set at fault),
    /// `seat`, `left` (a seat out of range or twice, pegs of a seat that left), or extra fields.
    pub(crate) fn parse_position_text(
        variant: Variant,
        text: &str,
    ) -> Result<ChineseCheckers, PositionError> {
        let mut fields = text.split_whitespace();
        match fields.next() {
            Some("chinese-checkers") => {}
            other => {
                return Err(PositionError::new(
                    "kind",
                    format!(
                        "expected `chinese-checkers`, found `{}`",
                        other.unwrap_or("")
                    ),
                ))
            }
        }
        let rows = fields.next().ok_or_else(|| {
            PositionError::new("rows", "missing: expected 17 rows (A to Q) separated by /")
        })?;
        let players = variant.seat_count();
        let seat_error = |found: &str| {
            PositionError::new(
                "seat",
                format!("expected the seat to move, 1 to {players}, found `{found}`"),
            )
        };
        let seat = match fields.next() {
            Some(word) => match word.parse::<usize>() {
                Ok(seat) if (1..=players).contains(&seat) => seat - 1,
                _ => return Err(seat_error(word)),
            },
            None => return Err(seat_error("nothing")),
        };
        let left = match fields.next() {
            Some(word) if word.starts_with("left=") => parse_left(word, players)?,
            Some(word) => {
                return Err(PositionError::new(
                    "end",
                    format!("expected nothing after the seat but left=…, found `{word}`"),
                ))
            }
            None => LeftSeats::default(),
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::new(
                "end",
                format!("expected nothing after the seats that left, found `{extra}`"),
            ));
        }
        if left.contains(seat) {
            return Err(PositionError::new(
                "seat",
                format!("seat {} is to move but has left", seat + 1),
            ));
        }
        let pegs = parse_rows(rows)?;
        for (set, holes) in pegs.iter().enumerate().skip(1) {
            let count = holes.count_ones();
            if count > 0 && !variant.in_play(set) {
                return Err(PositionError::new(
                    "rows",
                    format!("pegs of set {set}, which is not in play in this variant"),
                ));
            }
            if count > MAX_PEGS {
                return Err(PositionError::new(
                    "rows",
                    format!("{count} pegs of set {set}: at most {MAX_PEGS}"),
                ));
            }
        }
        let outside = pegs.first().copied().unwrap_or(0) & !variant.filled_holes();
        if let Some(hole) = Hole::all().find(|hole| outside & hole.bit() != 0) {
            let why = if variant.unused_filled {
                "inert pegs (x) stand only in the unused points"
            } else {
                "inert pegs (x) exist only with unused=filled"
            };
            return Err(PositionError::new(
                "rows",
                format!("an inert peg on {hole}: {why}"),
            ));
        }
        let game = ChineseCheckers {
            pegs,
            to_move: u8::try_from(seat).unwrap_or(0),
            variant,
            left,
        };
        // Pegs leave with their seat, except the last departure's, which ended the game.
        let kept = if game.playing() <= 1 {
            left.len().saturating_sub(1)
        } else {
            left.len()
        };
        for seat in game.left.seats().take(kept) {
            if let Some(set) = sets_in(variant.sets_of(seat))
                .find(|&set| game.pegs.get(set).is_some_and(|pegs| *pegs != 0))
            {
                return Err(PositionError::new(
                    "rows",
                    format!("pegs of set {set}, whose seat {} has left", seat + 1),
                ));
            }
        }
        Ok(game)
    }
}

/// `left=3,1`: the seats that left, in the order they left (at least one, each once).
fn parse_left(word: &str, players: usize) -> Result<LeftSeats, PositionError> {
    let expected =
        format!("expected left=<seats that left, in order>, each 1 to {players}, comma-separated");
    let list = word
        .strip_prefix("left=")
        .ok_or_else(|| PositionError::new("left", format!("{expected}, found `{word}`")))?;
    let mut left = LeftSeats::default();
    for item in list.split(',') {
        let seat = match item.parse::<usize>() {
            Ok(seat) if (1..=players).contains(&seat) => seat - 1,
            _ => {
                return Err(PositionError::new(
                    "left",
                    format!("{expected}, found `{item}`"),
                ))
            }
        };
        if left.contains(seat) {
            return Err(PositionError::new(
                "left",
                format!("seat {item} is listed twice"),
            ));
        }
        left.push(seat);
    }
    if left.len() >= players && players > 0 {
        return Err(PositionError::new(
            "left",
            format!(
                "every seat has left: at most {} of {players} can",
                players - 1
            ),
        ));
    }
    Ok(left)
}

fn parse_rows(text: &str) -> Result<[u128; POINTS + 1], PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ROWS {
        return Err(PositionError::new(
            "rows",
            format!(
                "expected 17 rows (A to Q) separated by /, found {}",
                rows.len()
            ),
        ));
    }
    let mut pegs = [0u128; POINTS + 1];
    for (row, (row_text, &(first, last))) in rows.iter().zip(ROW_RANGE.iter()).enumerate() {
        let letter = row_letter(row);
        let length = usize::try_from(last - first + 1).unwrap_or(0);
        let found = row_text.chars().count();
        if found != length {
            return Err(PositionError::new(
                "rows",
                format!("row {letter}: expected {length} holes ({letter}{first}-{letter}{last}), found {found}"),
            ));
        }
        for (number, c) in (first..=last).zip(row_text.chars()) {
            let slot = match c {
                '.' => continue,
                'x' => 0,
                '1'..='6' => c.to_digit(10).map_or(0, |d| d as usize),
                other => {
                    return Err(PositionError::new(
                        "rows",
                        format!("row {letter}: expected ., 1-6 or x, found `{other}`"),
                    ))
                }
            };
            let hole = Hole::at(i32::try_from(row).unwrap_or(0), number);
            if let (Some(hole), Some(set)) = (hole, pegs.get_mut(slot)) {
                *set |= hole.bit();
            }
        }
    }
    Ok(pegs)
}
