-- A word with your move (issue 28 point 2): the message a player sent with an action (a move,
-- a resignation, a draw offer or answer, accepting a challenge), at the game's ply then, stored
-- in the action's transaction; seen by the game's players only.
CREATE TABLE move_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    ply INTEGER NOT NULL,
    action TEXT NOT NULL,
    body TEXT NOT NULL,
    sent_at TIMESTAMP NOT NULL
);
CREATE INDEX move_messages_game ON move_messages (game_id, ply);
-- Messages a player does not want to see: those of a game, and those of a person in any game.
CREATE TABLE message_game_mutes (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, game_id)
);
CREATE TABLE message_person_mutes (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    muted_account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    PRIMARY KEY (account_id, muted_account_id)
);
