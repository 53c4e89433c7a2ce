//! Position text (rules: "Position text"): `kefren <rows> <side>`.

use crate::position_error::PositionError;

use super::board::{Kefren, BLACK, EMPTY, WHITE};
use super::cell::{Cell, CELLS, HEIGHT, WIDTH};

/// Each side starts with 18 stones and never gains any.
const MAX_STONES: usize = 18;

impl Kefren {
    pub(crate) fn to_position_text(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..HEIGHT).rev() {
            let mut text = String::new();
            let mut empties = 0;
            for column in 0..WIDTH {
                let stone = Cell::at(column, row).map_or(EMPTY, |cell| self.at(cell));
                if stone == EMPTY {
                    empties += 1;
                    continue;
                }
                if empties > 0 {
                    text.push_str(&empties.to_string());
                    empties = 0;
                }
                text.push(if stone == BLACK { 'b' } else { 'w' });
            }
            if empties > 0 {
                text.push_str(&empties.to_string());
            }
            rows.push(text);
        }
        let side = if self.side == BLACK { 'b' } else { 'w' };
        format!("kefren {} {side}", rows.join("/"))
    }

    /// Reads `kefren <rows> <side>`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field: `kind`, `rows` (with the row), `side`, or extra fields.
    pub(crate) fn parse_position_text(text: &str) -> Result<Kefren, PositionError> {
        let mut fields = text.split_whitespace();
        match fields.next() {
            Some("kefren") => {}
            other => {
                return Err(PositionError::new(
                    "kind",
                    format!("expected `kefren`, found `{}`", other.unwrap_or("")),
                ))
            }
        }
        let rows = fields.next().ok_or_else(|| {
            PositionError::new("rows", "missing: expected 19 rows separated by /")
        })?;
        let side = match fields.next() {
            Some("b") => BLACK,
            Some("w") => WHITE,
            Some(other) => {
                return Err(PositionError::new(
                    "side",
                    format!("expected b or w, found `{other}`"),
                ))
            }
            None => return Err(PositionError::new("side", "missing: expected b or w")),
        };
        if let Some(extra) = fields.next() {
            return Err(PositionError::new(
                "end",
                format!("expected nothing after the side, found `{extra}`"),
            ));
        }
        let cells = parse_rows(rows)?;
        for (colour, name) in [(BLACK, "black"), (WHITE, "white")] {
            let count = cells.iter().filter(|stone| **stone == colour).count();
            if count > MAX_STONES {
                return Err(PositionError::new(
                    "rows",
                    format!("{count} {name} stones: at most {MAX_STONES}"),
                ));
            }
        }
        Ok(Kefren { cells, side })
    }
}

fn parse_rows(text: &str) -> Result<[u8; CELLS], PositionError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != HEIGHT as usize {
        return Err(PositionError::new(
            "rows",
            format!("expected 19 rows separated by /, found {}", rows.len()),
        ));
    }
    let mut cells = [EMPTY; CELLS];
    for (row, row_text) in (0..HEIGHT).rev().zip(rows) {
        let mut column = 0;
        for c in row_text.chars() {
            let (stone, count) = match c {
                'b' => (BLACK, 1),
                'w' => (WHITE, 1),
                '1'..='9' => (EMPTY, c.to_digit(10).map_or(0, |d| d as i32)),
                other => {
                    return Err(PositionError::new(
                        "rows",
                        format!(
                            "row {}: expected b, w or a digit 1-9, found `{other}`",
                            row + 1
                        ),
                    ))
                }
            };
            for _ in 0..count {
                let slot = Cell::at(column, row).and_then(|cell| cells.get_mut(cell.index()));
                match slot {
                    Some(slot) => *slot = stone,
                    None => {
                        return Err(PositionError::new(
                            "rows",
                            format!("row {}: more than 9 cells", row + 1),
                        ))
                    }
                }
                column += 1;
            }
        }
        if column != WIDTH {
            return Err(PositionError::new(
                "rows",
                format!("row {}: expected 9 cells, found {column}", row + 1),
            ));
        }
    }
    Ok(cells)
}
