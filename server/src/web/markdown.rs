//! Just enough Markdown for the rules texts (`rules_for_players`): headings, paragraphs, lists,
//! fenced or indented code blocks (the board diagrams), `code` spans and **bold**. Everything
//! else shows as the text it is; every piece is escaped by maud.
//!
//! Kept rather than `pulldown-cmark` (0.13, raw HTML turned into text so that it renders as
//! safely): the pages need headings one level down (`h2`, `h3`; `h4` in the API reference) and
//! focusable diagrams (`<pre tabindex="0">`), and the crate's HTML differs from ours on all
//! four rules texts (emphasis, links and other Markdown we show as text), so replacing it would
//! change every rules page. The time is the same: `cargo bench -p turnpost-server --bench
//! hand_written` (2026-11-28, 2-core machine, load average 5) renders a rules text (3–4 kB) in
//! 43–51 µs here, 42–46 µs with the crate; a 108 kB paragraph of 4 000 `code` spans in 1.3 ms
//! (the crate 3.4 ms; before [`inline`] looked for the first mark only, 120 ms), 100 kB of
//! unclosed marks in 3.1 ms (the crate 2.9 ms).

use maud::{html, Markup};

enum Block {
    Heading(usize, String),
    Para(String),
    List(Vec<String>),
    Code(String),
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().peekable();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let flush = |out: &mut Vec<Block>, para: &mut Vec<&str>, list: &mut Vec<String>| {
        if !para.is_empty() {
            out.push(Block::Para(para.join(" ")));
            para.clear();
        }
        if !list.is_empty() {
            out.push(Block::List(std::mem::take(list)));
        }
    };
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") {
            flush(&mut out, &mut para, &mut list);
            let mut code = Vec::new();
            for inner in lines.by_ref() {
                if inner.trim_start().starts_with("```") {
                    break;
                }
                code.push(inner);
            }
            out.push(Block::Code(code.join("\n")));
        } else if line.starts_with("    ") && para.is_empty() && list.is_empty() {
            let mut code = vec![line.get(4..).unwrap_or_default()];
            while let Some(next) = lines.peek() {
                if next.starts_with("    ") || next.trim().is_empty() {
                    code.push(next.get(4..).unwrap_or_default());
                    lines.next();
                } else {
                    break;
                }
            }
            while code.last().is_some_and(|l| l.trim().is_empty()) {
                code.pop();
            }
            out.push(Block::Code(code.join("\n")));
        } else if trimmed.is_empty() {
            flush(&mut out, &mut para, &mut list);
        } else if let Some(rest) = trimmed.strip_prefix('#') {
            flush(&mut out, &mut para, &mut list);
            let level = 1 + rest.chars().take_while(|&c| c == '#').count();
            out.push(Block::Heading(
                level,
                rest.trim_start_matches('#').trim().to_owned(),
            ));
        } else if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            if !para.is_empty() {
                out.push(Block::Para(para.join(" ")));
                para.clear();
            }
            list.push(item.to_owned());
        } else if !list.is_empty() && line.starts_with(' ') {
            if let Some(last) = list.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        } else {
            if !list.is_empty() {
                out.push(Block::List(std::mem::take(&mut list)));
            }
            para.push(trimmed);
        }
    }
    flush(&mut out, &mut para, &mut list);
    out
}

/// The span that `mark` opens at `at` in `rest`: the text before it and the span's text (of
/// `style`) become parts, and what follows the closing mark is left; with no closing mark the
/// whole rest is plain text.
fn span<'a>(
    rest: &'a str,
    at: usize,
    mark: &str,
    style: u8,
    parts: &mut Vec<(u8, String)>,
) -> &'a str {
    let (before, after) = rest.split_at(at);
    let after = after.get(mark.len()..).unwrap_or_default();
    match after.find(mark) {
        Some(end) => {
            parts.push((0, before.to_owned()));
            parts.push((style, after.get(..end).unwrap_or_default().to_owned()));
            after.get(end + mark.len()..).unwrap_or_default()
        }
        None => {
            parts.push((0, rest.to_owned()));
            ""
        }
    }
}

/// `code` spans and **bold** within a line.
#[must_use]
pub fn inline(text: &str) -> Markup {
    let mut parts = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        // Only the first mark is looked for: searching the whole rest for each kind at every
        // step made a paragraph of many `code` spans quadratic.
        rest = match first_mark(rest) {
            Some((at, b'`')) => span(rest, at, "`", 1, &mut parts),
            Some((at, _)) => span(rest, at, "**", 2, &mut parts),
            None => {
                parts.push((0, rest.to_owned()));
                ""
            }
        };
    }
    html! {
        @for (style, part) in &parts {
            @match style {
                1 => code { (part) },
                2 => strong { (part) },
                _ => (part),
            }
        }
    }
}

/// Where the first `` ` `` or `**` of `text` starts, and its first byte.
fn first_mark(text: &str) -> Option<(usize, u8)> {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().find_map(|(at, &byte)| {
        let mark = byte == b'`' || (byte == b'*' && bytes.get(at + 1) == Some(&b'*'));
        mark.then_some((at, byte))
    })
}

/// The rules text as HTML.
#[must_use]
pub fn render(text: &str) -> Markup {
    render_blocks(text, false)
}

/// A text inside a section that has its own heading (an operation of the API reference):
/// its headings (`# Errors`) become the smallest ones.
#[must_use]
pub fn render_nested(text: &str) -> Markup {
    render_blocks(text, true)
}

fn render_blocks(text: &str, nested: bool) -> Markup {
    html! {
        @for block in blocks(text) {
            @match block {
                Block::Heading(_, title) if nested => h4 { (inline(&title)) },
                Block::Heading(level, title) => @match level {
                    1 | 2 => h2 { (inline(&title)) },
                    _ => h3 { (inline(&title)) },
                },
                Block::Para(text) => p { (inline(&text)) },
                Block::List(items) => ul { @for item in &items { li { (inline(item)) } } },
                // Focusable: a diagram wider than the screen scrolls from the keyboard too.
                Block::Code(code) => pre tabindex="0" { code { (code) } },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_become_elements_and_text_is_escaped() {
        let html = render(
            "# Title\n\nA `F3:E4` <b>move</b>.\n\n- one\n- **two**\n\n    A B C\n    1 2 3\n",
        )
        .into_string();
        assert!(html.contains("<h2>Title</h2>"), "{html}");
        assert!(html.contains("<code>F3:E4</code>"), "{html}");
        assert!(html.contains("&lt;b&gt;move&lt;/b&gt;"), "{html}");
        assert!(html.contains("<li><strong>two</strong></li>"), "{html}");
        assert!(
            html.contains("<pre tabindex=\"0\"><code>A B C\n1 2 3</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn the_first_mark_opens_and_an_unclosed_one_is_text() {
        assert_eq!(
            inline("a **b `c` d** `e` **f").into_string(),
            "a <strong>b `c` d</strong> <code>e</code> **f"
        );
    }
}
