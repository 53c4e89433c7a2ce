//! The text of an HTML mail part: the HTML without the quoted original (`<blockquote>`, where
//! mail programs put it), turned into text. Both steps are single passes over the input, so
//! the work is linear in the part's size whatever its tags (a megabyte of `</blockquote>`
//! costs what a megabyte of prose costs).
//!
//! The conversion itself is `mail-parser`'s, already a dependency; only the two passes before it
//! are ours. Kept rather than an HTML-to-text crate: `html2text` would bring html5ever and 11
//! other crates (code generation at build time included) to CI's cold build, and the light one,
//! `nanohtml2text` (0.3, no dependencies), measured on the same mails with `cargo bench -p
//! turnpost-server --bench hand_written` (2026-11-28, 2-core machine, load average 5), keeps the
//! quoted original (802 lines of a quoted 30 kB card where we read the player's 2), and is
//! quadratic in unclosed tags:
//!
//! | mail | ours | `nanohtml2text` |
//! |---|---|---|
//! | Gmail, HTML-only, Latin-1 fixtures (0.1–0.3 kB) | 1.3–4.2 µs | 3.0–4.9 µs |
//! | a reply quoting a 30 kB card | 74 µs | 1.06 ms |
//! | 78 000 `</blockquote>` (1 MB) | 2.4 ms | 19.2 ms |
//! | 39 000 nested blockquotes (1 MB) | 2.0 ms | 15.8 ms |
//! | 4 000 / 8 000 unclosed `<blockquote` (44 / 88 kB) | 69 / 125 µs | 489 ms / 1.19 s |
//! | 20 000 nested `<div>` (220 kB) | 4.0 ms | 8.0 ms |

use mail_parser::decoders::html::html_to_text;

/// The text a player wrote in an HTML part: without blockquotes, tags and entities; each
/// `<div>` on lines of its own.
pub fn html_body_text(html: &str) -> String {
    html_to_text(&with_div_breaks(&without_blockquotes(html)))
}

/// `html` with a line break (`<br>`) before every `<div …>` and `</div>`: mail programs write
/// each line typed as a `<div>` (a move, then the message on the next line), and the text
/// conversion breaks lines at `<br>` and `</p>` only. One pass, like [`without_blockquotes`].
fn with_div_breaks(html: &str) -> String {
    const OPEN: &[u8] = b"<div";
    const CLOSE: &[u8] = b"</div";
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len());
    let mut copied = 0;
    let mut position = 0;
    while let Some((tag_start, rest)) = next_tag(bytes, position) {
        // `<div` followed by `>` or a space, not `<divx`.
        let boundary = |prefix: &[u8]| {
            starts_with_ignoring_case(rest, prefix)
                && rest
                    .get(prefix.len())
                    .is_none_or(|b| *b == b'>' || b.is_ascii_whitespace() || *b == b'/')
        };
        if boundary(OPEN) || boundary(CLOSE) {
            out.push_str(html.get(copied..tag_start).unwrap_or_default());
            out.push_str("<br>");
            copied = tag_start;
        }
        position = tag_start + 1;
    }
    out.push_str(html.get(copied..).unwrap_or_default());
    out
}

/// The first `<` at or after `position`: where it stands, and the bytes from it on.
fn next_tag(bytes: &[u8], position: usize) -> Option<(usize, &[u8])> {
    let offset = bytes.get(position..)?.iter().position(|&b| b == b'<')?;
    let tag_start = position + offset;
    Some((tag_start, bytes.get(tag_start..).unwrap_or_default()))
}

/// Whether `bytes` starts with `prefix`, ASCII case ignored.
fn starts_with_ignoring_case(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes
        .get(..prefix.len())
        .is_some_and(|start| start.eq_ignore_ascii_case(prefix))
}

/// `html` with every `<blockquote …>…</blockquote>` removed (nested ones included; an
/// unclosed one runs to the end; a stray closing tag is dropped).
///
/// One pass: each byte is looked at a bounded number of times (a tag is recognised by its
/// fixed prefix at its `<`, and the scan resumes after its `>`).
pub fn without_blockquotes(html: &str) -> String {
    const OPEN: &[u8] = b"<blockquote";
    const CLOSE: &[u8] = b"</blockquote";
    let bytes = html.as_bytes();
    let mut out = String::with_capacity(html.len());
    let mut depth = 0usize;
    // Start of the text not yet copied (or skipped, inside a blockquote).
    let mut kept_from = 0;
    let mut position = 0;
    while let Some((tag_start, rest)) = next_tag(bytes, position) {
        let opening = starts_with_ignoring_case(rest, OPEN);
        if !opening && !starts_with_ignoring_case(rest, CLOSE) {
            position = tag_start + 1;
            continue;
        }
        if depth == 0 {
            out.push_str(html.get(kept_from..tag_start).unwrap_or_default());
        }
        depth = if opening {
            depth + 1
        } else {
            depth.saturating_sub(1)
        };
        // Past the tag's `>` (or to the end when it has none): the tag's bytes after its
        // prefix are scanned once, here, and never again.
        let after_prefix = tag_start + if opening { OPEN.len() } else { CLOSE.len() };
        position = bytes
            .get(after_prefix..)
            .and_then(|tail| tail.iter().position(|&b| b == b'>'))
            .map_or(bytes.len(), |end| after_prefix + end + 1);
        kept_from = position;
    }
    if depth == 0 {
        out.push_str(html.get(kept_from..).unwrap_or_default());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{html_body_text, without_blockquotes};

    #[test]
    fn each_div_is_a_line() {
        let text = html_body_text(
            "<div dir=\"ltr\">F3:E4:E7<div>good luck</div></div><DIV class=x>bye</DIV>a<divx>b</divx>",
        );
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines, ["F3:E4:E7", "good luck", "bye", "ab"]);
    }

    #[test]
    fn blockquotes_go_with_what_they_hold() {
        assert_eq!(
            without_blockquotes("<div>F3-E4</div><BLOCKQUOTE type=cite>a<blockquote>b</blockquote>c</blockquote><p>x</p>"),
            "<div>F3-E4</div><p>x</p>"
        );
        assert_eq!(without_blockquotes("a<blockquote>never closed"), "a");
        assert_eq!(without_blockquotes("a</blockquote>b"), "ab");
        assert_eq!(without_blockquotes("é<blockquote"), "é");
        assert_eq!(without_blockquotes("a<b>c</b>"), "a<b>c</b>");
        assert_eq!(
            without_blockquotes("a<blockquote x='<'>q</blockquote>é"),
            "aé"
        );
    }
}
