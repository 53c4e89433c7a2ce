//! Position text (rules: "Position text"): `sanqi <rows> <seat> <ko>`, for example the start
//! `sanqi 4/5/6/7/6/5/4 1 -`.

use crate::{notation::Cursor, position_error::PositionError};

use super::board::SanQi;
use super::colour::{Colour, EMPTY};
use super::geometry::{geometry, OUTSIDE, SIDES, SLOTS};

impl SanQi {
    pub(crate) fn to_position_text(&self) -> String {
        let geometry = self.geometry();
        let mut rows = Vec::new();
        let mut index = 0u16;
        for &length in &geometry.letter_lengths {
            let mut text = String::new();
            let mut empties = 0;
            for _ in 0..length {
                match Colour::of_stone(self.at(index)) {
                    None => empties += 1,
                    Some(colour) => {
                        if empties > 0 {
                            text.push_str(&empties.to_string());
                            empties = 0;
                        }
                        text.push(colour.position_letter());
                    }
                }
                index += 1;
            }
            if empties > 0 {
                text.push_str(&empties.to_string());
            }
            rows.push(text);
        }
        let ko = if self.ko == OUTSIDE {
            "-".to_string()
        } else {
            geometry.name(self.ko)
        };
        format!("sanqi {} {} {ko}", rows.join("/"), self.to_move + 1)
    }

    /// Reads `sanqi <rows> <seat> <ko>`. The board's side is `side`, or when no side is given,
    /// the one whose row count the text has.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field: `kind`, `rows` (with the letter), `seat`, `ko`, or
    /// `end` for extra fields.
    pub(crate) fn parse_position_text(
        side: Option<u8>,
        text: &str,
    ) -> Result<SanQi, PositionError> {
        let mut fields = text.split_whitespace();
        match fields.next() {
            Some(kind) if kind.eq_ignore_ascii_case("sanqi") => {}
            other => {
                return Err(PositionError::new(
                    "kind",
                    format!("expected `sanqi`, found `{}`", other.unwrap_or("")),
                ))
            }
        }
        let rows = fields.next().ok_or_else(|| {
            PositionError::new(
                "rows",
                "missing: expected one row per letter, separated by /",
            )
        })?;
        let rows: Vec<&str> = rows.split('/').collect();
        let side = board_side(side, rows.len())?;
        let cells = parse_rows(side, &rows)?;
        let to_move = match fields.next() {
            Some("1") => 0,
            Some("2") => 1,
            Some(other) => {
                return Err(PositionError::new(
                    "seat",
                    format!("expected 1 or 2 (the seat to move), found `{other}`"),
                ))
            }
            None => return Err(PositionError::new("seat", "missing: expected 1 or 2")),
        };
        let ko = match fields.next() {
            Some(text) => parse_ko(side, &cells, text)?,
            None => {
                return Err(PositionError::new(
                    "ko",
                    "missing: expected the cell of the previous move, or -",
                ))
            }
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::new(
                "end",
                format!("expected nothing after the ko cell, found `{extra}`"),
            ));
        }
        Ok(SanQi::from_parts(side, cells, to_move, ko))
    }
}

/// The side of the board: the one asked for, checked against the row count, or the one the
/// row count gives.
fn board_side(side: Option<u8>, rows: usize) -> Result<u8, PositionError> {
    match side {
        Some(side) => {
            let expected = 2 * usize::from(side) - 1;
            if rows == expected {
                Ok(side)
            } else {
                Err(PositionError::new(
                    "rows",
                    format!(
                        "expected {expected} rows (letters a-{}) for side={side}, found {rows}",
                        geometry(side).last_letter()
                    ),
                ))
            }
        }
        None => SIDES
            .into_iter()
            .find(|side| 2 * usize::from(*side) - 1 == rows)
            .ok_or_else(|| {
                PositionError::new(
                    "rows",
                    format!(
                        "expected 7, 11, 15 or 19 rows (side 4, 6, 8 or 10) separated by /, \
                         found {rows}"
                    ),
                )
            }),
    }
}

fn parse_rows(side: u8, rows: &[&str]) -> Result<[u8; SLOTS], PositionError> {
    let geometry = geometry(side);
    let mut cells = [EMPTY; SLOTS];
    let mut index = 0usize;
    for ((letter, row), &length) in ('a'..).zip(rows).zip(&geometry.letter_lengths) {
        let error =
            |message: String| PositionError::new("rows", format!("letter {letter}: {message}"));
        let mut filled = 0usize;
        let mut chars = row.char_indices().peekable();
        while let Some((start, c)) = chars.next() {
            let (stone, count) = match c {
                'r' => (Colour::Red.stone(), 1),
                'b' => (Colour::Blue.stone(), 1),
                'y' => (Colour::Yellow.stone(), 1),
                '1'..='9' => {
                    let mut end = start + 1;
                    while let Some((at, digit)) = chars.peek().copied() {
                        if !digit.is_ascii_digit() {
                            break;
                        }
                        end = at + 1;
                        chars.next();
                    }
                    let digits = row.get(start..end).unwrap_or("");
                    let count = digits.parse::<usize>().unwrap_or(usize::MAX);
                    (EMPTY, count)
                }
                '0' => return Err(error("a count of empty cells starts with 1-9".to_string())),
                other => {
                    return Err(error(format!(
                        "expected r, b, y or a number of empty cells, found `{other}`"
                    )))
                }
            };
            if count > length - filled {
                return Err(error(format!("more than {length} cells")));
            }
            for _ in 0..count {
                if let Some(slot) = cells.get_mut(index) {
                    *slot = stone;
                }
                index += 1;
            }
            filled += count;
        }
        if filled != length {
            return Err(error(format!("expected {length} cells, found {filled}")));
        }
    }
    Ok(cells)
}

fn parse_ko(side: u8, cells: &[u8; SLOTS], text: &str) -> Result<u16, PositionError> {
    if text == "-" {
        return Ok(OUTSIDE);
    }
    let geometry = geometry(side);
    let mut cursor = Cursor::new(text);
    let cell = cursor
        .cell('a', geometry.last_letter())
        .and_then(|cell| cursor.expect_end("the end of the cell").map(|()| cell))
        .map_err(|error| {
            PositionError::new(
                "ko",
                format!("expected - or the cell of the previous move: {error}"),
            )
        })?;
    let index = i32::try_from(cell.number)
        .ok()
        .and_then(|number| geometry.index(i32::from(cell.letter) + 1, number))
        .ok_or_else(|| PositionError::new("ko", format!("{cell} is not on the board")))?;
    if cells.get(usize::from(index)).copied().unwrap_or(EMPTY) == EMPTY {
        return Err(PositionError::new(
            "ko",
            format!("{cell} is empty, but the previous move landed there: it must hold a stone"),
        ));
    }
    Ok(index)
}
