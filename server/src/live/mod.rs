//! The live channel: the event log read in order and handed to open streams as it grows.
//!
//! - [`LiveEvent`]: a logged event as streams carry it (what spectators may see, who is told).
//! - [`ChannelReach`]: whom a notifying channel (webhooks, push) reaches with events.
//! - [`Hub`]: the open streams of this process, by account and by game, with their caps.
//! - [`run_log_tail`]: the one reader of the log for all of them, woken by the commit bell
//!   (`crate::db::commit_bell`; other processes' commits through PostgreSQL's `NOTIFY`).
//! - [`stream_events`]: one stream's events, its own catch-up from a resumed id first, then
//!   what the hub hands it.
//! - [`WireFormat`]: how a stream writes an event (SSE or NDJSON), made once for its readers.

mod channel_reach;
mod hub;
mod live_event;
mod log_tail;
mod stream_events;
mod wire_text;

pub use channel_reach::{ChannelReach, Reached};
pub use hub::{Hub, StreamCaps, StreamOwner, StreamRefused, StreamScope, Subscription};
pub use live_event::{live_events, LiveEvent};
pub use log_tail::run_log_tail;
pub use stream_events::{open_stream, OpenStream, StartRefused, StreamStart};
pub use wire_text::WireFormat;
