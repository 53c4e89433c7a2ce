//! The SMTP relay: its settings from `SMTP_URL`, and [`RelaySession`], one connection a worker
//! session keeps open and reuses from mail to mail.
//!
//! Built on lettre's SMTP client (`SmtpConnection`) rather than its pooled `SmtpTransport`:
//! the transport reports a refusal without saying which command was refused, and only a 5xx
//! answer to `RCPT TO` says something about one mail (this address does not exist). A 554
//! greeting, a 5xx to EHLO, AUTH or MAIL, a 535 or a relay refusal say the relay or our
//! account is wrong, and every mail queued meanwhile must wait and be retried, not be
//! dead-lettered. Each worker session owns one connection, so N sessions are N connections
//! reused as a pool would. A relay offering PIPELINING gets each mail's commands as one group
//! (and with CHUNKING its content too, [`super::smtp_pipelining`]).

use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Ehlo, Mail, Rcpt};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};

use super::send_error::SendError;
use super::smtp_data::DataWithEnding;
use super::smtp_pipelining::{PipelinedGroup, RelayOffers};
use crate::config::{redact_url, ConfigError};

/// How the connection is protected.
#[derive(Clone)]
enum RelayTls {
    /// Plain text (loopback or explicitly allowed).
    None,
    /// TLS from the first byte (`smtps://`).
    Wrapper(TlsParameters),
    /// STARTTLS, refused if the relay does not offer it (`?tls=required`).
    Required(TlsParameters),
    /// STARTTLS when offered (`?tls=opportunistic`).
    Opportunistic(TlsParameters),
}

/// Where and how to reach the relay.
#[derive(Clone)]
pub struct SmtpRelay {
    host: String,
    port: u16,
    tls: RelayTls,
    credentials: Option<Credentials>,
    hello: ClientId,
    timeout: Duration,
}

/// Messages sent over one connection before it is replaced (relays limit it, often to 100).
const MESSAGES_PER_CONNECTION: u32 = 100;
/// A connection idle longer than this is checked with NOOP before it is reused.
const CHECK_AFTER_IDLE: Duration = Duration::from_secs(5);

/// The SMTP step a failure happened at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// Connection, greeting, EHLO, STARTTLS.
    Connect,
    /// AUTH.
    Auth,
    /// MAIL FROM.
    Mail,
    /// RCPT TO.
    Rcpt,
    /// DATA and the message.
    Data,
}

impl Step {
    fn name(self) -> &'static str {
        match self {
            Self::Connect => "connecting (greeting, EHLO, STARTTLS)",
            Self::Auth => "AUTH",
            Self::Mail => "MAIL FROM",
            Self::Rcpt => "RCPT TO",
            Self::Data => "DATA",
        }
    }
}

impl SmtpRelay {
    /// The relay of an `SMTP_URL` (already checked by `validate_smtp_url`): `smtps://` (TLS,
    /// port 465), `smtp://…?tls=required` or `?tls=opportunistic` (STARTTLS, port 587), plain
    /// `smtp://` (port 25); user and password percent-decoded; a path names the EHLO host.
    ///
    /// # Errors
    /// [`ConfigError::Smtp`] if the URL cannot be used.
    pub fn from_url(raw: &str, timeout: Duration) -> Result<Self, ConfigError> {
        let refuse = |what: String| ConfigError::Smtp(format!("{what} ({})", redact_url(raw)));
        let url = url::Url::parse(raw).map_err(|e| refuse(e.to_string()))?;
        let host = url
            .host_str()
            .ok_or_else(|| refuse("no host".into()))?
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_owned();
        let tls_mode = url
            .query_pairs()
            .find(|(key, _)| key == "tls")
            .map(|(_, value)| value.into_owned());
        let tls_parameters =
            || TlsParameters::new(host.clone()).map_err(|e| refuse(format!("TLS set-up: {e}")));
        let (tls, default_port) = match (url.scheme(), tls_mode.as_deref()) {
            ("smtps", _) => (RelayTls::Wrapper(tls_parameters()?), 465),
            ("smtp", None) => (RelayTls::None, 25),
            ("smtp", Some("required")) => (RelayTls::Required(tls_parameters()?), 587),
            ("smtp", Some("opportunistic")) => (RelayTls::Opportunistic(tls_parameters()?), 587),
            (scheme, tls) => {
                return Err(refuse(format!(
                    "unknown scheme {scheme}:// or tls={} (use smtps://, or smtp:// with tls=required or tls=opportunistic)",
                    tls.unwrap_or("")
                )))
            }
        };
        let decode = |text: &str| {
            percent_encoding::percent_decode_str(text)
                .decode_utf8()
                .map(std::borrow::Cow::into_owned)
                .map_err(|_| refuse("the user or password is not UTF-8 once decoded".into()))
        };
        let credentials = match url.password() {
            Some(password) => Some(Credentials::new(decode(url.username())?, decode(password)?)),
            None => None,
        };
        let path = url.path().trim_matches('/');
        let hello = if path.is_empty() {
            ClientId::default()
        } else {
            ClientId::Domain(path.to_owned())
        };
        Ok(Self {
            port: url.port().unwrap_or(default_port),
            host,
            tls,
            credentials,
            hello,
            timeout,
        })
    }

