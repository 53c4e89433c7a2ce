-- Browser sessions: the session cookie holds a random secret; only its SHA-256 is stored. A
-- row is one signed-in browser; deleting it signs that browser out.
CREATE TABLE browser_sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    secret_hash TEXT NOT NULL UNIQUE,
    label TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP NOT NULL
);
CREATE INDEX browser_sessions_account_id ON browser_sessions (account_id);

-- The sign-in link mailed with each code: its SHA-256, valid as long as the code and used up
-- with it (either one signs in once).
ALTER TABLE sign_in_codes ADD COLUMN link_hash TEXT;
CREATE UNIQUE INDEX sign_in_codes_link_hash ON sign_in_codes (link_hash);
