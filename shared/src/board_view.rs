//! A game-independent picture of a position (cells on a character grid with coordinate labels),
//! which every game builds and the text and SVG renderers draw.

use serde::{Deserialize, Serialize};

/// A game-independent picture of a position: cells placed on a character grid, with labels
/// for coordinates. Each game builds one; the text and SVG renderers draw any of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// Grid width in characters.
    pub width: u16,
    /// Grid height in lines (line 0 is the top).
    pub height: u16,
    pub cells: Vec<CellView>,
    pub labels: Vec<LabelView>,
}

/// One cell of the board, at grid position (`x`, `y`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellView {
    /// The cell's name in the game's notation (`F3`, `a13`, `d4`).
    pub name: String,
    pub x: u16,
    pub y: u16,
    pub content: CellContent,
    /// Part of the last move (drawn highlighted).
    pub highlighted: bool,
    /// The colour of the seat whose move it was part of, when known: renderers mark the cell
    /// in that colour (with a contrasting outline, so it shows on a piece of the same colour).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<PieceColour>,
}

/// What stands on a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CellContent {
    Empty,
    /// Empty and closed for good (Kechi's markers).
    Marked,
    /// A piece drawn with `glyph` in text and `colour` in pictures.
    Piece {
        colour: PieceColour,
        glyph: char,
    },
}

/// The colours pieces are drawn in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PieceColour {
    Black,
    White,
    Red,
    Blue,
    Yellow,
    Green,
    Purple,
    Orange,
    Grey,
}

/// A coordinate label (a row number or column letter) at grid position (`x`, `y`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelView {
    pub text: String,
    pub x: u16,
    pub y: u16,
}

impl BoardView {
    /// Marks the cells named in a move's text as highlighted, in `colour` (the mover's seat
    /// colour). Later calls win on cells several moves share, so mark oldest first.
    pub fn mark_move(&mut self, move_text: &str, colour: PieceColour) {
        for word in move_text.split(|c: char| !c.is_ascii_alphanumeric()) {
            for cell in &mut self.cells {
                if !word.is_empty() && cell.name.eq_ignore_ascii_case(word) {
                    cell.highlighted = true;
                    cell.mark = Some(colour);
                }
            }
        }
    }
}
