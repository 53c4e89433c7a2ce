//! The board as a picture: rows of equal number run left to right, each row shifted half a
//! cell from the next, so the board shows as a hexagon with number 1 at the bottom. Numbers
//! label the rows on the left; letters label the diagonals along the bottom edges.

use crate::{
    board_view::BoardView, board_view::CellContent, board_view::CellView, board_view::LabelView,
    board_view::PieceColour,
};

use super::board::SanQi;
use super::colour::Colour;
use super::geometry::letter_char;

fn grid(value: i32) -> u16 {
    u16::try_from(value).unwrap_or(0)
}

impl SanQi {
    pub(crate) fn view(&self) -> BoardView {
        let geometry = self.geometry();
        let side = i32::from(geometry.side);
        let span = i32::from(geometry.span);
        // (L, N) sits at x = 2L − N on line span − N: the six neighbours then sit two
        // columns away on the same line or one column away on the lines above and below.
        let x_of = |letter: i32, number: i32| 2 * letter - number;
        let y_of = |number: i32| span - number;
        let mut labels: Vec<(i32, i32, String)> = Vec::new();
        for number in 1..=span {
            // Left of the row's first cell, right-aligned.
            let first_letter = (number - side + 1).max(1);
            let text = number.to_string();
            let width = i32::try_from(text.len()).unwrap_or(1);
            labels.push((
                x_of(first_letter - 1, number) - width + 1,
                y_of(number),
                text,
            ));
        }
        for letter in 1..=span {
            // Just past the diagonal's lowest cell.
            let lowest = (letter - side + 1).max(1);
            let text = letter_char(u8::try_from(letter).unwrap_or(0)).to_string();
            labels.push((x_of(letter, lowest - 1), y_of(lowest - 1), text));
        }
        let cells: Vec<(i32, i32, u16)> = (0u16..)
            .zip(&geometry.coords)
            .map(|(index, &(l, n))| {
                let (l, n) = (i32::from(l), i32::from(n));
                (x_of(l, n), y_of(n), index)
            })
            .collect();
        let min_x = labels
            .iter()
            .map(|label| label.0)
            .chain(cells.iter().map(|cell| cell.0))
            .min()
            .unwrap_or(0);
        let max_x = labels
            .iter()
            .map(|label| label.0 + i32::try_from(label.2.len()).unwrap_or(1) - 1)
            .chain(cells.iter().map(|cell| cell.0))
            .max()
            .unwrap_or(0);
        BoardView {
            width: grid(max_x - min_x + 1),
            height: grid(span + 1),
            cells: cells
                .into_iter()
                .map(|(x, y, index)| CellView {
                    name: geometry.name(index),
                    x: grid(x - min_x),
                    y: grid(y),
                    content: content(Colour::of_stone(self.at(index))),
                    highlighted: index == self.ko,
                    mark: None,
                })
                .collect(),
            labels: labels
                .into_iter()
                .map(|(x, y, text)| LabelView {
                    text,
                    x: grid(x - min_x),
                    y: grid(y),
                })
                .collect(),
        }
    }
}

fn content(colour: Option<Colour>) -> CellContent {
    match colour {
        None => CellContent::Empty,
        Some(colour) => CellContent::Piece {
            colour: match colour {
                Colour::Red => PieceColour::Red,
                Colour::Blue => PieceColour::Blue,
                Colour::Yellow => PieceColour::Yellow,
            },
            glyph: colour.letter(),
        },
    }
}
