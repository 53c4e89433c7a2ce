//! The shared renderer's SVG read as layers: the board (background and coordinate labels, the
//! same on every card of a variant and size) and one group per cell, drawn over it in order.
//!
//! The renderer writes `<svg …><rect …/>` and the labels (`<text>`), then every cell as
//! `<g><title>name</title>…</g>`. Anything else (an older or foreign drawing) is not split,
//! and is rasterised whole instead.

/// An SVG document split into its layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layers<'a> {
    /// The opening `<svg …>` tag: the size, view box and text attributes every layer needs.
    pub header: &'a str,
    /// The document up to the first cell: the header, the background and the labels.
    pub board: &'a str,
    /// Each cell's drawing (without its group and title), in document order.
    pub cells: Vec<&'a str>,
}

/// Elements the board layer may hold: anything that could be referred to from a cell
/// (definitions, styles) would be lost when a cell is drawn alone.
const BOARD_ELEMENTS: [&str; 3] = ["<rect ", "<text ", "</text>"];

/// What a cell's drawing must not contain to be drawn alone, on a transparent layer.
const NOT_IN_CELLS: [&str; 6] = ["<g", "<svg", "<style", "url(", "href", "opacity"];

/// Splits `svg`, or None when it is not the shared renderer's kind of drawing.
pub(super) fn split(svg: &str) -> Option<Layers<'_>> {
    let svg = svg.trim_end();
    if !svg.starts_with("<svg ") {
        return None;
    }
    let header = &svg[..=svg.find('>')?];
    let first_cell = svg.find("<g>").or_else(|| svg.rfind("</svg>"))?;
    let board = svg.get(..first_cell)?;
    if !board_is_plain(&board[header.len()..]) {
        return None;
    }
    let mut cells = Vec::new();
    let mut rest = &svg[first_cell..];
    while let Some(group) = rest.strip_prefix("<g><title>") {
        let after_title = &group[group.find("</title>")? + "</title>".len()..];
        let end = after_title.find("</g>")?;
        let cell = &after_title[..end];
        if has_any(cell, &NOT_IN_CELLS) {
            return None;
        }
        cells.push(cell);
        rest = &after_title[end + "</g>".len()..];
    }
    (rest == "</svg>").then_some(Layers {
        header,
        board,
        cells,
    })
}

/// Whether `text` contains any of `words`, in one pass over it that stops only at a byte
/// some word starts with: a card has about a hundred cells, and a search per word and cell was
/// a twentieth of drawing its picture.
fn has_any(text: &str, words: &[&str]) -> bool {
    let mut starts = [false; 256];
    for word in words {
        if let Some(first) = word.as_bytes().first() {
            starts[usize::from(*first)] = true;
        }
    }
    let bytes = text.as_bytes();
    bytes.iter().enumerate().any(|(at, byte)| {
        starts[usize::from(*byte)]
            && bytes
                .get(at..)
                .is_some_and(|rest| words.iter().any(|word| rest.starts_with(word.as_bytes())))
    })
}

/// Whether every tag after the header is one the board layer may hold.
fn board_is_plain(after_header: &str) -> bool {
    after_header.match_indices('<').all(|(at, _)| {
        BOARD_ELEMENTS
            .iter()
            .any(|tag| after_header[at..].starts_with(tag))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::render::render_svg;
    use turnpost_shared::{AnyGame, GameKind, Options};

    #[test]
    fn the_renderers_drawing_splits_into_board_and_cells() {
        let game = AnyGame::new(GameKind::Kefren, &Options::default()).unwrap();
        let view = game.board_view();
        let svg = render_svg(&view);
        let layers = split(&svg).unwrap();
        assert!(layers.header.starts_with("<svg ") && layers.header.ends_with('>'));
        assert!(layers.board.contains("<rect "));
        assert_eq!(layers.cells.len(), view.cells.len());
        assert!(layers.cells.iter().all(|cell| cell.starts_with("<circle")));
        assert!(!layers.cells.iter().any(|cell| cell.contains("title")));
    }

    #[test]
    fn any_word_is_found_wherever_it_is() {
        assert!(has_any("<circle fill=\"url(#x)\"/>", &NOT_IN_CELLS));
        assert!(has_any("opacity", &NOT_IN_CELLS));
        assert!(has_any("a<g", &NOT_IN_CELLS));
        assert!(!has_any(
            "<circle cx=\"1\" r=\"2\"/><text>h</text>",
            &NOT_IN_CELLS
        ));
        assert!(!has_any("", &NOT_IN_CELLS));
        assert!(!has_any("hre", &["href"]));
    }

    #[test]
    fn other_drawings_are_not_split() {
        for svg in [
            "<svg/>",
            "<svg width=\"1\" height=\"1\"></svg>\n<rect/>",
            "<svg width=\"1\"><defs/><g><title>a</title><circle r=\"1\"/></g></svg>",
            "<svg width=\"1\"><g><title>a</title><circle fill=\"url(#x)\"/></g></svg>",
            "<svg width=\"1\"><g><title>a</title><g><circle/></g></g></svg>",
            "<svg width=\"1\"><g><title>a</title><circle/></g>",
            "<html></html>",
        ] {
            assert_eq!(split(svg), None, "{svg}");
        }
        let board_only = split("<svg width=\"2\"><rect width=\"2\"/></svg>\n").unwrap();
        assert!(board_only.cells.is_empty());
    }
}
