//! The message after DATA, line by line: dot-unstuffed (RFC 5321, 4.5.2), ended by a line
//! holding one dot, kept up to the size limit (the rest is read and dropped, so the peer can
//! still be answered).

/// The message as read so far.
#[derive(Debug)]
pub struct MessageBuffer {
    raw: Vec<u8>,
    limit: usize,
    too_large: bool,
    line_too_long: bool,
}

/// What was read after DATA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// The whole message.
    Whole(Vec<u8>),
    /// Larger than the limit.
    TooLarge,
    /// A line longer than the reader takes.
    LineTooLong,
}

impl MessageBuffer {
    /// An empty message of at most `limit` bytes.
    #[must_use]
    pub fn new(limit: usize) -> Self {
        Self {
            raw: Vec::new(),
            limit,
            too_large: false,
            line_too_long: false,
        }
    }

    /// Takes one line (with its line end); answers whether it ended the message.
    pub fn push(&mut self, line: &[u8]) -> bool {
        if line == b".\r\n" || line == b".\n" {
            return true;
        }
        let line = line.strip_prefix(b".").unwrap_or(line);
        if self.too_large || self.raw.len() + line.len() > self.limit {
            self.too_large = true;
            self.raw = Vec::new();
        } else {
            self.raw.extend_from_slice(line);
        }
        false
    }

    /// Notes a line too long to read (dropped by the reader).
    pub fn line_too_long(&mut self) {
        self.line_too_long = true;
    }

    /// The message read.
    #[must_use]
    pub fn finish(self) -> Body {
        if self.too_large {
            Body::TooLarge
        } else if self.line_too_long {
            Body::LineTooLong
        } else {
            Body::Whole(self.raw)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Body, MessageBuffer};

    /// Pushes `lines` in turn; answers after which of them the buffer said the message ended.
    fn ends(buffer: &mut MessageBuffer, lines: &[&[u8]]) -> Vec<bool> {
        lines.iter().map(|line| buffer.push(line)).collect()
    }

    #[test]
    fn dots_are_unstuffed_and_the_lone_dot_ends() {
        let mut buffer = MessageBuffer::new(100);
        let lines: [&[u8]; 4] = [b"Subject: x\r\n", b"\r\n", b"..leading dot\r\n", b".\r\n"];
        assert_eq!(ends(&mut buffer, &lines), [false, false, false, true]);
        assert_eq!(
            buffer.finish(),
            Body::Whole(b"Subject: x\r\n\r\n.leading dot\r\n".to_vec())
        );
    }

    #[test]
    fn past_the_limit_nothing_is_kept() {
        let mut buffer = MessageBuffer::new(8);
        let lines: [&[u8]; 4] = [b"12345\r\n", b"12345\r\n", b"1\r\n", b".\n"];
        assert_eq!(ends(&mut buffer, &lines), [false, false, false, true]);
        assert_eq!(buffer.finish(), Body::TooLarge);
        let mut buffer = MessageBuffer::new(80);
        buffer.line_too_long();
        assert_eq!(buffer.finish(), Body::LineTooLong);
    }
}
