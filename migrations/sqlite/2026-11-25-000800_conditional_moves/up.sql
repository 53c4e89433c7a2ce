-- Each seat's conditional moves (issue 28): the lines it answers with, from the ply they start
-- at, private to the seat's player; and the last time a deviating move dropped them, so the
-- owner's next turn card can say so (dropped_ply is the ply of that card).
CREATE TABLE conditional_moves (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    lines TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    dropped_ply INTEGER,
    dropped_move TEXT,
    PRIMARY KEY (game_id, seat)
);
