-- Tournaments (issue 27): an organiser's event of one kind, options and clock; players enter
-- while the entry window is open, the server pairs the rounds and creates their games.
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    organiser_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    -- The games' options as the organiser gave them, canonical `key=value` pairs (a table
    -- tournament's seat count is set per table).
    options TEXT NOT NULL,
    clock TEXT NOT NULL,
    timeout_mode TEXT NOT NULL CHECK (timeout_mode IN ('auto', 'claim')),
    format TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss', 'tables')),
    -- Round-robin: everyone meets twice, colours reversed (0 or 1).
    double_round INTEGER NOT NULL DEFAULT 0 CHECK (double_round IN (0, 1)),
    -- Round-robin: every round's games start together (0 or 1).
    all_at_once INTEGER NOT NULL DEFAULT 0 CHECK (all_at_once IN (0, 1)),
    -- Tables: the seats of a table (3 to 6).
    table_seats INTEGER,
    -- Swiss and tables: the number of rounds (round-robin: known when it starts).
    rounds INTEGER,
    entry_closes_at TIMESTAMP NOT NULL,
    max_players INTEGER,
    status TEXT NOT NULL CHECK (status IN ('entry', 'running', 'finished', 'cancelled')),
    -- The latest round paired (0 before the start).
    current_round INTEGER NOT NULL DEFAULT 0,
    created_at TIMESTAMP NOT NULL,
    started_at TIMESTAMP,
    finished_at TIMESTAMP
);
CREATE INDEX tournaments_status ON tournaments (status, entry_closes_at);
-- The entrants, in entry order (`entry_number`: the seeding and the round-robin's table).
CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    entry_number INTEGER NOT NULL,
    joined_at TIMESTAMP NOT NULL,
    -- Withdrawn or out on time: not paired from this round on.
    left_before_round INTEGER,
    -- `withdrew` or `timeout`.
    left_reason TEXT CHECK (left_reason IN ('withdrew', 'timeout')),
    PRIMARY KEY (tournament_id, account_id),
    UNIQUE (tournament_id, entry_number)
);
-- Every game a tournament created, by round (one row per game: a game is in one round).
CREATE TABLE tournament_games (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL
);
CREATE INDEX tournament_games_round ON tournament_games (tournament_id, round);
-- The player sitting out a Swiss round (scored as a win): one a round.
CREATE TABLE tournament_byes (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (tournament_id, round)
);
