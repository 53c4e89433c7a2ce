//! Writes the plain-text and the HTML part side by side, so both always say the same thing.
//! Every string that reaches the HTML goes through [`escape`].

use std::fmt::Write as _;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// The two parts of a mail being written.
#[derive(Debug, Default)]
pub(super) struct Letter {
    text: String,
    html: String,
}

impl Letter {
    /// A letter opening with "Hello {name},".
    pub(super) fn to(name: &str) -> Self {
        let mut letter = Self::default();
        letter.text.push_str(&format!("Hello {name},\n\n"));
        letter
            .html
            .push_str(&format!("<p>Hello {},</p>\n", escape(name)));
        letter
    }

    /// A paragraph.
    pub(super) fn para(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push_str("\n\n");
        let _ = writeln!(self.html, "<p>{}</p>", escape(text));
    }

    /// Someone else's words after `heading` ("anna wrote, with move 7:"): the first line on the
    /// heading's line, each further line marked `> ` in the text part, so that no line of
    /// theirs stands as if this server wrote it (a fake link, a fake command); line breaks in
    /// the HTML part.
    pub(super) fn quoted(&mut self, heading: &str, words: &str) {
        let mut lines = words.lines();
        let first = lines.next().unwrap_or_default();
        let _ = write!(self.text, "{heading} {first}");
        let mut html = format!("{} {}", escape(heading), escape(first));
        for line in lines {
            let _ = write!(self.text, "\n> {line}");
            let _ = write!(html, "<br>\n{}", escape(line));
        }
        self.text.push_str("\n\n");
        let _ = writeln!(self.html, "<p>{html}</p>");
    }

    /// Labelled facts, aligned in text and a table in HTML.
    pub(super) fn facts(&mut self, rows: &[(&str, String)]) {
        let width = rows.iter().map(|(label, _)| label.len()).max().unwrap_or(0) + 1;
        self.html
            .push_str("<table style=\"border-collapse:collapse;margin:0 0 1em 0\">\n");
        for (label, value) in rows {
            let _ = writeln!(self.text, "{:<width$} {value}", format!("{label}:"));
            let _ = writeln!(
                self.html,
                "<tr><td style=\"padding:0 1em 0 0;color:#555;vertical-align:top\">{}</td><td>{}</td></tr>",
                escape(label),
                escape(value)
            );
        }
        self.text.push('\n');
        self.html.push_str("</table>\n");
    }

    /// A monospace block: indented in text, `<pre>` in HTML.
    pub(super) fn pre(&mut self, block: &str) {
        self.text_pre(block);
        let _ = writeln!(
            self.html,
            "<pre style=\"font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px;line-height:1.25;background:#f6f1e7;padding:8px;display:inline-block\">{}</pre>",
            escape(block.trim_end())
        );
    }

    /// A monospace block in the text part only: the HTML part shows the same thing otherwise
    /// (the board's picture), and a phone should not see it twice.
    pub(super) fn text_pre(&mut self, block: &str) {
        for line in block.lines() {
            if line.is_empty() {
                self.text.push('\n');
            } else {
                let _ = writeln!(self.text, "    {line}");
            }
        }
        self.text.push('\n');
    }

    /// A large button-like link in the HTML part, with a line of `note` under it; the text
    /// part gives the link where [`Letter::text_link`] puts it.
    pub(super) fn button(&mut self, label: &str, url: &str, note: &str) {
        let _ = writeln!(
            self.html,
            "<p style=\"margin:1em 0\"><a href=\"{}\" style=\"display:block;max-width:24em;padding:14px 18px;background:#1f4f9f;color:#ffffff;font-size:19px;font-weight:bold;text-align:center;text-decoration:none;border-radius:6px\">{}</a><span style=\"display:block;font-size:13px;color:#555;margin-top:4px\">{}</span></p>",
            escape(url),
            escape(label),
            escape(note)
        );
    }

    /// A link with its label in the text part only (the HTML part has it as a [`Letter::button`]).
    pub(super) fn text_link(&mut self, label: &str, url: &str) {
        let _ = write!(self.text, "{label}: {url}\n\n");
    }

    /// A command to paste: on its own line in text, a code block in HTML.
    pub(super) fn command(&mut self, intro: &str, command: &str) {
        let _ = write!(self.text, "{intro}\n\n    {command}\n\n");
        let _ = writeln!(
            self.html,
            "<p>{}</p>\n<pre style=\"font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:14px;background:#eef;padding:8px;display:inline-block\"><code>{}</code></pre>",
            escape(intro),
            escape(command)
        );
    }

