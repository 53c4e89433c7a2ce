//! One LMTP session as a state machine, without I/O (RFC 2033 over RFC 5321): each command line
//! in, what to do out. The recipients' checks and the deliveries need the database; the session
//! asks for them ([`Action::CheckRecipient`], [`Received::Deliver`]) and is told the verdict, so
//! every answer is decided here and tested without a socket.

use super::data::Body;
use super::reply::Reply;

/// The longest address taken in MAIL or RCPT (RFC 5321 allows 256 with the brackets).
const MAX_ADDRESS: usize = 320;

/// Bad commands after which the session is closed: a peer that speaks something else.
const MAX_ERRORS: u32 = 10;

/// What the session takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The largest message, in bytes (announced as SIZE).
    pub max_message_bytes: usize,
    /// Recipients of one message.
    pub max_recipients: usize,
}

/// What the I/O side does next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Send this reply and read the next command.
    Reply(Reply),
    /// Send this reply and close the connection.
    Close(Reply),
    /// Check whether this address is ours, then pass the verdict to [`Session::recipient`].
    CheckRecipient(String),
    /// Send this (354) reply, read the message, and pass it to [`Session::message`].
    ReadData(Reply),
}

/// Whether a recipient is one of our reply addresses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// A genuine reply key.
    Ours,
    /// Not one of ours, or a key that names nobody.
    NotOurs,
    /// We could not tell (the database is away): the MTA should ask again later.
    Trouble,
}

/// What became of the message after DATA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// Deliver `raw` to each recipient, in order, answering each with [`delivered`] or
    /// [`trouble`].
    Deliver {
        /// The message.
        raw: Vec<u8>,
        /// The recipients accepted at RCPT.
        recipients: Vec<String>,
    },
    /// Refused: send one reply per recipient (the same for each).
    Refused(Vec<Reply>),
}

/// One LMTP session.
#[derive(Debug)]
pub struct Session {
    hostname: String,
    limits: Limits,
    greeted: bool,
    sender: Option<String>,
    recipients: Vec<String>,
    errors: u32,
}

/// A recipient's answer after DATA: handled (or deliberately ignored, as `mail-in` exits 0).
#[must_use]
pub fn delivered() -> Reply {
    Reply::new(250, "2.0.0 delivered")
}

/// A recipient's answer when our own side failed: try again later.
#[must_use]
pub fn trouble() -> Reply {
    Reply::new(451, "4.3.0 not handled, try again later")
}

impl Session {
    /// A session of the server named `hostname`.
    #[must_use]
    pub fn new(hostname: &str, limits: Limits) -> Self {
        Self {
            hostname: hostname.to_owned(),
            limits,
            greeted: false,
            sender: None,
            recipients: Vec::new(),
            errors: 0,
        }
    }

    /// The greeting sent when a connection opens.
    #[must_use]
    pub fn greeting(&self) -> Reply {
        Reply::new(220, format!("{} LMTP turnpost ready", self.hostname))
    }

    /// The reply to a command line longer than the reader takes.
    pub fn line_too_long(&mut self) -> Action {
        self.error(Reply::new(500, "5.5.2 line too long"))
    }

    /// What to do with one command line (its line end included or not).
    pub fn command(&mut self, line: &[u8]) -> Action {
        let Ok(line) = std::str::from_utf8(line) else {
            return self.error(Reply::new(500, "5.5.2 a command is ASCII text"));
        };
        let line = line.trim_end_matches(['\r', '\n']);
        let (verb, argument) = line.split_once(' ').unwrap_or((line, ""));
        match verb.to_ascii_uppercase().as_str() {
            "LHLO" => self.lhlo(argument.trim()),
            "MAIL" => self.mail(argument),
            "RCPT" => self.rcpt(argument),
            "DATA" => self.data(argument),
            "RSET" => {
                self.reset();
                Action::Reply(Reply::new(250, "2.0.0 reset"))
            }
            "NOOP" => Action::Reply(Reply::new(250, "2.0.0 ok")),
            "QUIT" => Action::Close(Reply::new(221, "2.0.0 bye")),
            "HELO" | "EHLO" => self.error(Reply::new(
                500,
                "5.5.1 this is LMTP: greet with LHLO, not HELO or EHLO",
            )),
            _ => self.error(Reply::new(500, "5.5.1 unknown command")),
        }
    }

