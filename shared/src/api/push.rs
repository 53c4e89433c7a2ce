//! Web push (`/v1/push`): the browsers (devices) that get an account's notifications, the
//! server's VAPID public key they subscribe with, and what one notification carries.

use serde::{Deserialize, Serialize};

/// The keys a browser's `PushSubscription` gives (`subscription.toJSON().keys`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PushKeys {
    /// The browser's P-256 public key, uncompressed (65 bytes), base64url.
    pub p256dh: String,
    /// The browser's 16-byte authentication secret, base64url.
    pub auth: String,
}

/// `POST /v1/push/subscriptions`: a browser's push subscription, as `toJSON()` gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreatePushSubscriptionRequest {
    /// The push service's URL for this browser (`https://`; plain `http://` or a private
    /// address only where the operator allows it, as for webhooks).
    #[cfg_attr(
        feature = "openapi",
        schema(
            format = "uri",
            max_length = 2000,
            // What the server takes by default: https to a host named by DNS (an address
            // literal is checked against the networks it may reach; see the description).
            pattern = r"^https://[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,63}(?::[1-9][0-9]{0,4})?(?:/[!-~]*)?$",
            example = "https://hooks.example.org/turnpost"
        )
    )]
    pub endpoint: String,
    /// The browser's encryption keys.
    pub keys: PushKeys,
    /// A name for the device in settings; absent: from the `User-Agent`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What `toJSON()` also gives; ignored (the server sets its own TTL).
    #[serde(
        default,
        rename = "expirationTime",
        skip_serializing_if = "Option::is_none"
    )]
    pub expiration_time: Option<f64>,
}

/// One device that gets notifications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushSubscriptionView {
    /// Its id.
    pub id: i64,
    /// Its name (from its `User-Agent` unless given).
    pub name: String,
    /// The push service's URL for it.
    pub endpoint: String,
    /// When it was added (RFC 3339, UTC).
    pub created_at: String,
    /// When the push service last took a notification for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_used: Option<String>,
}

/// `GET /v1/push/subscriptions`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushSubscriptionList {
    /// The account's devices, oldest first.
    pub subscriptions: Vec<PushSubscriptionView>,
}

/// `GET /v1/push/key`: the server's VAPID public key, the `applicationServerKey` to
/// subscribe with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushKey {
    /// The uncompressed P-256 point (65 bytes), base64url without padding.
    pub public_key: String,
}

/// What one notification carries, encrypted (RFC 8291) for the browser; the service
/// worker shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PushNotification {
    /// The notification's title ("Your turn: Kefren #12").
    pub title: String,
    /// One line ("Your turn in Kefren #12: bert played F2-F3.").
    pub body: String,
    /// The page a click opens: the game, or that seat's play page.
    pub url: String,
    /// Replaces an earlier notification of the same game (`game-12`).
    pub tag: String,
}
