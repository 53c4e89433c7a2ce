use crate::{BoardView, CellContent, PieceColour};

/// How to draw a board as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextStyle {
    /// Characters only (files, pipes, `NO_COLOR`).
    Plain,
    /// ANSI colours, last move in reverse video (terminals).
    Ansi,
}

/// One character of the picture: glyph, colour (with whether it is a piece), highlighted.
type Slot = (char, Option<(PieceColour, bool)>, bool);

/// Draws a board as lines of text with its coordinate labels.
pub fn render_text(view: &BoardView, style: TextStyle) -> String {
    let width = usize::from(view.width);
    let mut grid: Vec<Vec<Slot>> = vec![vec![(' ', None, false); width]; usize::from(view.height)];
    let mut put = |x: u16, y: u16, glyph: char, colour: Option<(PieceColour, bool)>, hl: bool| {
        if let Some(slot) = grid
            .get_mut(usize::from(y))
            .and_then(|line| line.get_mut(usize::from(x)))
        {
            *slot = (glyph, colour, hl);
        }
    };
    for label in &view.labels {
        for (i, c) in label.text.chars().enumerate() {
            let x = label.x.saturating_add(u16::try_from(i).unwrap_or(u16::MAX));
            put(x, label.y, c, None, false);
        }
    }
    for cell in &view.cells {
        let (glyph, colour) = match cell.content {
            CellContent::Empty => ('.', None),
            CellContent::Marked => ('x', None),
            CellContent::Piece { colour, glyph } => (glyph, Some((colour, true))),
        };
        put(cell.x, cell.y, glyph, colour, cell.highlighted);
    }
    let mut out = String::new();
    for line in grid {
        let mut text = String::new();
        for (glyph, colour, highlighted) in line {
            match style {
                TextStyle::Plain => text.push(glyph),
                TextStyle::Ansi => {
                    let mut codes: Vec<&str> = Vec::new();
                    if highlighted {
                        codes.push("7");
                    }
                    if let Some((colour, _)) = colour {
                        codes.push(ansi_code(colour));
                    } else if glyph == '.' || glyph == 'x' {
                        codes.push("2");
                    }
                    if codes.is_empty() {
                        text.push(glyph);
                    } else {
                        text.push_str(&format!("\x1b[{}m{glyph}\x1b[0m", codes.join(";")));
                    }
                }
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

fn ansi_code(colour: PieceColour) -> &'static str {
    match colour {
        PieceColour::Black => "1;34",
        PieceColour::White => "1;37",
        PieceColour::Red => "1;31",
        PieceColour::Blue => "1;34",
        PieceColour::Yellow => "1;33",
        PieceColour::Green => "1;32",
        PieceColour::Purple => "1;35",
        PieceColour::Orange => "1;38;5;208",
        PieceColour::Grey => "90",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CellView, LabelView};

    fn view() -> BoardView {
        BoardView {
            width: 5,
            height: 2,
            cells: vec![
                CellView {
                    name: "A1".into(),
                    x: 2,
                    y: 0,
                    content: CellContent::Piece {
                        colour: PieceColour::Black,
                        glyph: 'b',
                    },
                    highlighted: true,
                },
                CellView {
                    name: "B1".into(),
                    x: 4,
                    y: 0,
                    content: CellContent::Empty,
                    highlighted: false,
                },
            ],
            labels: vec![
                LabelView {
                    text: "1".into(),
                    x: 0,
                    y: 0,
                },
                LabelView {
                    text: "A B".into(),
                    x: 2,
                    y: 1,
                },
            ],
        }
    }

    #[test]
    fn plain_text_places_cells_and_labels() {
        assert_eq!(render_text(&view(), TextStyle::Plain), "1 b .\n  A B\n");
    }

    #[test]
    fn ansi_text_highlights_and_colours() {
        let text = render_text(&view(), TextStyle::Ansi);
        assert!(text.contains("\x1b[7;1;34mb\x1b[0m"), "{text:?}");
    }
}
