//! A board drawn as lines of text with its coordinate labels: plain, with ANSI colours, or with
//! the highlighted cells bracketed for mail.

use crate::{board_view::BoardView, board_view::CellContent, board_view::PieceColour};

/// How to draw a board as text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextStyle {
    /// Characters only (files, pipes, `NO_COLOR`).
    Plain,
    /// ANSI colours; each highlighted cell underlined, in brackets of its mover's colour where
    /// its neighbours are blank (terminals).
    Ansi,
    /// Characters only, each highlighted cell bracketed `[b]` where its neighbours are blank
    /// (mail and other places with neither colour nor pictures).
    Marked,
}

/// Draws a board as lines of text with its coordinate labels.
pub fn render_text(view: &BoardView, style: TextStyle) -> String {
    let width = usize::from(view.width);
    let blank = Glyph {
        c: ' ',
        colour: None,
        highlighted: false,
        mark: None,
    };
    let mut grid = vec![vec![blank; width]; usize::from(view.height)];
    let mut put = |x: u16, y: u16, glyph: Glyph| {
        if let Some(slot) = grid
            .get_mut(usize::from(y))
            .and_then(|line| line.get_mut(usize::from(x)))
        {
            *slot = glyph;
        }
    };
    for label in &view.labels {
        for (i, c) in label.text.chars().enumerate() {
            let x = label.x.saturating_add(u16::try_from(i).unwrap_or(u16::MAX));
            put(
                x,
                label.y,
                Glyph {
                    c,
                    colour: None,
                    highlighted: false,
                    mark: None,
                },
            );
        }
    }
    for cell in &view.cells {
        let (glyph, colour) = match cell.content {
            CellContent::Empty => ('.', None),
            CellContent::Marked => ('x', None),
            CellContent::Piece { colour, glyph } => (glyph, Some(colour)),
        };
        put(
            cell.x,
            cell.y,
            Glyph {
                c: glyph,
                colour,
                highlighted: cell.highlighted,
                mark: cell.mark,
            },
        );
    }
    if style != TextStyle::Plain {
        bracket_highlighted(&mut grid);
    }
    let mut out = String::new();
    for line in grid {
        let mut text = String::new();
        for Glyph {
            c: glyph,
            colour,
            highlighted,
            mark,
        } in line
        {
            match style {
                TextStyle::Plain | TextStyle::Marked => text.push(glyph),
                TextStyle::Ansi => {
                    let mut codes: Vec<&str> = Vec::new();
                    if highlighted {
                        codes.push("4");
                    }
                    // The piece keeps its own colour (a red stone stays red whoever played
                    // it); the brackets and an empty marked cell show the mover's colour.
                    match (colour, mark) {
                        (Some(colour), _) => codes.push(ansi_code(colour)),
                        (None, Some(mark)) => codes.push(ansi_mark_code(mark)),
                        (None, None) if glyph == '.' || glyph == 'x' => codes.push("2"),
                        (None, None) => {}
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

/// Puts `[` and `]` beside each highlighted glyph, only over blanks so nothing is hidden. A
/// blank between two highlighted glyphs becomes `|` (`[3|3]`), so neighbours never read as
/// one bracket pair with a stray bracket. A bracket carries the mover's colour as its mark.
fn bracket_highlighted(grid: &mut [Vec<Glyph>]) {
    for line in grid {
        for x in 0..line.len() {
            if !line[x].highlighted {
                continue;
            }
            let mark = line[x].mark;
            if let Some(left) = x.checked_sub(1).and_then(|left| line.get_mut(left)) {
                match left.c {
                    ' ' => *left = bracket('[', mark),
                    ']' => *left = bracket('|', mark),
                    _ => {}
                }
            }
            if let Some(right) = line.get_mut(x + 1) {
                if right.c == ' ' {
                    *right = bracket(']', mark);
                }
            }
        }
    }
}

fn bracket(c: char, mark: Option<PieceColour>) -> Glyph {
    Glyph {
        c,
        colour: None,
        highlighted: false,
        mark,
    }
}

/// One character of the drawing, with how to colour it.
#[derive(Clone, Copy)]
struct Glyph {
    c: char,
    colour: Option<PieceColour>,
    highlighted: bool,
    /// The mover's colour of a highlighted cell.
    mark: Option<PieceColour>,
}

/// A mark's colour as a reverse-video foreground: White as grey, so the block shows on light
/// and dark terminals alike.
fn ansi_mark_code(colour: PieceColour) -> &'static str {
    match colour {
        PieceColour::White => "37",
        other => ansi_code(other),
    }
}

fn ansi_code(colour: PieceColour) -> &'static str {
    match colour {
        PieceColour::Black => "1;34",
        // Bold in the terminal's own text colour: readable on light and dark backgrounds
        // (white or light grey vanish on a light one); the glyph `w` says which side.
        PieceColour::White => "1",
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
    use crate::{board_view::CellView, board_view::LabelView};

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
                    mark: None,
                },
                CellView {
                    name: "B1".into(),
                    x: 4,
                    y: 0,
                    content: CellContent::Empty,
                    highlighted: false,
                    mark: None,
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
    fn marked_text_brackets_the_highlighted_cell_over_blanks_only() {
        assert_eq!(render_text(&view(), TextStyle::Marked), "1[b].\n  A B\n");
    }

    #[test]
    fn marked_text_keeps_touching_highlights_apart() {
        let mut touching = view();
        touching.width = 6;
        touching.cells[1].highlighted = true;
        assert_eq!(render_text(&touching, TextStyle::Marked), "1[b|.]\n  A B\n");
    }

    #[test]
    fn ansi_marks_in_the_movers_colour_and_white_is_readable() {
        let mut marked = view();
        marked.cells[0].mark = Some(PieceColour::Red);
        let text = render_text(&marked, TextStyle::Ansi);
        // The black stone stays black (blue on a terminal), underlined, in red brackets.
        assert!(
            text.contains("\x1b[1;31m[\x1b[0m\x1b[4;1;34mb\x1b[0m\x1b[1;31m]\x1b[0m"),
            "{text:?}"
        );
        marked.cells[0].highlighted = false;
        marked.cells[0].content = CellContent::Piece {
            colour: PieceColour::White,
            glyph: 'w',
        };
        let text = render_text(&marked, TextStyle::Ansi);
        assert!(text.contains("\x1b[1mw\x1b[0m"), "{text:?}");
    }

    #[test]
    fn ansi_text_highlights_and_colours() {
        let text = render_text(&view(), TextStyle::Ansi);
        assert!(text.contains("[\x1b[4;1;34mb\x1b[0m]"), "{text:?}");
        let mut empty = view();
        empty.cells[1].highlighted = true;
        empty.cells[1].mark = Some(PieceColour::Yellow);
        let text = render_text(&empty, TextStyle::Ansi);
        assert!(text.contains("\x1b[4;1;33m.\x1b[0m"), "{text:?}");
    }
}