    /// Connects as for sending — greeting, EHLO, TLS or STARTTLS, AUTH when the URL has a
    /// password — and quits without sending anything (`turnpost-server check`). Answers what
    /// was done.
    ///
    /// # Errors
    /// [`SendError`] naming the step that failed.
    pub fn check(&self) -> Result<String, SendError> {
        let (mut conn, offers) = self.connect()?;
        let greeted = conn.server_info().name().to_owned();
        let tls = if conn.is_encrypted() {
            match self.tls {
                RelayTls::Wrapper(_) => "TLS",
                _ => "STARTTLS",
            }
        } else {
            "no TLS"
        };
        let auth = if self.credentials.is_some() {
            "AUTH accepted"
        } else {
            "no AUTH"
        };
        let _ = conn.quit();
        Ok(format!(
            "{}:{} answered EHLO as {greeted}, {tls}, {auth}, {}; no mail sent",
            self.host,
            self.port,
            offers.describe()
        ))
    }

    /// Opens a connection ready for mail, and what the relay offers.
    fn connect(&self) -> Result<(SmtpConnection, RelayOffers), SendError> {
        let wrapper = match &self.tls {
            RelayTls::Wrapper(parameters) => Some(parameters),
            _ => None,
        };
        let mut conn = SmtpConnection::connect(
            (self.host.as_str(), self.port),
            Some(self.timeout),
            &self.hello,
            wrapper,
            None,
        )
        .map_err(|e| refusal(Step::Connect, &e))?;
        let starttls = match &self.tls {
            RelayTls::Required(parameters) => Some(parameters),
            RelayTls::Opportunistic(parameters) if conn.can_starttls() => Some(parameters),
            _ => None,
        };
        if let Some(parameters) = starttls {
            conn.starttls(parameters, &self.hello)
                .map_err(|e| refusal(Step::Connect, &e))?;
        }
        // lettre keeps only the extensions it uses from the EHLO answer (its `ServerInfo` has
        // no PIPELINING or CHUNKING, and the answer itself is not kept): asked again (before
        // AUTH, after STARTTLS, whose answer is the one that counts) for PIPELINING and
        // CHUNKING. RFC 5321 allows the second EHLO, but some relays (Python's `smtpd`) answer
        // it `503 Duplicate HELO/EHLO`; their session is still greeted, so the mail goes
        // without pipelining rather than never.
        let offers = match conn.command(Ehlo::new(self.hello.clone())) {
            Ok(answer) => RelayOffers::of_ehlo(answer.message()),
            Err(e) if e.is_permanent() => {
                tracing::debug!(error = %e, "the SMTP relay refused a second EHLO: sending without pipelining");
                RelayOffers::default()
            }
            Err(e) => {
                conn.abort();
                return Err(refusal(Step::Connect, &e));
            }
        };
        if let Some(credentials) = &self.credentials {
            if let Err(e) = conn.auth(&[Mechanism::Plain, Mechanism::Login], credentials) {
                conn.abort();
                return Err(refusal(Step::Auth, &e));
            }
        }
        Ok((conn, offers))
    }
}

/// The connection of one worker session, opened on first use and kept for the next mails.
#[derive(Default)]
pub struct RelaySession {
    open: Option<OpenConnection>,
    /// The relay sent a group's answers apart ([`ANSWERS_APART`]): this session no longer
    /// pipelines.
    answers_apart: bool,
}

struct OpenConnection {
    conn: SmtpConnection,
    offers: RelayOffers,
    last_used: Instant,
    sent: u32,
}

/// The answers to one pipelined group further apart than this: the relay writes each answer
/// on its own (RFC 2920 asks it to send grouped answers together), and Nagle's algorithm on
/// its side holds the second until our delayed acknowledgement, 40 ms on Linux, for every
/// mail. One command at a time is faster with such a relay.
const ANSWERS_APART: Duration = Duration::from_millis(25);

