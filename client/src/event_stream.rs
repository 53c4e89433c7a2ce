//! The live event streams (`GET /v1/stream`, `GET /v1/games/{id}/stream`) read as NDJSON on a
//! thread of their own, which reconnects after a drop with `Last-Event-ID`, so that no event
//! is lost or seen twice. Shared by `turnpost wait` and `turnpost watch`.
//!
//! Why a thread: a blocking read cannot be interrupted, and `wait --timeout` must end at its
//! deadline (and a spinner turn) whatever the connection does; the caller waits on a channel
//! with its own timeout instead.

use std::io::{BufRead as _, BufReader, Read as _};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use reqwest::StatusCode;
use turnpost_shared::api::{ErrorBody, StreamEvent};

use crate::api_client::ApiClient;
use crate::failure::Failure;
use crate::terminal_text::escape_controls;

/// The server sends a line at least every 20 s (an empty one when idle): a connection silent
/// for longer than this is dead, even when TCP has not noticed.
const SILENCE_LIMIT: Duration = Duration::from_secs(45);
/// How long connecting may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// The first pause before reconnecting, doubled after each failed attempt up to the next.
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(10);
/// The longest line read: events are a few hundred bytes; a server that sends without a line
/// break must not exhaust memory.
const MAX_LINE_BYTES: u64 = 1024 * 1024;

/// Which stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamScope {
    /// The signed-in account's games.
    Account,
    /// One game.
    Game(i64),
}

impl StreamScope {
    fn path(self) -> String {
        match self {
            Self::Account => "/stream".to_string(),
            Self::Game(id) => format!("/games/{id}/stream"),
        }
    }
}

/// One event as the server sent it.
#[derive(Debug, Clone)]
pub struct Event {
    /// The line as sent (one compact JSON object), or the object written again compactly
    /// when the line held anything a terminal would act on.
    pub line: String,
    /// The event, when this client knows its type (a newer server may send others).
    pub event: Option<StreamEvent>,
}

/// What the stream's thread reports.
#[derive(Debug)]
pub enum Received {
    /// Connected (the first time, or again after a drop): the events from here on come in
    /// order. `gap`: the server no longer had the last event seen (410, or 400 for an id it
    /// does not know), so the stream started again from now and events may have been missed.
    Connected { gap: bool },
    /// An event.
    Event(Event),
    /// The connection dropped (or a reconnection failed); the next attempt is in `retry_in`.
    Dropped { reason: String, retry_in: Duration },
    /// The stream ends. `no_stream` when the first connection found no stream to read: the
    /// server answered 404 (a server without streams, or no such game), 429 (too many streams
    /// open) or something that is not NDJSON, so a caller may do without it.
    Ended { failure: Failure, no_stream: bool },
}

/// A stream being read on its own thread.
pub struct EventStream {
    received: Receiver<Received>,
}

impl EventStream {
    /// Starts reading `scope`'s stream with `client`'s server and token, from now on.
    ///
    /// # Errors
    /// A usage failure when HTTP cannot be set up.
    pub fn open(client: &ApiClient, scope: StreamScope) -> Result<EventStream, Failure> {
        let http = Client::builder()
            .user_agent(concat!("turnpost/", env!("CARGO_PKG_VERSION")))
            .connect_timeout(CONNECT_TIMEOUT)
            // In the blocking client this bounds the wait for the answer's head and each read,
            // not the whole body: a stream may last for ever, but not fall silent.
            .timeout(SILENCE_LIMIT)
            .build()
            .map_err(|error| Failure::usage(format!("cannot set up HTTP: {error}")))?;
        let reader = Reader {
            http,
            scope,
            url: client.url(&scope.path()),
            server: client.server().to_string(),
            token: client.token().map(str::to_string),
        };
        let (sender, received) = mpsc::channel();
        std::thread::spawn(move || reader.run(&sender));
        Ok(EventStream { received })
    }

    /// The next report, waiting at most `timeout` (`None`: as long as it takes); `None` when
    /// the time passed first.
    pub fn next(&self, timeout: Option<Duration>) -> Option<Received> {
        let received = match timeout {
            Some(timeout) => self.received.recv_timeout(timeout),
            None => self
                .received
                .recv()
                .map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(report) => Some(report),
            Err(RecvTimeoutError::Timeout) => None,
            // The thread always reports why it stops; this is only a safety net.
            Err(RecvTimeoutError::Disconnected) => Some(Received::Ended {
                failure: Failure::network("the event stream stopped"),
                no_stream: false,
            }),
        }
    }
}