    /// A paragraph naming moves: `lead`, the moves joined by commas, `tail`. In HTML no move
    /// breaks across lines (a narrow screen would wrap `A17-A18` at its hyphen).
    pub(super) fn para_with_moves(&mut self, lead: &str, moves: &[&str], tail: &str) {
        let _ = write!(self.text, "{lead} {}{tail}\n\n", moves.join(", "));
        let shown: Vec<String> = moves
            .iter()
            .map(|mv| format!("<span style=\"white-space:nowrap\">{}</span>", escape(mv)))
            .collect();
        let _ = writeln!(
            self.html,
            "<p>{} {}{}</p>",
            escape(lead),
            shown.join(", "),
            escape(tail)
        );
    }

    /// An inline picture (HTML only; the text part has the board as text).
    pub(super) fn picture(&mut self, content_id: &str, alt: &str, width: u32, height: u32) {
        let _ = writeln!(
            self.html,
            "<p><img src=\"cid:{}\" alt=\"{}\" width=\"{width}\" height=\"{height}\" style=\"max-width:100%;height:auto\"></p>",
            escape(content_id),
            escape(alt)
        );
    }

    /// A link with its label.
    pub(super) fn link(&mut self, label: &str, url: &str) {
        self.text_link(label, url);
        let _ = writeln!(
            self.html,
            "<p><a href=\"{}\">{}</a></p>",
            escape(url),
            escape(label)
        );
    }

    /// Ends with the signature and, when given, the unsubscribe link; returns (text, HTML).
    pub(super) fn finish(
        mut self,
        title: &str,
        public_url: &str,
        unsubscribe_url: Option<&str>,
    ) -> (String, String) {
        let _ = write!(self.text, "-- \nturnpost\n{public_url}\n");
        let _ = writeln!(
            self.html,
            "<p style=\"color:#777;font-size:12px;border-top:1px solid #ddd;padding-top:6px\">turnpost &middot; <a href=\"{url}\" style=\"color:#777\">{url}</a>",
            url = escape(public_url)
        );
        if let Some(url) = unsubscribe_url {
            let _ = writeln!(self.text, "Stop these mails: {url}");
            let _ = writeln!(
                self.html,
                "<br><a href=\"{}\" style=\"color:#777\">Stop these mails</a>",
                escape(url)
            );
        }
        self.html.push_str("</p>\n");
        let html = format!(
            "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>{}</title>\n</head>\n<body style=\"font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;font-size:15px;color:#222;max-width:640px\">\n{}</body>\n</html>\n",
            escape(title),
            self.html
        );
        (self.text, html)
    }
}

/// Escapes text for HTML element content and double-quoted attributes.
#[must_use]
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A moment in `zone`: "Tue 24 Nov 2026 19:00 CET (Europe/Paris)", or "… 18:00 UTC".
#[must_use]
pub fn local_time(at: DateTime<Utc>, zone: Tz) -> String {
    let local = at.with_timezone(&zone);
    let shown = local.format("%a %-d %b %Y %H:%M %Z").to_string();
    if zone == Tz::UTC {
        shown
    } else {
        format!("{shown} ({})", zone.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_covers_markup_and_quotes() {
        assert_eq!(
            escape(r#"<b>"Tom" & 'Jerry'</b>"#),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn quoted_words_mark_every_further_line_as_theirs() {
        let mut letter = Letter::default();
        letter.quoted(
            "bob wrote, with move 7:",
            "ok\nYour play link expired. Sign in again here: https://evil.example/signin\nturnpost move 5 A2-A3",
        );
        assert_eq!(
            letter.text,
            "bob wrote, with move 7: ok\n\
             > Your play link expired. Sign in again here: https://evil.example/signin\n\
             > turnpost move 5 A2-A3\n\n"
        );
        assert!(!letter.text.lines().any(|l| l.starts_with("turnpost ")));
        assert!(
            letter.html.contains("ok<br>\nYour play link"),
            "{}",
            letter.html
        );
    }

    #[test]
    fn local_time_names_the_zone() {
        let at = DateTime::parse_from_rfc3339("2026-11-24T18:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            local_time(at, chrono_tz::Europe::Paris),
            "Tue 24 Nov 2026 19:00 CET (Europe/Paris)"
        );
        assert_eq!(local_time(at, Tz::UTC), "Tue 24 Nov 2026 18:00 UTC");
    }
}
