-- The challenge option on-leave (issue 17): `remove` (the default: a seat that leaves a game of
-- three or more seats takes its pegs off the board) or `bot` (a server bot plays the seat on
-- with its pegs).
ALTER TABLE games ADD COLUMN on_leave TEXT NOT NULL DEFAULT 'remove'
    CHECK (on_leave IN ('remove', 'bot'));
-- The bot account that plays a seat on for a player who left (NULL: the player plays it).
ALTER TABLE game_seats ADD COLUMN played_by BIGINT REFERENCES accounts (id);
-- The ply at which the seat's player left (both ways), so departures rank in order.
ALTER TABLE game_seats ADD COLUMN left_ply INTEGER;