impl RelaySession {
    /// Sends `message` (already formatted) to the envelope's recipients over this session's
    /// connection, opening one if needed. After any failure the connection is closed and the
    /// next mail opens a fresh one.
    ///
    /// # Errors
    /// [`SendError`], `permanent` only for a 5xx answer to `RCPT TO` that is about the address
    /// (not a relay or authentication refusal), or a non-ASCII address the relay cannot take
    /// (no SMTPUTF8).
    pub fn send(
        &mut self,
        relay: &SmtpRelay,
        envelope: &Envelope,
        message: &[u8],
    ) -> Result<(), SendError> {
        let reusable = self.open.take().and_then(|mut open| {
            let usable = open.sent < MESSAGES_PER_CONNECTION
                && (open.last_used.elapsed() < CHECK_AFTER_IDLE || open.conn.test_connected());
            if usable {
                Some(open)
            } else {
                let _ = open.conn.quit();
                None
            }
        });
        let mut open = match reusable {
            Some(open) => open,
            None => {
                let (conn, offers) = relay.connect()?;
                OpenConnection {
                    conn,
                    offers,
                    last_used: Instant::now(),
                    sent: 0,
                }
            }
        };
        let pipelined = open.offers.pipelining && !self.answers_apart;
        // lettre formats every message we build as UTF-8; other content goes its own way.
        let text = std::str::from_utf8(message).ok();
        let sent = match (pipelined, text) {
            (true, Some(text)) => {
                transfer_pipelined(&mut open.conn, envelope, text, open.offers.chunking).map(
                    |apart| {
                        if apart {
                            tracing::info!(
                                "the SMTP relay sends pipelined answers apart: this session sends one command at a time"
                            );
                            self.answers_apart = true;
                        }
                    },
                )
            }
            _ => transfer(&mut open.conn, envelope, message, text),
        };
        match sent {
            Ok(()) => {
                open.sent += 1;
                open.last_used = Instant::now();
                self.open = Some(open);
                Ok(())
            }
            Err(error) => {
                open.conn.abort();
                Err(error)
            }
        }
    }

    /// Closes the connection if it has been unused for `idle` or longer: a session with
    /// nothing to send does not hold a connection the relay may need for others (relays limit
    /// connections per client, and a busy relay may not even greet a new one meanwhile).
    pub fn close_if_idle(&mut self, idle: Duration) {
        if self
            .open
            .as_ref()
            .is_some_and(|open| open.last_used.elapsed() >= idle)
        {
            self.close();
        }
    }

    /// Closes the connection politely (QUIT), if one is open.
    pub fn close(&mut self) {
        if let Some(mut open) = self.open.take() {
            let _ = open.conn.quit();
        }
    }
}

impl Drop for RelaySession {
    fn drop(&mut self) {
        self.close();
    }
}

/// One mail transaction: MAIL FROM, RCPT TO for each recipient, DATA, the message (`text`
/// when it is UTF-8).
fn transfer(
    conn: &mut SmtpConnection,
    envelope: &Envelope,
    message: &[u8],
    text: Option<&str>,
) -> Result<(), SendError> {
    let parameters = mail_parameters(conn, envelope, message)?;
    conn.command(Mail::new(envelope.from().cloned(), parameters))
        .map_err(|e| refusal(Step::Mail, &e))?;
    for to in envelope.to() {
        conn.command(Rcpt::new(to.clone(), Vec::new()))
            .map_err(|e| refusal(Step::Rcpt, &e))?;
    }
    conn.command(Data).map_err(|e| refusal(Step::Data, &e))?;
    // The content and its ending in one write (`smtp_data`); lettre's own two writes for
    // content that is not UTF-8.
    match text {
        Some(text) => conn.command(DataWithEnding(text)),
        None => conn.message(message),
    }
    .map_err(|e| refusal(Step::Data, &e))?;
    Ok(())
}

/// One mail transaction pipelined: MAIL FROM, RCPT TO for each recipient and DATA in one
/// write, then the message; with `chunking`, `BDAT` and the message in that same write. Reads
/// every answer of the group in order, so a refusal names its command as [`transfer`]'s does.
/// Answers whether the relay sent the group's answers apart ([`ANSWERS_APART`]).
fn transfer_pipelined(
    conn: &mut SmtpConnection,
    envelope: &Envelope,
    message: &str,
    chunking: bool,
) -> Result<bool, SendError> {
    let group = PipelinedGroup {
        mail: Mail::new(
            envelope.from().cloned(),
            mail_parameters(conn, envelope, message.as_bytes())?,
        ),
        recipients: envelope
            .to()
            .iter()
            .map(|to| Rcpt::new(to.clone(), Vec::new()))
            .collect(),
        chunk: chunking.then_some(message),
    };
    conn.command(group).map_err(|e| refusal(Step::Mail, &e))?;
    let first_answer = Instant::now();
    for _ in envelope.to() {
        conn.read_response().map_err(|e| refusal(Step::Rcpt, &e))?;
    }
    let apart = first_answer.elapsed() >= ANSWERS_APART;
    // `354` to DATA, or the answer to the whole chunk.
    conn.read_response().map_err(|e| refusal(Step::Data, &e))?;
    if !chunking {
        conn.command(DataWithEnding(message))
            .map_err(|e| refusal(Step::Data, &e))?;
    }
    Ok(apart)
}