    /// The reply to RCPT for `address`, now that its check says `verdict`.
    pub fn recipient(&mut self, address: String, verdict: Verdict) -> Reply {
        match verdict {
            Verdict::Ours => {
                self.recipients.push(address);
                Reply::new(250, "2.1.5 ok")
            }
            Verdict::NotOurs => Reply::new(550, "5.1.1 no such reply address"),
            Verdict::Trouble => {
                Reply::new(451, "4.3.0 cannot check the address now, try again later")
            }
        }
    }

    /// What to do with the message read after DATA; the transaction ends either way.
    pub fn message(&mut self, body: Body) -> Received {
        let recipients = std::mem::take(&mut self.recipients);
        self.sender = None;
        let refused = |reply: Reply| Received::Refused(vec![reply; recipients.len()]);
        match body {
            Body::Whole(raw) => Received::Deliver { raw, recipients },
            Body::TooLarge => refused(Reply::new(
                552,
                format!(
                    "5.3.4 message larger than {} bytes",
                    self.limits.max_message_bytes
                ),
            )),
            Body::LineTooLong => {
                refused(Reply::new(554, "5.6.0 a line of the message is too long"))
            }
        }
    }

    fn error(&mut self, reply: Reply) -> Action {
        self.errors += 1;
        if self.errors >= MAX_ERRORS {
            return Action::Close(Reply::new(421, "4.7.0 too many errors, closing"));
        }
        Action::Reply(reply)
    }

    fn reset(&mut self) {
        self.sender = None;
        self.recipients.clear();
    }

    fn lhlo(&mut self, domain: &str) -> Action {
        if domain.is_empty() {
            return self.error(Reply::new(501, "5.5.4 LHLO needs the client's name"));
        }
        self.reset();
        self.greeted = true;
        Action::Reply(Reply {
            code: 250,
            lines: vec![
                self.hostname.clone(),
                "PIPELINING".to_owned(),
                "ENHANCEDSTATUSCODES".to_owned(),
                "8BITMIME".to_owned(),
                format!("SIZE {}", self.limits.max_message_bytes),
            ],
        })
    }

    fn mail(&mut self, argument: &str) -> Action {
        if !self.greeted {
            return self.error(Reply::new(503, "5.5.1 LHLO first"));
        }
        if self.sender.is_some() {
            return self.error(Reply::new(503, "5.5.1 MAIL already given"));
        }
        let Some((address, parameters)) = path(argument, "FROM:") else {
            return self.error(Reply::new(501, "5.5.4 expected MAIL FROM:<address>"));
        };
        for parameter in parameters.split_whitespace() {
            let (key, value) = parameter.split_once('=').unwrap_or((parameter, ""));
            match key.to_ascii_uppercase().as_str() {
                "SIZE" => match value.parse::<u64>() {
                    Ok(size)
                        if size
                            > u64::try_from(self.limits.max_message_bytes).unwrap_or(u64::MAX) =>
                    {
                        return Action::Reply(Reply::new(
                            552,
                            format!(
                                "5.3.4 message larger than {} bytes",
                                self.limits.max_message_bytes
                            ),
                        ));
                    }
                    Ok(_) => {}
                    Err(_) => {
                        return self.error(Reply::new(501, "5.5.4 SIZE takes a number of bytes"))
                    }
                },
                "BODY" if ["7BIT", "8BITMIME"].contains(&value.to_ascii_uppercase().as_str()) => {}
                _ => return self.error(Reply::new(555, "5.5.4 unknown MAIL parameter")),
            }
        }
        self.sender = Some(address);
        Action::Reply(Reply::new(250, "2.1.0 ok"))
    }

