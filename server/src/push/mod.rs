//! Web push (issue 46): notifications to the browsers (devices) a player turned them on in.
//!
//! - [`subscriptions`]: the service behind the API and the settings page (a browser's
//!   subscription checked and kept, one row per device, listed, removed);
//! - [`VapidKey`]: the server's VAPID key pair, kept in `server_secrets`, its public half
//!   served to the pages, its JWT on every request (RFC 8292);
//! - `consumer`: a consumer of the event log with its own position (`push`), which
//!   queues one notification per device and event, following the audience, the push switches
//!   and game mutes;
//! - [`PushWorker`]: encrypts (RFC 8291 `aes128gcm`, the `web-push-native` crate) and sends
//!   due notifications through the webhooks' outbound checks; 404/410 removes the device,
//!   other failures retry with the outbox's back-off.

mod consumer;
mod error;
mod notification;
pub mod subscriptions;
mod vapid;
mod worker;

pub use consumer::PUSH_CONSUMER;
pub use error::PushError;
pub use notification::{delivery, of_event, Delivery};
pub use subscriptions::SUBSCRIPTIONS_PER_ACCOUNT;
pub use vapid::{VapidKey, JWT_VALID_FOR, VAPID_KEY_NAME};
pub use worker::PushWorker;
