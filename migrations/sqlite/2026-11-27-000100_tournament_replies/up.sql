-- Joining a tournament by mail (issue 27): each reply to a tournament announcement that was
-- read is recorded here, keyed by a SHA-256 of its Message-ID with the tournament and account
-- its reply key names, in the same transaction as its effect (as `inbound_mail` does for
-- game replies): a second delivery, a retry or another server process finds the row and does
-- nothing. `answers` counts the mails sent back, for the per-account answer limit.
CREATE TABLE inbound_tournament_mail (
    message_key TEXT PRIMARY KEY,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    outcome TEXT NOT NULL,
    answers INTEGER NOT NULL,
    handled_at TIMESTAMP NOT NULL
);
CREATE INDEX inbound_tournament_mail_by_account ON inbound_tournament_mail (account_id, handled_at);
