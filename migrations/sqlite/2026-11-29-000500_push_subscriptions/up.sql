-- Web push (issue 46): one row per browser (device) that turned notifications on, and a
-- durable queue of notifications (one per subscription and event: a consumer of the event log
-- that enqueues again after a crash finds the row there). The VAPID key pair lives in
-- server_secrets.
CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    -- The push service's URL for this browser: unique, a browser re-subscribing moves it.
    endpoint TEXT NOT NULL UNIQUE,
    -- The browser's P-256 public key and auth secret (base64url), to encrypt for it.
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    -- Shown in settings: from the User-Agent unless given.
    name TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    -- The last notification the push service took.
    last_used TIMESTAMP
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account_id);

CREATE TABLE push_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    subscription_id INTEGER NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    event_id INTEGER NOT NULL,
    -- The notification ({title, body, url, tag}, JSON), encrypted anew at each try.
    body TEXT NOT NULL,
    -- The TTL (seconds) and Urgency headers, from the event's category.
    ttl INTEGER NOT NULL,
    urgency TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try_at TIMESTAMP NOT NULL,
    -- pending, delivered, dropped (expired past its TTL).
    status TEXT NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    delivered_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (subscription_id, event_id)
);
CREATE INDEX push_deliveries_due ON push_deliveries (next_try_at) WHERE status = 'pending';
