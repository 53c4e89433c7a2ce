//! An event as a stream writes it: Server-Sent Events or NDJSON, made once for all the streams
//! that read it alike (the same format, the same view: a player's `for_you` and messages, or
//! what anybody may see) — an event told to thirty open streams is serialized a few times, not
//! thirty.

use std::sync::{Mutex, PoisonError};

use bytes::Bytes;
use turnpost_shared::api::StreamEvent;

/// How a stream writes its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WireFormat {
    /// `text/event-stream`: `id:`, `event:`, `data:` and a blank line.
    ServerSentEvents,
    /// `application/x-ndjson`: one JSON document a line.
    Ndjson,
}

impl WireFormat {
    /// The answer's content type.
    #[must_use]
    pub fn content_type(self) -> &'static str {
        match self {
            Self::ServerSentEvents => "text/event-stream",
            Self::Ndjson => "application/x-ndjson",
        }
    }

    /// The opening of the stream: SSE tells the browser how soon to reconnect.
    #[must_use]
    pub fn opening(self) -> &'static str {
        match self {
            Self::ServerSentEvents => "retry: 2000\n\n",
            Self::Ndjson => "",
        }
    }

    /// What an idle stream writes to keep proxies from closing it.
    #[must_use]
    pub fn keep_alive(self) -> &'static str {
        match self {
            Self::ServerSentEvents => ": keep-alive\n\n",
            Self::Ndjson => "\n",
        }
    }

    /// `event` as this format writes it.
    fn write(self, event: &StreamEvent) -> Bytes {
        let Ok(json) = serde_json::to_string(event) else {
            // A plain struct of strings and numbers always serializes; were it not to, the
            // stream leaves the event out rather than writing half of it.
            return Bytes::new();
        };
        Bytes::from(match self {
            Self::ServerSentEvents => {
                format!("id: {}\nevent: {}\ndata: {json}\n\n", event.id, event.event)
            }
            Self::Ndjson => json + "\n",
        })
    }
}

/// The bytes of one event already made, by format and view (`None`: what anybody sees).
#[derive(Default)]
pub(super) struct WireCache(Mutex<Vec<(WireFormat, Option<i64>, Bytes)>>);

impl WireCache {
    /// The bytes of `view` in `format`, made by `shown` the first time they are asked for.
    pub(super) fn get(
        &self,
        format: WireFormat,
        view: Option<i64>,
        shown: impl FnOnce() -> StreamEvent,
    ) -> Bytes {
        // A panic while holding the lock left a plain list behind: still usable.
        let mut made = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, _, bytes)) = made.iter().find(|(f, v, _)| *f == format && *v == view) {
            return bytes.clone();
        }
        let bytes = format.write(&shown());
        made.push((format, view, bytes.clone()));
        bytes
    }
}

impl Clone for WireCache {
    /// A copy starts empty: its event may be changed before it is written.
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl std::fmt::Debug for WireCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("WireCache")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use turnpost_shared::api::StreamEventType;
    use turnpost_shared::play::GameStatus;
    use turnpost_shared::GameKind;

    fn event() -> StreamEvent {
        StreamEvent {
            id: 7,
            event: StreamEventType::Move,
            game: 3,
            kind: GameKind::Kefren,
            ply: 4,
            status: GameStatus::Active,
            to_move: Some(1),
            to_move_name: Some("anna".into()),
            by: Some("bert".into()),
            seat: None,
            last_move: Some("F3:E4".into()),
            prepared: false,
            result: None,
            reason: None,
            at: "2026-12-06T21:00:00Z".into(),
            for_you: None,
            messages: Vec::new(),
        }
    }

    #[test]
    fn both_formats_frame_one_event() {
        let sse = WireFormat::ServerSentEvents.write(&event());
        let text = std::str::from_utf8(&sse).unwrap();
        assert!(
            text.starts_with("id: 7\nevent: move\ndata: {\"id\":7,"),
            "{text}"
        );
        assert!(text.ends_with("}\n\n"), "{text}");
        let ndjson = WireFormat::Ndjson.write(&event());
        let line = std::str::from_utf8(&ndjson).unwrap();
        assert_eq!(line.matches('\n').count(), 1);
        let parsed: StreamEvent = serde_json::from_str(line.trim_end()).unwrap();
        assert_eq!(parsed, event());
    }

    #[test]
    fn each_view_and_format_is_made_once() {
        let cache = WireCache::default();
        let made = std::cell::Cell::new(0);
        let shown = |for_you: Option<&str>| {
            made.set(made.get() + 1);
            let mut shown = event();
            shown.for_you = for_you.map(str::to_owned);
            shown
        };
        let anybody = cache.get(WireFormat::Ndjson, None, || shown(None));
        let again = cache.get(WireFormat::Ndjson, None, || shown(None));
        assert_eq!(anybody, again);
        let anna = cache.get(WireFormat::Ndjson, Some(1), || shown(Some("your_turn")));
        assert_ne!(anybody, anna);
        assert!(std::str::from_utf8(&anna)
            .unwrap()
            .contains("\"for_you\":\"your_turn\""));
        let sse = cache.get(WireFormat::ServerSentEvents, None, || shown(None));
        assert!(sse.starts_with(b"id: 7\n"));
        assert_eq!(made.get(), 3);
        assert!(cache.clone().0.lock().unwrap().is_empty());
    }
}
