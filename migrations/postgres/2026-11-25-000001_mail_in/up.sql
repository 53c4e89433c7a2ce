-- Play by email (issue 14). Each inbound message that acted is recorded here, keyed by a
-- SHA-256 of its Message-ID (or of its bytes when it has none) with the game and seat its reply
-- key names, in the same transaction as its effect: a second delivery, a retry or another
-- server process finds the row and does nothing.
-- `answers` counts the mails sent back, for the per-account answer limit.
CREATE TABLE inbound_mail (
    message_key TEXT PRIMARY KEY,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    outcome TEXT NOT NULL,
    answers INTEGER NOT NULL,
    handled_at TIMESTAMP NOT NULL
);
CREATE INDEX inbound_mail_by_account ON inbound_mail (account_id, handled_at);

-- Whether a move played by mail is confirmed by mail (1 on, 0 off).
ALTER TABLE notification_settings ADD COLUMN mail_confirmations INTEGER NOT NULL DEFAULT 1;
