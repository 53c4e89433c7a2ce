//! One LMTP reply: a code and its lines, the enhanced status code (RFC 3463) leading each.

/// A reply to a command, or to one recipient after DATA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The three-digit code.
    pub code: u16,
    /// Its lines (at least one), without the code.
    pub lines: Vec<String>,
}

impl Reply {
    /// A one-line reply.
    #[must_use]
    pub fn new(code: u16, text: impl Into<String>) -> Self {
        Self {
            code,
            lines: vec![text.into()],
        }
    }

    /// Whether it is a positive completion (2xx).
    #[must_use]
    pub fn is_positive(&self) -> bool {
        (200..300).contains(&self.code)
    }

    /// As sent: `250-first` … `250 last`, each line ended by CRLF.
    #[must_use]
    pub fn to_wire(&self) -> String {
        let mut out = String::new();
        let last = self.lines.len().saturating_sub(1);
        for (n, line) in self.lines.iter().enumerate() {
            let separator = if n == last { ' ' } else { '-' };
            // Our own words, but a line break inside one would end the reply early.
            let line: String = line.chars().filter(|c| !c.is_control()).collect();
            out.push_str(&format!("{}{separator}{line}\r\n", self.code));
        }
        if self.lines.is_empty() {
            out.push_str(&format!("{}\r\n", self.code));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Reply;

    #[test]
    fn multi_line_replies_mark_every_line_but_the_last() {
        let reply = Reply {
            code: 250,
            lines: vec!["a".into(), "b\r\n".into(), "c".into()],
        };
        assert_eq!(reply.to_wire(), "250-a\r\n250-b\r\n250 c\r\n");
        assert_eq!(Reply::new(221, "2.0.0 bye").to_wire(), "221 2.0.0 bye\r\n");
    }
}