/// MAIL FROM's parameters for `envelope` and `message`: SMTPUTF8 for a non-ASCII address
/// (refused, permanently, by a relay without it), 8BITMIME for non-ASCII content.
fn mail_parameters(
    conn: &SmtpConnection,
    envelope: &Envelope,
    message: &[u8],
) -> Result<Vec<MailParameter>, SendError> {
    let mut parameters = Vec::new();
    let ascii = |address: &lettre::Address| AsRef::<str>::as_ref(address).is_ascii();
    let non_ascii =
        !envelope.to().iter().all(ascii) || envelope.from().is_some_and(|from| !ascii(from));
    if non_ascii {
        if !conn.server_info().supports_feature(Extension::SmtpUtfEight) {
            return Err(SendError {
                permanent: true,
                message: "SMTP: the relay does not offer SMTPUTF8, which a non-ASCII address needs"
                    .to_owned(),
            });
        }
        parameters.push(MailParameter::SmtpUtfEight);
    }
    if !message.is_ascii() && conn.server_info().supports_feature(Extension::EightBitMime) {
        parameters.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    Ok(parameters)
}

fn refusal(step: Step, error: &lettre::transport::smtp::Error) -> SendError {
    let text = error.to_string();
    let code = error.status().map(|code| code.to_string());
    SendError {
        permanent: permanent_for_this_mail(step, error.is_permanent(), code.as_deref(), &text),
        message: format!("SMTP {}: {text}", step.name()),
    }
}

/// Whether a refusal at `step` means this mail can never be delivered: only a 5xx answer to
/// RCPT TO about the address. A 5xx to RCPT that is about us — authentication needed (530),
/// failed (535), relaying denied, or a security-policy code (5.7.x) — is the relay's set-up
/// and is retried like every other refusal.
fn permanent_for_this_mail(step: Step, permanent: bool, code: Option<&str>, text: &str) -> bool {
    if step != Step::Rcpt || !permanent {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let about_us = matches!(code, Some("530" | "535"))
        || lower.contains("relay")
        || lower.contains("auth")
        || lower.contains("5.7.");
    !about_us
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_address_refusal_at_rcpt_is_permanent() {
        let unknown = "permanent error (550): 5.1.1 no such user";
        assert!(permanent_for_this_mail(
            Step::Rcpt,
            true,
            Some("550"),
            unknown
        ));
        assert!(!permanent_for_this_mail(
            Step::Rcpt,
            false,
            Some("450"),
            "transient error (450): mailbox busy"
        ));
        for step in [Step::Connect, Step::Auth, Step::Mail, Step::Data] {
            assert!(!permanent_for_this_mail(step, true, Some("554"), unknown));
        }
        for (code, text) in [
            ("550", "permanent error (550): relay denied"),
            ("554", "permanent error (554): 5.7.1 Relay access denied"),
            ("530", "permanent error (530): must issue STARTTLS first"),
            ("535", "permanent error (535): bad credentials"),
        ] {
            assert!(
                !permanent_for_this_mail(Step::Rcpt, true, Some(code), text),
                "{text}"
            );
        }
    }

    #[test]
    fn relay_urls() {
        let relay = SmtpRelay::from_url(
            "smtps://user%40x:p%2Fw@mail.example.org/helo.example.org",
            Duration::from_secs(1),
        )
        .unwrap();
        assert_eq!((relay.host.as_str(), relay.port), ("mail.example.org", 465));
        assert!(matches!(relay.tls, RelayTls::Wrapper(_)));
        assert_eq!(
            relay.credentials,
            Some(Credentials::new("user@x".into(), "p/w".into()))
        );
        assert_eq!(relay.hello, ClientId::Domain("helo.example.org".into()));
        let relay = SmtpRelay::from_url(
            "smtp://mail.example.org?tls=required",
            Duration::from_secs(1),
        )
        .unwrap();
        assert_eq!(relay.port, 587);
        assert!(matches!(relay.tls, RelayTls::Required(_)));
        let relay = SmtpRelay::from_url("smtp://127.0.0.1:2525", Duration::from_secs(1)).unwrap();
        assert_eq!(relay.port, 2525);
        assert!(relay.credentials.is_none());
        assert!(matches!(relay.tls, RelayTls::None));
        assert!(SmtpRelay::from_url("smtp://h?tls=maybe", Duration::from_secs(1)).is_err());
    }
}
