//! Reading one line of at most a given length from a buffered stream: a peer that never sends
//! a line end cannot make the server hold more than that.

use tokio::io::{AsyncBufRead, AsyncBufReadExt as _};

/// What [`read_line`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineRead {
    /// A whole line, in the buffer with its line end.
    Line,
    /// A line longer than the limit: read to its end and dropped.
    TooLong,
    /// The peer closed the connection (a partial last line is dropped).
    Eof,
}

/// Reads one line (to `\n`) into `line` (cleared first), keeping at most `max` bytes.
///
/// # Errors
/// The stream's I/O errors.
pub async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(LineRead::Eof);
        }
        let (chunk, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (available.get(..=end).unwrap_or(available), true),
            None => (available, false),
        };
        let used = chunk.len();
        if !too_long {
            if line.len() + chunk.len() > max {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(chunk);
            }
        }
        reader.consume(used);
        if ended {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::{read_line, LineRead};

    #[tokio::test]
    async fn lines_are_read_whole_and_long_ones_dropped_to_their_end() {
        let input: &[u8] = b"NOOP\r\nAAAAAAAAAAAAAAAAAAAA\r\nQUIT\r\npartial";
        let mut reader = tokio::io::BufReader::with_capacity(4, input);
        let mut line = Vec::new();
        let expected: [(LineRead, &[u8]); 4] = [
            (LineRead::Line, b"NOOP\r\n"),
            (LineRead::TooLong, b""),
            (LineRead::Line, b"QUIT\r\n"),
            (LineRead::Eof, b""),
        ];
        for (read, text) in expected {
            assert_eq!(read_line(&mut reader, &mut line, 10).await.unwrap(), read);
            if read == LineRead::Line {
                assert_eq!(line, text);
            }
        }
    }
}