/// The stream's thread: connects, reads, reconnects.
struct Reader {
    http: Client,
    scope: StreamScope,
    url: String,
    server: String,
    token: Option<String>,
}

/// Why a connection attempt did not give a stream.
enum Refusal {
    /// Worth trying again later (no connection, 5xx): the reason.
    Transient(String),
    /// Too many streams open (429): the server's message.
    Busy(String),
    /// The resume id is not resumable (400, 410): start again without it.
    NotResumable,
    /// No stream here (404, not NDJSON): the failure to report.
    NoStream(Failure),
    /// Refused for good (401, another 4xx).
    Refused(Failure),
}

/// Why reading stopped for good.
enum Stop {
    /// Nobody listens any more.
    Listener,
    /// The server sent what no stream sends.
    Failed(Failure),
}

impl Reader {
    fn run(self, reports: &Sender<Received>) {
        let mut last_id: Option<i64> = None;
        let mut connected_before = false;
        let mut gap = false;
        let mut retry = FIRST_RETRY;
        loop {
            let refusal = match self.connect(last_id) {
                Ok(response) => {
                    connected_before = true;
                    retry = FIRST_RETRY;
                    if reports.send(Received::Connected { gap }).is_err() {
                        return;
                    }
                    gap = false;
                    match self.read(response, &mut last_id, reports) {
                        Ok(reason) => Refusal::Transient(reason),
                        Err(Stop::Listener) => return,
                        Err(Stop::Failed(failure)) => Refusal::Refused(failure),
                    }
                }
                Err(refusal) => refusal,
            };
            let reason = match refusal {
                Refusal::NotResumable if last_id.is_some() => {
                    last_id = None;
                    gap = true;
                    continue;
                }
                // Once streaming, a restarting or busy server is waited out.
                Refusal::Transient(reason) | Refusal::Busy(reason) if connected_before => reason,
                // The first connection failing is a network failure like any command's.
                Refusal::Transient(reason) => {
                    let _ = reports.send(Received::Ended {
                        failure: Failure::network(reason),
                        no_stream: false,
                    });
                    return;
                }
                // With no stream yet, doing without one beats waiting for a free place.
                Refusal::Busy(message) => {
                    let _ = reports.send(Received::Ended {
                        failure: Failure::refused(message),
                        no_stream: true,
                    });
                    return;
                }
                Refusal::NotResumable => {
                    let failure = Failure::network(format!(
                        "{} refused to start its event stream",
                        self.server
                    ));
                    let _ = reports.send(Received::Ended {
                        failure,
                        no_stream: false,
                    });
                    return;
                }
                Refusal::NoStream(failure) => {
                    let _ = reports.send(Received::Ended {
                        failure,
                        no_stream: !connected_before,
                    });
                    return;
                }
                Refusal::Refused(failure) => {
                    let _ = reports.send(Received::Ended {
                        failure,
                        no_stream: false,
                    });
                    return;
                }
            };
            let dropped = Received::Dropped {
                reason,
                retry_in: retry,
            };
            if reports.send(dropped).is_err() {
                return;
            }
            std::thread::sleep(retry);
            retry = (retry * 2).min(LAST_RETRY);
        }
    }

    /// Opens the stream after `last_id` (or from now).
    fn connect(&self, last_id: Option<i64>) -> Result<Response, Refusal> {
        let mut request = self
            .http
            .get(&self.url)
            .header(reqwest::header::ACCEPT, "application/x-ndjson");
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        if let Some(id) = last_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let response = request.send().map_err(|error| {
            Refusal::Transient(format!("cannot reach {}: {error}", self.server))
        })?;
        let status = response.status();
        if status.is_success() {
            let ndjson = response
                .headers()
                .get(reqwest::header::CONTENT_TYPE)
                .and_then(|value| value.to_str().ok())
                .is_some_and(|value| value.starts_with("application/x-ndjson"));
            return if ndjson {
                Ok(response)
            } else {
                Err(Refusal::NoStream(Failure::network(format!(
                    "{} has no event stream (it answered something else)",
                    self.server
                ))))
            };
        }
        let message = error_message(response, status);
        Err(match status {
            StatusCode::BAD_REQUEST | StatusCode::GONE if last_id.is_some() => {
                Refusal::NotResumable
            }
            // The account's stream is always there on a server that has streams.
            StatusCode::NOT_FOUND if self.scope == StreamScope::Account => {
                Refusal::NoStream(Failure::network(format!(
                    "{} has no event streams (a server older than this client?): {message}",
                    self.server
                )))
            }
            StatusCode::NOT_FOUND => Refusal::NoStream(Failure::refused(message)),
            StatusCode::TOO_MANY_REQUESTS => Refusal::Busy(message),
            StatusCode::UNAUTHORIZED => Refusal::Refused(Failure::refused(format!(
                "{message} (sign in again with `turnpost login`)"
            ))),
            status if status.is_client_error() => Refusal::Refused(Failure::refused(message)),
            _ => Refusal::Transient(format!("{} failed: {message}", self.server)),
        })
    }

