//! One mail in fewer round trips: what the relay offers beyond what lettre keeps from its EHLO
//! answer — PIPELINING (RFC 2920) and CHUNKING (RFC 3030) — and the commands of a mail written
//! as one group.
//!
//! Why: on loopback or a LAN each SMTP round trip costs both sides a send and a wake-up, and
//! the four of a plain transaction (MAIL, RCPT, DATA, the content) cost the mail side about as
//! much CPU as drawing the card's picture. Pipelined, MAIL, RCPT and DATA go in one write and
//! the content in a second; with CHUNKING the content follows `BDAT <size> LAST` in the same
//! write, and the whole mail takes one round trip.

use std::fmt;

use lettre::transport::smtp::commands::{Mail, Rcpt};

/// The extensions of a relay's EHLO answer that shape how a mail is sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RelayOffers {
    /// PIPELINING: commands may be sent without waiting for each answer.
    pub pipelining: bool,
    /// CHUNKING: `BDAT`, the content counted instead of ended with a dot.
    pub chunking: bool,
}

impl RelayOffers {
    /// The offers of an EHLO answer's lines (the first names the relay, each other starts with
    /// an extension's keyword, in any case).
    pub fn of_ehlo<'a>(lines: impl IntoIterator<Item = &'a str>) -> Self {
        let mut offers = Self::default();
        for line in lines.into_iter().skip(1) {
            let keyword = line.split_whitespace().next().unwrap_or_default();
            if keyword.eq_ignore_ascii_case("PIPELINING") {
                offers.pipelining = true;
            } else if keyword.eq_ignore_ascii_case("CHUNKING") {
                offers.chunking = true;
            }
        }
        offers
    }

    /// What the offers say, for `turnpost-server check`.
    #[must_use]
    pub fn describe(self) -> &'static str {
        match (self.pipelining, self.chunking) {
            (true, true) => "PIPELINING and CHUNKING (one round trip a mail)",
            (true, false) => "PIPELINING (two round trips a mail)",
            (false, true) => "CHUNKING without PIPELINING (four round trips a mail)",
            (false, false) => "no PIPELINING (four round trips a mail)",
        }
    }
}

/// The commands of one mail as one write: MAIL FROM, RCPT TO for each recipient, then `DATA`
/// or, with `chunk`, `BDAT <size> LAST` and the content itself.
pub struct PipelinedGroup<'a> {
    /// MAIL FROM with its parameters.
    pub mail: Mail,
    /// RCPT TO, one per recipient.
    pub recipients: Vec<Rcpt>,
    /// The content, sent as one last chunk; `None` ends the group with `DATA`.
    pub chunk: Option<&'a str>,
}

impl fmt::Display for PipelinedGroup<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mail)?;
        for recipient in &self.recipients {
            write!(f, "{recipient}")?;
        }
        match self.chunk {
            None => f.write_str("DATA\r\n"),
            Some(content) => {
                // A message ends with a line break: DATA's ending supplies one, a chunk does
                // not, so the relay receives the same bytes either way.
                let ending = if content.ends_with("\r\n") {
                    ""
                } else {
                    "\r\n"
                };
                write!(f, "BDAT {} LAST\r\n", content.len() + ending.len())?;
                f.write_str(content)?;
                f.write_str(ending)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_are_read_from_the_keywords_of_the_answer() {
        let offers = RelayOffers::of_ehlo([
            "relay.example.org greets you",
            "8BITMIME",
            "pipelining",
            "SIZE 10240000",
            "CHUNKING",
        ]);
        assert_eq!(
            offers,
            RelayOffers {
                pipelining: true,
                chunking: true
            }
        );
        // The relay's own name is not a keyword, nor is a word after the keyword.
        assert_eq!(
            RelayOffers::of_ehlo(["PIPELINING", "AUTH CHUNKING", ""]),
            RelayOffers::default()
        );
        assert_eq!(RelayOffers::of_ehlo([]), RelayOffers::default());
    }

    #[test]
    fn a_group_is_the_commands_then_data_or_the_counted_chunk() {
        let mail = || Mail::new(Some("a@example.org".parse().unwrap()), Vec::new());
        let recipients = || vec![Rcpt::new("b@example.org".parse().unwrap(), Vec::new())];
        let data = PipelinedGroup {
            mail: mail(),
            recipients: recipients(),
            chunk: None,
        };
        assert_eq!(
            data.to_string(),
            "MAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.org>\r\nDATA\r\n"
        );
        let chunk = PipelinedGroup {
            mail: mail(),
            recipients: recipients(),
            chunk: Some("Subject: x\r\n\r\n.é\r\n"),
        };
        // Counted in bytes, not stuffed: a line starting with a dot stays as it is.
        assert_eq!(
            chunk.to_string(),
            "MAIL FROM:<a@example.org>\r\nRCPT TO:<b@example.org>\r\nBDAT 19 LAST\r\nSubject: x\r\n\r\n.é\r\n"
        );
        let unended = PipelinedGroup {
            mail: mail(),
            recipients: Vec::new(),
            chunk: Some("x"),
        };
        assert_eq!(
            unended.to_string(),
            "MAIL FROM:<a@example.org>\r\nBDAT 3 LAST\r\nx\r\n"
        );
    }
}
