//! Position text (rules: "Position text"):
//! `kechi <rows> <side> <total> <white-score> <black-score> <ply>`.

use crate::position_error::PositionError;

use super::bits::Bits;
use super::board::{Kechi, BLACK, WHITE};
use super::geometry::{geometry, SPACING};
use super::rules::{Rules, UNKNOWN_TOTAL};

impl Kechi {
    pub(crate) fn to_position_text(&self) -> String {
        let board = self.geometry();
        let mut rows = Vec::new();
        for row in (0..board.size).rev() {
            let mut text = String::new();
            for column in 0..board.size {
                let Some(index) = board.index_at(column as i64, row as i64) else {
                    continue;
                };
                text.push(if self.side_stones(WHITE).contains(index) {
                    'w'
                } else if self.side_stones(BLACK).contains(index) {
                    'b'
                } else if self.marked.contains(index) {
                    'x'
                } else {
                    '.'
                });
            }
            rows.push(text);
        }
        let side = if self.side == WHITE { 'w' } else { 'b' };
        let total = if self.total == UNKNOWN_TOTAL {
            "?".to_string()
        } else {
            self.total.to_string()
        };
        format!(
            "kechi {} {side} {total} {} {} {}",
            rows.join("/"),
            self.scores[WHITE],
            self.scores[BLACK],
            self.ply
        )
    }

    /// Reads position text for the variant `rules`.
    ///
    /// # Errors
    /// A [`PositionError`] naming the field: `kind`, `rows`, `side`, `total`, `white-score`,
    /// `black-score`, `ply`, or `end` for extra fields.
    pub(crate) fn parse_position_text(rules: Rules, text: &str) -> Result<Kechi, PositionError> {
        let mut fields = text.split_whitespace();
        match fields.next() {
            Some("kechi") => {}
            other => {
                return Err(PositionError::new(
                    "kind",
                    format!("expected `kechi`, found `{}`", other.unwrap_or("")),
                ))
            }
        }
        let mut next = |field: &str, expected: &str| {
            fields
                .next()
                .ok_or_else(|| PositionError::new(field, format!("missing: expected {expected}")))
        };
        let rows = next("rows", "the rows separated by /")?;
        let side = next("side", "w or b")?;
        let total = next("total", "the turn's total 1-6")?;
        let white_score = next("white-score", "a whole number")?;
        let black_score = next("black-score", "a whole number")?;
        let ply = next("ply", "the number of turns played")?;
        if let Some(extra) = fields.next() {
            return Err(PositionError::new(
                "end",
                format!("expected nothing after the ply, found `{extra}`"),
            ));
        }
        let (stones, marked) = parse_rows(rules.lines, rows)?;
        let side = match side {
            "w" => WHITE,
            "b" => BLACK,
            other => {
                return Err(PositionError::new(
                    "side",
                    format!("expected w or b, found `{other}`"),
                ))
            }
        };
        let total = match total.parse::<u8>() {
            Ok(total @ 1..=6) => total,
            _ => {
                return Err(PositionError::new(
                    "total",
                    format!("expected a number from 1 to 6, found `{total}`"),
                ))
            }
        };
        let scores = [
            number("white-score", white_score)?,
            number("black-score", black_score)?,
        ];
        let ply = number("ply", ply)?;
        // White moves at even plies.
        if (ply % 2 == 0) != (side == WHITE) {
            return Err(PositionError::new(
                "ply",
                format!(
                    "ply {ply} is {} but {} is to move (White moves at even plies)",
                    if ply % 2 == 0 { "even" } else { "odd" },
                    if side == WHITE { "White" } else { "Black" }
                ),
            ));
        }
        // With the seed withheld the roll cannot be checked: the text's total is taken as it is.
        let expected = rules.total_at(ply).unwrap_or(total);
        if total != expected {
            let why = if let (true, Some(seed)) = (rules.die, rules.seed) {
                format!("the die roll of ply {ply} with seed {seed} is {expected}")
            } else {
                "with total=6 every turn's total is 6".to_string()
            };
            return Err(PositionError::new(
                "total",
                format!("found {total}, but {why}"),
            ));
        }
        if rules.tokens {
            let sum = scores[WHITE].checked_add(scores[BLACK]);
            let marks = u64::from(marked.count());
            if sum != Some(marks) {
                return Err(PositionError::new(
                    "white-score",
                    format!(
                        "the scores {} + {} must add up to the {marks} marked cells (every \
                         stone move takes one token and marks one cell)",
                        scores[WHITE], scores[BLACK]
                    ),
                ));
            }
        } else {
            for (field, score) in [
                ("white-score", scores[WHITE]),
                ("black-score", scores[BLACK]),
            ] {
                if score != 0 {
                    return Err(PositionError::new(
                        field,
                        format!("found {score}, but scores are 0 unless scoring=tokens"),
                    ));
                }
            }
        }
        Ok(Kechi {
            rules,
            stones,
            marked,
            side,
            total,
            ply,
            scores,
        })
    }
}

fn number(field: &str, text: &str) -> Result<u64, PositionError> {
    // Only plain decimal digits, as printed (no sign, no spaces).
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::new(
            field,
            format!("expected a whole number, found `{text}`"),
        ));
    }
    text.parse::<u64>()
        .map_err(|_| PositionError::new(field, format!("`{text}` is too large")))
}

/// Reads `<rows>`: stones by side and marked cells.
fn parse_rows(lines: u8, text: &str) -> Result<([Bits; 2], Bits), PositionError> {
    let board = geometry(lines);
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != board.size {
        return Err(PositionError::new(
            "rows",
            format!(
                "expected {} rows separated by / (lines={lines}), found {}",
                board.size,
                rows.len()
            ),
        ));
    }
    let mut stones = [Bits::EMPTY; 2];
    let mut marked = Bits::EMPTY;
    for (row, row_text) in (0..board.size).rev().zip(rows) {
        let cells: Vec<usize> = (0..board.size)
            .filter_map(|column| board.index_at(column as i64, row as i64))
            .collect();
        let found = row_text.chars().count();
        if found != cells.len() {
            let kind = if row % SPACING == 0 {
                "full row"
            } else {
                "row"
            };
            return Err(PositionError::new(
                "rows",
                format!(
                    "row {}: expected {} cells (a {kind} of lines={lines}), found {found}",
                    row + 1,
                    cells.len()
                ),
            ));
        }
        for (index, c) in cells.into_iter().zip(row_text.chars()) {
            match c {
                'w' => stones[WHITE].insert(index),
                'b' => stones[BLACK].insert(index),
                'x' => marked.insert(index),
                '.' => {}
                other => {
                    return Err(PositionError::new(
                        "rows",
                        format!("row {}: expected w, b, . or x, found `{other}`", row + 1),
                    ))
                }
            }
        }
    }
    for (side, name) in [(WHITE, "white"), (BLACK, "black")] {
        let count = stones[side].count();
        if count > u32::from(lines) {
            return Err(PositionError::new(
                "rows",
                format!("{count} {name} stones: each side starts with {lines} and never gains any"),
            ));
        }
    }
    Ok((stones, marked))
}