    fn rcpt(&mut self, argument: &str) -> Action {
        if self.sender.is_none() {
            return self.error(Reply::new(503, "5.5.1 MAIL first"));
        }
        let Some((address, parameters)) = path(argument, "TO:") else {
            return self.error(Reply::new(501, "5.5.4 expected RCPT TO:<address>"));
        };
        if !parameters.trim().is_empty() {
            return self.error(Reply::new(555, "5.5.4 unknown RCPT parameter"));
        }
        if address.is_empty() {
            return self.error(Reply::new(501, "5.1.3 a recipient address is needed"));
        }
        if self.recipients.len() >= self.limits.max_recipients {
            return Action::Reply(Reply::new(452, "4.5.3 too many recipients"));
        }
        Action::CheckRecipient(address)
    }

    fn data(&mut self, argument: &str) -> Action {
        if !argument.trim().is_empty() {
            return self.error(Reply::new(501, "5.5.4 DATA takes no argument"));
        }
        if self.sender.is_none() {
            return self.error(Reply::new(503, "5.5.1 MAIL first"));
        }
        if self.recipients.is_empty() {
            return self.error(Reply::new(503, "5.5.1 no valid recipients"));
        }
        Action::ReadData(Reply::new(
            354,
            "end the message with a line holding one dot",
        ))
    }
}

/// The address of `FROM:<address> PARAMS` (`prefix` matched case-insensitively, spaces allowed
/// after the colon, a source route dropped) and the parameters after it.
fn path<'a>(argument: &'a str, prefix: &str) -> Option<(String, &'a str)> {
    let head = argument.get(..prefix.len())?;
    if !head.eq_ignore_ascii_case(prefix) {
        return None;
    }
    let rest = argument.get(prefix.len()..)?.trim_start();
    let rest = rest.strip_prefix('<')?;
    let end = rest.find('>')?;
    let inside = rest.get(..end)?;
    let parameters = rest.get(end + 1..)?;
    if inside.len() > MAX_ADDRESS || inside.contains(char::is_whitespace) {
        return None;
    }
    // `<@relay,@relay:user@host>`: the route is obsolete and ignored.
    let address = match inside.split_once(':') {
        Some((route, address)) if route.starts_with('@') => address,
        _ => inside,
    };
    if !parameters.is_empty() && !parameters.starts_with(' ') {
        return None;
    }
    Some((address.to_owned(), parameters))
}

#[cfg(test)]
mod tests {
    use super::super::data::Body;
    use super::{Action, Limits, Received, Reply, Session, Verdict};

    fn session() -> Session {
        Session::new(
            "mx.test",
            Limits {
                max_message_bytes: 1000,
                max_recipients: 2,
            },
        )
    }

    fn code(action: &Action) -> u16 {
        match action {
            Action::Reply(reply) | Action::Close(reply) | Action::ReadData(reply) => reply.code,
            Action::CheckRecipient(_) => 0,
        }
    }

    #[test]
    fn a_whole_transaction_with_two_recipients_answers_each() {
        let mut s = session();
        assert_eq!(s.greeting().code, 220);
        let Action::Reply(lhlo) = s.command(b"LHLO postfix.test\r\n") else {
            panic!("LHLO")
        };
        assert_eq!(
            lhlo.to_wire(),
            "250-mx.test\r\n250-PIPELINING\r\n250-ENHANCEDSTATUSCODES\r\n250-8BITMIME\r\n250 SIZE 1000\r\n"
        );
        assert_eq!(
            code(&s.command(b"MAIL FROM:<anna@example.org> SIZE=300 BODY=8BITMIME")),
            250
        );
        assert_eq!(
            s.command(b"RCPT TO:<games+k1@example.org>"),
            Action::CheckRecipient("games+k1@example.org".into())
        );
        assert_eq!(
            s.recipient("games+k1@example.org".into(), Verdict::Ours)
                .code,
            250
        );
        let Action::CheckRecipient(other) = s.command(b"rcpt to: <games+nope@example.org>") else {
            panic!("RCPT")
        };
        assert_eq!(
            s.recipient(other, Verdict::NotOurs),
            Reply::new(550, "5.1.1 no such reply address")
        );
        let Action::CheckRecipient(third) =
            s.command(b"RCPT TO:<@relay.test:games+k2@example.org>")
        else {
            panic!("RCPT")
        };
        assert_eq!(third, "games+k2@example.org");
        assert_eq!(s.recipient(third, Verdict::Ours).code, 250);
        // Two accepted: a third is refused for now.
        assert_eq!(code(&s.command(b"RCPT TO:<games+k3@example.org>")), 452);
        assert_eq!(code(&s.command(b"DATA")), 354);
        let received = s.message(Body::Whole(b"Subject: x\r\n\r\nhi\r\n".to_vec()));
        assert_eq!(
            received,
            Received::Deliver {
                raw: b"Subject: x\r\n\r\nhi\r\n".to_vec(),
                recipients: vec!["games+k1@example.org".into(), "games+k2@example.org".into()],
            }
        );
        // The transaction is over: DATA again needs MAIL.
        assert_eq!(code(&s.command(b"DATA")), 503);
        assert_eq!(code(&s.command(b"QUIT")), 221);
        assert!(matches!(s.command(b"QUIT"), Action::Close(_)));
    }

