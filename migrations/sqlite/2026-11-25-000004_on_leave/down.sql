ALTER TABLE game_seats DROP COLUMN left_ply;
ALTER TABLE game_seats DROP COLUMN played_by;
ALTER TABLE games DROP COLUMN on_leave;
