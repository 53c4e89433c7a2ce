-- Webhooks (issue 46): URLs an account's events are posted to, a durable queue of deliveries
-- (one per endpoint and event: a consumer of the event log that enqueues again after a crash
-- finds the row there), the last results per endpoint, and per-channel category switches.
CREATE TABLE webhook_endpoints (
    id BIGSERIAL PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url TEXT NOT NULL,
    -- Comma-separated stream event types.
    kinds TEXT NOT NULL,
    format TEXT NOT NULL,
    -- `whsec_…`: kept, since it must sign every delivery.
    secret TEXT NOT NULL,
    ntfy_token TEXT,
    created_at TIMESTAMP NOT NULL,
    failing_since TIMESTAMP,
    disabled_at TIMESTAMP
);
CREATE INDEX webhook_endpoints_account ON webhook_endpoints (account_id);

CREATE TABLE webhook_deliveries (
    id BIGSERIAL PRIMARY KEY,
    endpoint_id BIGINT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    -- None for a test delivery.
    event_id BIGINT,
    -- The `webhook-id` header, fixed at enqueue: the same on every try.
    webhook_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    body TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_try_at TIMESTAMP NOT NULL,
    -- pending, delivered, dropped (its endpoint was switched off).
    status TEXT NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    duration_ms BIGINT,
    delivered_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (endpoint_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_try_at) WHERE status = 'pending';

CREATE TABLE webhook_attempts (
    id BIGSERIAL PRIMARY KEY,
    endpoint_id BIGINT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    webhook_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    at TIMESTAMP NOT NULL,
    delivered BOOLEAN NOT NULL,
    status INTEGER,
    duration_ms BIGINT NOT NULL,
    error TEXT
);
CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, id);

-- A category switched off (or on) for one channel other than mail (`webhooks`, later `push`);
-- no row: on. Mail keeps its own switches in notification_settings.
CREATE TABLE channel_switches (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    channel TEXT NOT NULL,
    category TEXT NOT NULL,
    enabled BOOLEAN NOT NULL,
    PRIMARY KEY (account_id, channel, category)
);