    /// Reads events until the connection ends, keeping `last_id` up to date; returns why it
    /// ended.
    fn read(
        &self,
        response: Response,
        last_id: &mut Option<i64>,
        reports: &Sender<Received>,
    ) -> Result<String, Stop> {
        let mut lines = BufReader::new(response);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            let read = (&mut lines)
                .take(MAX_LINE_BYTES + 1)
                .read_until(b'\n', &mut bytes);
            match read {
                Ok(0) => return Ok(format!("{} closed the event stream", self.server)),
                Ok(_) => {}
                Err(error) => {
                    return Ok(format!(
                        "reading the event stream of {}: {error}",
                        self.server
                    ))
                }
            }
            if bytes.last() != Some(&b'\n') {
                if bytes.len() as u64 > MAX_LINE_BYTES {
                    return Err(Stop::Failed(Failure::network(format!(
                        "{} sent an event larger than {} MiB; giving up",
                        self.server,
                        MAX_LINE_BYTES / 1024 / 1024
                    ))));
                }
                // The connection ended inside a line: the event comes again on resuming.
                return Ok(format!("{} cut the event stream short", self.server));
            }
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim();
            // An empty line keeps the connection alive and says nothing.
            if text.is_empty() {
                continue;
            }
            let event = parse_event(text).ok_or_else(|| {
                Stop::Failed(Failure::network(format!(
                    "{} sent an event this client does not understand: {}",
                    self.server,
                    escape_controls(&text.chars().take(80).collect::<String>(), false)
                )))
            })?;
            if let Some(id) = event.id {
                *last_id = Some(id);
            }
            if reports.send(Received::Event(event.event)).is_err() {
                return Err(Stop::Listener);
            }
        }
    }
}

/// One line of the stream read: the event and its id.
struct ParsedLine {
    id: Option<i64>,
    event: Event,
}

/// A line of the stream as an event; `None` when it is not a JSON object.
fn parse_event(text: &str) -> Option<ParsedLine> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let object = value.as_object()?;
    let id = object.get("id").and_then(serde_json::Value::as_i64);
    // JSON text outside strings may hold tabs and carriage returns: written again instead.
    let line = if text.chars().any(char::is_control) {
        serde_json::to_string(&value).ok()?
    } else {
        text.to_string()
    };
    let event = serde_json::from_value(value).ok();
    Some(ParsedLine {
        id,
        event: Event { line, event },
    })
}

/// The server's message in an error answer, else its status.
fn error_message(response: Response, status: StatusCode) -> String {
    let mut body = String::new();
    let _ = response.take(64 * 1024).read_to_string(&mut body);
    serde_json::from_str::<ErrorBody>(&body)
        .map(|error| escape_controls(&error.error.message, false))
        .unwrap_or_else(|_| format!("HTTP {status}"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::expect_used, reason = "tests")]
    use super::*;

    #[test]
    fn a_line_is_kept_as_sent_with_its_id() {
        let text = r#"{"id":7,"type":"move","game":3,"kind":"kefren","ply":1,"status":"active","to_move":2,"to_move_name":"bob","last_move":"F2-F3","at":"2026-01-01T00:00:00Z"}"#;
        let parsed = parse_event(text).expect("an event");
        assert_eq!(parsed.id, Some(7));
        assert_eq!(parsed.event.line, text);
        let event = parsed.event.event.expect("a known event");
        assert_eq!(event.last_move.as_deref(), Some("F2-F3"));
    }

    #[test]
    fn an_unknown_type_is_kept_and_a_non_object_refused() {
        let parsed = parse_event(r#"{"id":8,"type":"rainbow"}"#).expect("an object");
        assert_eq!(parsed.id, Some(8));
        assert!(parsed.event.event.is_none());
        assert!(parse_event("[1,2]").is_none());
        assert!(parse_event("data: {}").is_none());
    }

    #[test]
    fn stray_control_characters_are_not_passed_on() {
        let parsed = parse_event("{\"id\":9,\r\"type\":\"move\"}").expect("an object");
        assert!(!parsed.event.line.contains('\r'));
    }
}