    #[test]
    fn our_trouble_is_temporary_and_an_oversized_message_refused_per_recipient() {
        let mut s = session();
        s.command(b"LHLO x");
        assert_eq!(code(&s.command(b"MAIL FROM:<> SIZE=5000")), 552);
        assert_eq!(code(&s.command(b"MAIL FROM:<>")), 250);
        assert_eq!(s.recipient("a".into(), Verdict::Trouble).code, 451);
        s.recipient("b".into(), Verdict::Ours);
        s.recipient("c".into(), Verdict::Ours);
        let Received::Refused(replies) = s.message(Body::TooLarge) else {
            panic!("refused")
        };
        assert_eq!(replies.len(), 2);
        assert!(replies.iter().all(|r| r.code == 552));
        assert_eq!(super::trouble().code, 451);
        assert_eq!(super::delivered().code, 250);
    }

    #[test]
    fn commands_out_of_order_or_malformed_are_refused_never_a_panic() {
        let mut s = session();
        assert_eq!(code(&s.command(b"MAIL FROM:<a@b>")), 503);
        assert_eq!(code(&s.command(b"EHLO x")), 500);
        assert_eq!(code(&s.command(b"LHLO")), 501);
        s.command(b"LHLO x");
        assert_eq!(code(&s.command(b"RCPT TO:<a@b>")), 503);
        assert_eq!(code(&s.command(b"MAIL FROM:a@b")), 501);
        assert_eq!(code(&s.command(b"MAIL FROM:<a@b> SIZE=many")), 501);
        assert_eq!(code(&s.command(b"MAIL FROM:<a@b> NOTIFY=NEVER")), 555);
        assert_eq!(code(&s.command(b"MAIL FROM:<a@b>")), 250);
        assert_eq!(code(&s.command(b"MAIL FROM:<a@b>")), 503);
        assert_eq!(code(&s.command(b"DATA")), 503);
        // Nine errors so far: a fresh session for the rest.
        let mut s = session();
        s.command(b"LHLO x");
        s.command(b"MAIL FROM:<a@b>");
        assert_eq!(code(&s.command(b"RCPT TO:<>")), 501);
        assert_eq!(code(&s.command(b"\xff\xfe")), 500);
        assert_eq!(code(&s.command(b"RSET")), 250);
        assert_eq!(code(&s.command(b"NOOP")), 250);
        // Ten errors and the session is closed.
        let mut last = Action::Reply(Reply::new(0, ""));
        for _ in 0..10 {
            last = s.command(b"BOGUS");
        }
        assert_eq!(
            last,
            Action::Close(Reply::new(421, "4.7.0 too many errors, closing"))
        );
        for bad in [
            &b""[..],
            b" ",
            b"MAIL",
            b"MAIL FROM:<",
            b"RCPT TO:<x",
            b"MAIL FROM:<a b>",
        ] {
            let _ = session().command(bad);
        }
    }
}
