-- Issue 48 point 3: a round's pairings are stored when it is paired and their games are
-- created from them in short batches (one transaction each), so that starting a big
-- round-robin never holds the write lock for more than a moment. A row goes when its game
-- is made (the game's row in tournament_games takes its place in the same transaction).
CREATE TABLE tournament_pairings (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round INTEGER NOT NULL,
    board INTEGER NOT NULL,
    -- The entrants' account ids by seat, comma-separated.
    seats TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round, board)
);
-- Each seat's place once the game is over ("1,2"; by seat), stored when the tournament's
-- sweep first reads the ended game, so that the standings never replay finished games.
ALTER TABLE tournament_games ADD COLUMN placings TEXT;
