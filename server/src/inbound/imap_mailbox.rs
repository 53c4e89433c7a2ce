//! Mail in by IMAP: `TURNPOST_IMAP_URL` (`imaps://user:password@host[:port]/MAILBOX`) names a
//! mailbox that a watcher empties: each message is handed to the handler, then moved to the
//! done folder (or deleted) once the handler has recorded it. The watcher waits with IDLE where
//! the server has it, else polls; a broken connection backs off and reconnects.
//!
//! Several processes may watch one mailbox: both may fetch a message before either moves it, so
//! "acted on once" is the handler's job (it records each Message-ID in the same transaction as
//! the effect); here a move that finds the message gone is not an error.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use imap::{ClientBuilder, ConnectionMode};

use super::MAX_MESSAGE_BYTES;

/// Where the mailbox is and how to sign in.
#[derive(Clone, PartialEq, Eq)]
pub struct ImapMailbox {
    host: String,
    port: u16,
    tls: bool,
    user: String,
    password: String,
    mailbox: String,
}

impl std::fmt::Debug for ImapMailbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Why an IMAP URL cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("imap_url (TURNPOST_IMAP_URL): {0}")]
pub struct ImapUrlError(String);

/// What the handler did with a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// Acted on (or deliberately ignored) and recorded: take it out of the mailbox.
    Done,
    /// Could not be handled now (the database is away): leave it and try again later.
    Later,
}

/// A failure talking to the IMAP server.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("IMAP {step}: {message}")]
pub struct ImapError {
    step: &'static str,
    message: String,
}

fn step(step: &'static str) -> impl Fn(imap::Error) -> ImapError {
    move |error| ImapError {
        step,
        message: error.to_string(),
    }
}

fn is_loopback(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl ImapMailbox {
    /// Reads `imaps://user:password@host[:port]/MAILBOX` (port 993, mailbox `INBOX` by default)
    /// or `imap://…` (port 143, no encryption: only to a loopback host unless `allow_plain`).
    ///
    /// # Errors
    /// An [`ImapUrlError`] saying which part is wrong.
    pub fn parse(text: &str, allow_plain: bool) -> Result<Self, ImapUrlError> {
        let fail = |message: &str| ImapUrlError(message.to_owned());
        let url = url::Url::parse(text.trim()).map_err(|e| {
            fail(&format!(
                "expected imaps://user:password@host/MAILBOX ({e})"
            ))
        })?;
        let tls = match url.scheme() {
            "imaps" => true,
            "imap" => false,
            other => {
                return Err(fail(&format!(
                    "scheme `{other}`: expected imaps:// (or imap:// to a loopback host)"
                )))
            }
        };
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| fail("expected a host after //"))?
            .to_owned();
        if !tls && !allow_plain && !is_loopback(&host) {
            return Err(fail(
                "plain imap:// sends the password unencrypted: use imaps://, or imap:// only to a loopback host",
            ));
        }
        let decode = |part: &str| {
            percent_decode(part).ok_or_else(|| fail("a %-escape in the URL is not valid UTF-8"))
        };
        let user = decode(url.username())?;
        let password = decode(url.password().unwrap_or_default())?;
        if user.is_empty() {
            return Err(fail(
                "expected a user name: imaps://user:password@host/MAILBOX",
            ));
        }
        let mailbox = decode(url.path().trim_start_matches('/'))?;
        Ok(Self {
            port: url.port().unwrap_or(if tls { 993 } else { 143 }),
            host,
            tls,
            user,
            password,
            mailbox: if mailbox.is_empty() {
                "INBOX".to_owned()
            } else {
                mailbox
            },
        })
    }

    /// The mailbox without its password, for logs.
    #[must_use]
    pub fn describe(&self) -> String {
        let scheme = if self.tls { "imaps" } else { "imap" };
        format!(
            "{scheme}://{}:***@{}:{}/{}",
            self.user, self.host, self.port, self.mailbox
        )
    }

    /// Signs in and selects the mailbox, then logs out (`turnpost-server check`); answers how
    /// many messages wait in it.
    ///
    /// # Errors
    /// [`ImapError`] naming the step that failed: connect, login or select.
    pub fn check(&self) -> Result<u32, ImapError> {
        let mut session = self.connect()?;
        let waiting = session
            .examine(&self.mailbox)
            .map_err(step("select"))?
            .exists;
        let _ = session.logout();
        Ok(waiting)
    }

    fn connect(&self) -> Result<imap::Session<imap::Connection>, ImapError> {
        let mode = if self.tls {
            ConnectionMode::Tls
        } else {
            ConnectionMode::Plaintext
        };
        let client = ClientBuilder::new(self.host.as_str(), self.port)
            .mode(mode)
            .connect()
            .map_err(step("connect"))?;
        let mut session = client
            .login(&self.user, &self.password)
            .map_err(|(error, _)| step("login")(error))?;
        session.select(&self.mailbox).map_err(step("select"))?;
        Ok(session)
    }
}

fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while let Some(&byte) = bytes.get(index) {
        if byte == b'%' {
            let hex = text.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(byte);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// A watcher of one mailbox.
#[derive(Debug, Clone)]
pub struct ImapWatch {
    /// The mailbox.
    pub mailbox: ImapMailbox,
    /// How long to wait between looks when the server has no IDLE, and at most in one IDLE.
    pub poll: Duration,
    /// Where handled messages go; `None` deletes them.
    pub done_folder: Option<String>,
}

/// The longest one IDLE waits before the watcher checks whether it should stop.
const IDLE_SLICE: Duration = Duration::from_secs(2);

/// How long a failed connection waits before the next try, at most.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

impl ImapWatch {
    /// Watches until `stop` is set: handles every message in the mailbox, waits for more,
    /// reconnects after failures (1 s, doubling up to a minute).
    pub fn run(&self, handler: &mut dyn FnMut(&[u8]) -> Handled, stop: &AtomicBool) {
        let mut backoff = Duration::from_secs(1);
        while !stop.load(Ordering::SeqCst) {
            match self.watch_session(handler, stop, &mut backoff) {
                Ok(()) => return,
                Err(error) => {
                    crate::metrics::imap_failure();
                    tracing::warn!(mailbox = %self.mailbox.describe(), %error, retry_in_s = backoff.as_secs(), "IMAP mailbox unavailable");
                    sleep_unless_stopped(backoff, stop);
                    backoff = (backoff * 2).min(MAX_BACKOFF);
                }
            }
        }
    }

    fn watch_session(
        &self,
        handler: &mut dyn FnMut(&[u8]) -> Handled,
        stop: &AtomicBool,
        backoff: &mut Duration,
    ) -> Result<(), ImapError> {
        let mut session = self.mailbox.connect()?;
        *backoff = Duration::from_secs(1);
        self.create_done_folder(&mut session);
        let idle = session
            .capabilities()
            .map_err(step("capabilities"))?
            .has_str("IDLE");
        // Look at once, then whenever IDLE reports a change or `poll` has passed. IDLE waits in
        // short slices so that a stop is noticed within one slice.
        let mut look = true;
        let mut last_look = Instant::now();
        while !stop.load(Ordering::SeqCst) {
            if look || last_look.elapsed() >= self.poll {
                let waiting = self.drain(&mut session, handler)?;
                last_look = Instant::now();
                if waiting || !idle {
                    // A message waits for the database, or no IDLE: look again after `poll`.
                    sleep_unless_stopped(self.poll, stop);
                    look = true;
                    continue;
                }
            }
            let outcome = session
                .idle()
                .timeout(self.poll.min(IDLE_SLICE))
                .keepalive(false)
                .wait_while(imap::extensions::idle::stop_on_any)
                .map_err(step("idle"))?;
            look = outcome == imap::extensions::idle::WaitOutcome::MailboxChanged;
        }
        let _ = session.logout();
        Ok(())
    }

    fn create_done_folder(&self, session: &mut imap::Session<imap::Connection>) {
        if let Some(folder) = &self.done_folder {
            // Fails harmlessly when it exists already.
            let _ = session.create(folder);
        }
    }

    /// Connects once, handles every message now in the mailbox, and disconnects; returns how
    /// many were handled. For tests and one-shot runs.
    ///
    /// # Errors
    /// An [`ImapError`] naming the step that failed.
    pub fn drain_once(
        &self,
        handler: &mut dyn FnMut(&[u8]) -> Handled,
    ) -> Result<usize, ImapError> {
        let mut session = self.mailbox.connect()?;
        self.create_done_folder(&mut session);
        let mut handled = 0;
        let mut counting = |raw: &[u8]| {
            let outcome = handler(raw);
            handled += usize::from(outcome == Handled::Done);
            outcome
        };
        self.drain(&mut session, &mut counting)?;
        let _ = session.logout();
        Ok(handled)
    }

    /// Hands every message to the handler, oldest first; returns whether one was left for later.
    /// A message larger than [`MAX_MESSAGE_BYTES`] (by its `RFC822.SIZE`, asked first) is taken
    /// out unread and logged: the handler would refuse it anyway, and reading it whole would
    /// hold it all in memory.
    fn drain(
        &self,
        session: &mut imap::Session<imap::Connection>,
        handler: &mut dyn FnMut(&[u8]) -> Handled,
    ) -> Result<bool, ImapError> {
        let mut uids: Vec<u32> = session
            .uid_search("NOT DELETED")
            .map_err(step("search"))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        if uids.is_empty() {
            return Ok(false);
        }
        let sizes: HashMap<u32, Option<u32>> = session
            .uid_fetch(uid_set(&uids), "(UID RFC822.SIZE)")
            .map_err(step("fetch sizes"))?
            .iter()
            .filter_map(|fetch| Some((fetch.uid?, fetch.size)))
            .collect();
        for uid in uids {
            // Gone already: another watcher took it.
            let Some(&size) = sizes.get(&uid) else {
                continue;
            };
            if let Some(size) = size.filter(|&size| too_large(size)) {
                tracing::warn!(
                    mailbox = %self.mailbox.describe(),
                    uid,
                    size,
                    limit = MAX_MESSAGE_BYTES,
                    "IMAP message over the size limit taken out unread"
                );
                self.take_out(session, uid)?;
                continue;
            }
            let fetches = session
                .uid_fetch(uid.to_string(), "BODY.PEEK[]")
                .map_err(step("fetch"))?;
            // Gone already: another watcher took it.
            let Some(raw) = fetches.iter().next().and_then(|fetch| fetch.body()) else {
                continue;
            };
            match handler(raw) {
                Handled::Later => return Ok(true),
                Handled::Done => self.take_out(session, uid)?,
            }
        }
        Ok(false)
    }

    fn take_out(
        &self,
        session: &mut imap::Session<imap::Connection>,
        uid: u32,
    ) -> Result<(), ImapError> {
        let outcome = match &self.done_folder {
            Some(folder) => session.uid_mv(uid.to_string(), folder),
            None => session
                .uid_store(uid.to_string(), "+FLAGS.SILENT (\\Deleted)")
                .and_then(|_| session.uid_expunge(uid.to_string()).map(|_| ())),
        };
        match outcome {
            Ok(()) => Ok(()),
            // The server said no (another watcher moved it first): nothing left to do.
            Err(imap::Error::No(_) | imap::Error::Bad(_)) => Ok(()),
            Err(error) => Err(step("move")(error)),
        }
    }
}

/// Whether a message of `size` bytes is over [`MAX_MESSAGE_BYTES`].
fn too_large(size: u32) -> bool {
    usize::try_from(size).map_or(true, |size| size > MAX_MESSAGE_BYTES)
}

/// `uids` as an IMAP sequence set: `1,2,5`.
fn uid_set(uids: &[u32]) -> String {
    uids.iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn sleep_unless_stopped(duration: Duration, stop: &AtomicBool) {
    let until = Instant::now() + duration;
    while !stop.load(Ordering::SeqCst) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        std::thread::sleep(left.min(Duration::from_millis(100)));
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "tests")]

    use super::*;

    #[test]
    fn urls_are_read_and_plain_text_stays_on_loopback() {
        let mailbox = ImapMailbox::parse(
            "imaps://games%40example.org:s%3Acret@imap.example.org/Games",
            false,
        )
        .unwrap();
        assert_eq!(mailbox.user, "games@example.org");
        assert_eq!(mailbox.password, "s:cret");
        assert_eq!((mailbox.port, mailbox.tls), (993, true));
        assert_eq!(mailbox.mailbox, "Games");
        assert_eq!(
            mailbox.describe(),
            "imaps://games@example.org:***@imap.example.org:993/Games"
        );
        assert!(!format!("{mailbox:?}").contains("s:cret"));
        let local = ImapMailbox::parse("imap://u:p@127.0.0.1:1143", false).unwrap();
        assert_eq!(
            (local.port, local.tls, local.mailbox.as_str()),
            (1143, false, "INBOX")
        );
        let error = ImapMailbox::parse("imap://u:p@imap.example.org/", false).unwrap_err();
        assert!(error.to_string().contains("imaps://"), "{error}");
        assert!(ImapMailbox::parse("imap://u:p@imap.example.org/", true).is_ok());
        assert!(ImapMailbox::parse("pop3://u:p@h/", false).is_err());
        assert!(ImapMailbox::parse("imaps://h/", false).is_err());
        assert!(ImapMailbox::parse("imaps://u:%ff@h/", false).is_err());
    }
}
