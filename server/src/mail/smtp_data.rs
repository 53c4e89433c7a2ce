//! A mail's content as the one write that follows `DATA`: the message with SMTP's
//! transparency (a line starting with `.` gets one more, RFC 5321 §4.5.2) and the ending
//! `<CRLF>.<CRLF>`.
//!
//! Why not lettre's `SmtpConnection::message`: it writes the content, then the five bytes of
//! the ending in a write of their own, and lettre never sets `TCP_NODELAY`. Nagle's algorithm
//! holds that small write until the relay acknowledges the content, which a relay delaying its
//! acknowledgements (Linux: 40 ms) does only after its timer: every mail waited for it, and a
//! session delivered about 25 mails a second however fast the relay and the machine. One write
//! of content and ending leaves Nagle nothing to hold back.

use std::fmt;

/// The content of one mail and its ending, ready to go after `DATA` as one command.
pub struct DataWithEnding<'a>(pub &'a str);

impl fmt::Display for DataWithEnding<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(self.0.len() + 16);
        stuff(self.0, &mut text);
        text.push_str("\r\n.\r\n");
        f.write_str(&text)
    }
}

/// Copies `content` into `out`, doubling a `.` that starts a line. A line starts at the
/// beginning and after each `<CRLF>` (a bare `\r` or `\n` does not end one), as lettre's
/// client codec has it, so the bytes on the wire are those `message` would have sent.
fn stuff(content: &str, out: &mut String) {
    for (number, line) in content.split("\r\n").enumerate() {
        if number > 0 {
            out.push_str("\r\n");
        }
        if line.starts_with('.') {
            out.push('.');
        }
        out.push_str(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dot_starting_a_line_is_doubled_and_the_ending_follows() {
        assert_eq!(
            DataWithEnding(".a\r\nb.\r\n.\r\n..c").to_string(),
            "..a\r\nb.\r\n..\r\n...c\r\n.\r\n"
        );
        assert_eq!(DataWithEnding("").to_string(), "\r\n.\r\n");
        assert_eq!(DataWithEnding("x\ry\n.z").to_string(), "x\ry\n.z\r\n.\r\n");
        assert_eq!(DataWithEnding("\r\r\n.").to_string(), "\r\r\n..\r\n.\r\n");
    }
}
