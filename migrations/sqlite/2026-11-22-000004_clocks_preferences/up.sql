-- Clocks, notification preferences, per-game mutes, vacations and the server's signing secret.

-- The clock of a game: `clock` holds the canonical spec (`3d`, `7d+1d/14d`); the deadline is
-- the moment the seat to move runs out of time, NULL while the game is not running.
ALTER TABLE games ADD COLUMN timeout_mode TEXT NOT NULL DEFAULT 'auto'
    CHECK (timeout_mode IN ('auto', 'claim'));
ALTER TABLE games ADD COLUMN turn_started_at TIMESTAMP;
ALTER TABLE games ADD COLUMN deadline_at TIMESTAMP;
-- Bits of what was already mailed for the current turn: 1 the 24 h reminder, 2 the 2 h
-- reminder, 4 the notice that a win on time may be claimed. Cleared when the turn changes.
ALTER TABLE games ADD COLUMN clock_notices INTEGER NOT NULL DEFAULT 0;
-- The sweeps look only at running clocks, soonest first.
CREATE INDEX games_deadline ON games (deadline_at) WHERE status = 'active';

-- A Fischer clock's bank per seat, in seconds (NULL for days-per-move clocks).
ALTER TABLE game_seats ADD COLUMN bank_seconds INTEGER;

-- One row per account that changed a default; no row means the defaults.
CREATE TABLE notification_settings (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    -- An IANA time zone name.
    time_zone TEXT NOT NULL DEFAULT 'UTC',
    turn_mail TEXT NOT NULL DEFAULT 'immediate' CHECK (turn_mail IN ('immediate', 'digest', 'off')),
    -- Local hour (0-23) of the daily digest.
    digest_hour INTEGER NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
    -- Categories, 1 on and 0 off.
    challenges INTEGER NOT NULL DEFAULT 1,
    challenge_replies INTEGER NOT NULL DEFAULT 1,
    game_over INTEGER NOT NULL DEFAULT 1,
    draw_offers INTEGER NOT NULL DEFAULT 1,
    reminders INTEGER NOT NULL DEFAULT 1,
    -- The local date (YYYY-MM-DD) of the last digest, so each day has at most one.
    last_digest_on TEXT,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE game_mutes (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, game_id)
);

-- Vacation days used per account and calendar year (UTC), and the end of the current one.
CREATE TABLE vacations (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    year INTEGER NOT NULL,
    days_used INTEGER NOT NULL DEFAULT 0,
    until_at TIMESTAMP
);

-- Secrets every server process shares (the key that signs unsubscribe links).
CREATE TABLE server_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
