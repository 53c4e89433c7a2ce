-- Games, their seats and their moves. The move list is the truth; games.position, status,
-- ply and to_move are a cache derived from it, updated in the same transaction as each move.
CREATE TABLE games (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    -- Canonical `key=value` pairs, every option (defaults and the server-drawn seed) included.
    options TEXT NOT NULL,
    clock TEXT,
    -- invited, active, finished or cancelled.
    status TEXT NOT NULL CHECK (status IN ('invited', 'active', 'finished', 'cancelled')),
    -- Engine status line once over: `won 2`, `won 1 3`, `draw`.
    result TEXT,
    -- rules, resignation, agreement, declined, expired.
    result_reason TEXT,
    ply INTEGER NOT NULL DEFAULT 0,
    to_move INTEGER,
    position TEXT NOT NULL,
    -- Seat whose draw offer stands (lapses when that seat moves again).
    draw_offered_by INTEGER,
    created_by BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP,
    last_activity_at TIMESTAMP NOT NULL
);
CREATE INDEX games_status_activity ON games (status, last_activity_at DESC, id DESC);

CREATE TABLE game_seats (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    accepted_at TIMESTAMP,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, account_id)
);
-- `GET /v1/games` starts from the caller's seats.
CREATE INDEX game_seats_account ON game_seats (account_id, game_id);

CREATE TABLE moves (
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    -- Moves played before this one (0 for the first move).
    ply INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    -- NULL for a move the server played (an automatic pass).
    account_id BIGINT REFERENCES accounts (id) ON DELETE SET NULL,
    notation TEXT NOT NULL,
    played_at TIMESTAMP NOT NULL,
    -- The last guard against two moves at one ply.
    PRIMARY KEY (game_id, ply)
);
