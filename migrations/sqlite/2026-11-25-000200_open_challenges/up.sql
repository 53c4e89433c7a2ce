-- Open challenges (issue 26): a challenge's seat posted open has a row here and no
-- `game_seats` row until somebody takes it; leaving it deletes the `game_seats` row again.
-- The row stays, so the seat is known to be open (only such seats may be left).
CREATE TABLE open_seats (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- Rematches (issue 26): the one rematch challenge of a finished game, so asking again
-- answers the same challenge.
CREATE TABLE rematches (
    game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    rematch_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE
);
